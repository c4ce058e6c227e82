"""The docstring examples of the public API run, and print what they show.

Doctest runs over an explicit list of modules (not ``--doctest-modules``:
most modules have no examples, and importing every module would load
training). The examples are read from each module's *source* file and run
against the module as imported, so they hold whether the engine's core runs
compiled (mypyc keeps no docstrings of functions) or from its sources.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODULES = (
    "envs.cards",
    "envs.rules",
    "envs.engine",
    "envs.sette_e_mezzo",
    "envs.events",
    "envs.observation",
    "agents.registry",
    "play.tables",
    "train.cli",
)
"""Modules whose docstrings carry examples of the public API."""

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def docstrings(module: str) -> list[tuple[str, str, int]]:
    """``(qualified name, docstring, line)`` of the module, its classes and its functions."""
    tree = ast.parse((ROOT / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
    found: list[tuple[str, str, int]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}.{child.name}"
                doc = ast.get_docstring(child, clean=False)
                if doc:
                    found.append((name, doc, child.body[0].lineno))
                visit(child, name)

    doc = ast.get_docstring(tree, clean=False)
    if doc:
        found.append((module, doc, 1))
    visit(tree, module)
    return found


@pytest.mark.parametrize("module", MODULES)
def test_the_examples_run(module: str) -> None:
    imported = importlib.import_module(module)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=FLAGS)
    filename = str(ROOT / (module.replace(".", "/") + ".py"))
    examples = 0
    for name, doc, line in docstrings(module):
        test = parser.get_doctest(doc, dict(vars(imported)), name, filename, line)
        examples += len(test.examples)
        runner.run(test)
    assert examples, f"{module} is listed but has no examples"
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {module}'s examples failed (output above)"


def test_a_wrong_example_fails() -> None:
    """The runner would catch an example whose output is not what it prints."""
    test = doctest.DocTestParser().get_doctest(">>> 1 + 1\n3\n", {}, "wrong", "wrong.py", 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test, out=lambda _text: None)
    assert runner.summarize(verbose=False).failed == 1
