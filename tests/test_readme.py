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
    assert block, "the quick start has a python block"
    shown = re.search(r"\n```\n(.*?)```", section[block.end():], re.S)
    assert shown, "the quick start shows its output"
    return block.group(1), shown.group(1)


def test_quick_start_prints_the_tables_the_readme_shows():
    code, shown = _quick_start()
    assert "env.render()" in code and "episode over" in shown
    result = subprocess.run([sys.executable, "-W", "ignore", "-c", code], capture_output=True,
                            text=True, timeout=120, check=True)
    assert result.stdout == shown


ROOT = README.parent
PAGES = [README, ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(page: Path) -> set[str]:
    """GitHub's anchor of every heading of ``page``: lower case, punctuation dropped, '-' for ' '."""
    headings = re.findall(r"^#+ (.*)$", page.read_text(encoding="utf-8"), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def test_every_link_between_the_pages_leads_somewhere():
    """The README is short and points on: each relative link names a file (and heading) there is."""
    broken = []
    for page in (p for p in PAGES if p.is_file()):
        for target in LINK.findall(page.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if not linked.exists() or (anchor and anchor not in _anchors(linked)):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, "links to nothing:\n" + "\n".join(broken)


def test_the_readme_points_to_every_page_of_the_docs():
    text = README.read_text(encoding="utf-8")
    pages = [p for p in PAGES[2:] if "sample-report" not in p.parts]
    assert pages, "the docs have pages"
    missing = [str(p.relative_to(ROOT)) for p in pages if f"({p.relative_to(ROOT)})" not in text]
    assert not missing, f"README's 'Where to read on' lacks {missing}"
