"""The README's quick start prints exactly the tables the README shows."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def _quick_start() -> tuple[str, str]:
    """The quick start's first Python block and the plain block that shows its output."""
    section = README.read_text(encoding="utf-8").split("## Quick start", 1)[1]
    block = re.search(r"```python\n(.*?)```\n", section, re.S)
    shown = re.search(r"\n```\n(.*?)```", section[block.end():], re.S).group(1)
    return block.group(1), shown


def test_quick_start_prints_the_tables_the_readme_shows():
    code, shown = _quick_start()
    assert "env.render()" in code and "episode over" in shown
    result = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True,
                            text=True, timeout=120, check=True)
    assert result.stdout == shown
