"""The tutorials in docs/tutorials/ run as written, so they never rot.

Each page is run top to bottom in an empty folder, in a fresh interpreter:
``python`` blocks in one shared namespace, in order; ``console`` blocks run
their ``$ `` lines with the shell (``sette`` is this interpreter's); a block
whose info string names a file (```` ```toml first-bank.toml ````) is written
to that file first. ``text`` blocks show output: they are not run, but the
output must have their shape (the same lines, numbers aside). Every
``sette`` command a page quotes in running text is parsed by the real parser,
and every figure a page makes (:data:`FIGURES`) is a real PNG afterwards.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from train.cli import build_parser

TUTORIALS = Path(__file__).resolve().parents[1] / "docs" / "tutorials"
FIGURES = {
    "first-bank.md": ("strategy-bank.png",),
    "rule-variants.md": ("my_table/ev.png", "my_table/strategy-player.png",
                         "my_table/strategy-bank.png"),
}
"""The figures each page makes (and names in its text), relative to its folder."""
PAGES = tuple(FIGURES)
FENCE = re.compile(r"^```(\w+)[ \t]*([^\n]*)\n(.*?)^```$", re.S | re.M)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"

_DRIVER = """
import json, subprocess, sys
namespace = {"__name__": "__main__"}
for kind, name, text in json.load(open(sys.argv[1], encoding="utf-8")):
    print(f"--- {kind} {name}", flush=True)
    if kind == "file":
        open(name, "w", encoding="utf-8").write(text)
    elif kind == "python":
        exec(compile(text, name, "exec"), namespace)
    else:
        subprocess.run(text, shell=True, check=True, executable="/bin/bash")
    sys.stdout.flush()
"""


def steps(page: str) -> list[tuple[str, str, str]]:
    """The page's runnable blocks in order: ``(kind, name, text)``."""
    found = []
    for number, match in enumerate(FENCE.finditer((TUTORIALS / page).read_text("utf-8"))):
        language, target, body = match.groups()
        if target:
            found.append(("file", target.strip(), body))
        elif language == "python":
            found.append(("python", f"{page} block {number}", body))
        elif language == "console":
            for command in re.findall(r"^\$ (.*(?:\\\n.*)*)", body, re.M):
                found.append(("shell", command.replace("\\\n", " "), command))
    return found


def shown_output(page: str) -> list[str]:
    """The page's ``text`` blocks: output it shows."""
    text = (TUTORIALS / page).read_text("utf-8")
    return [body for language, _target, body in FENCE.findall(text) if language == "text"]


def _shape(line: str) -> str:
    """A printed line with every number replaced by ``N``: its layout, not its values."""
    return re.sub(r"[+-]?\d+(?:\.\d+)?", "N", line.strip())


def quoted_commands(page: str) -> list[str]:
    """Every ``sette …`` command the page quotes in running text (inline code)."""
    prose = FENCE.sub("", (TUTORIALS / page).read_text("utf-8"))
    return re.findall(r"`(sette [^`]+)`", prose)


@pytest.mark.parametrize("page", PAGES)
def test_the_tutorial_runs_as_written(page: str, tmp_path: Path) -> None:
    plan = steps(page)
    assert any(kind == "python" for kind, _n, _t in plan) and any(
        kind == "shell" for kind, _n, _t in plan), "a tutorial shows the API and the command"
    (tmp_path / "steps.json").write_text(json.dumps(plan), encoding="utf-8")
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONWARNINGS="ignore",
               PATH=os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]]))
    result = subprocess.run([sys.executable, "-c", _DRIVER, "steps.json"], cwd=tmp_path,
                            env=env, capture_output=True, text=True, timeout=300)
    if result.returncode:
        pytest.fail(f"{page} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    for name in FIGURES[page]:
        assert (tmp_path / name).read_bytes()[:8] == PNG_SIGNATURE, f"{page} made no {name}"
    printed = {_shape(line) for line in result.stdout.splitlines()}
    for shown in shown_output(page):
        missing = [line for line in shown.splitlines() if _shape(line) not in printed]
        assert not missing, f"{page} shows lines its commands do not print: {missing}"


@pytest.mark.parametrize("page", PAGES)
def test_every_quoted_command_parses(page: str, tmp_path: Path, monkeypatch) -> None:
    """A command quoted in the prose names real subcommands and options (in a folder holding
    the page's files, whose names options such as ``--rules`` read)."""
    monkeypatch.chdir(tmp_path)
    for kind, name, text in steps(page):
        if kind == "file":
            (tmp_path / name).write_text(text, encoding="utf-8")
    for command in quoted_commands(page):
        argv = shlex.split(command)[1:]
        try:
            build_parser(argv[0]).parse_args(argv)
        except SystemExit as stop:
            pytest.fail(f"{page}: `{command}` does not parse (exit {stop.code})")


def test_the_extraction_finds_every_kind_of_block() -> None:
    plan = steps("first-bank.md")
    kinds = [kind for kind, _name, _text in plan]
    assert kinds.count("file") == 1 and kinds.count("shell") >= 1 and kinds.count("python") >= 3
    assert ("file", "first-bank.toml") == plan[kinds.index("file")][:2]



@pytest.mark.parametrize("page", PAGES)
def test_the_page_names_the_figures_it_makes(page: str) -> None:
    text = (TUTORIALS / page).read_text("utf-8")
    for name in FIGURES[page]:
        assert name in text or Path(name).name in text, f"{page} does not name {name}"
