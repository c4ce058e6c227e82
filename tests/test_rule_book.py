"""The project's rule book, docs/RULES.md, answers every reference to it.

Code, tests and documentation cite rules by section: "RULES.md §4.8", "§6",
"§4.7–4.9". Each must name a section (``## 5. …``) or a numbered point of a
section (point 8 of §4) of docs/RULES.md, the rule book inside the clone. The
book's preset table (§7) lists exactly the presets of ``envs.rules``, and the
section each switch's docstring cites describes that switch and its values.
"""

from __future__ import annotations

import dataclasses
import re
import sys
from pathlib import Path

import pytest

from envs import rules
from envs.rules import PRESETS, SWITCH_DOCS, Rules

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "docs" / "RULES.md"
SOURCE_DIRS = ("envs", "agents", "evaluate", "train", "tests", "benchmarks", "docs")
"""Folders whose .py and .md files may cite the rule book (with README.md and setup.py)."""

SIGN = "§"
NUMBER = r"\d+(?:\.\d+)*"
REFERENCE = re.compile(SIGN + r"+\s*(" + NUMBER + r")(?:\s*[–-]\s*" + SIGN + r"?\s*(" + NUMBER + r"))?")
HEADING = re.compile(r"^## (\d+)\. ")
POINT = re.compile(r"^(\d+)\. ")


def book_sections(text: str) -> dict[str, str]:
    """Each section ("4") and numbered point ("4.8") of the book, with its text.

    A section starts at a ``## N. Title`` heading; a numbered point is an
    ``M. …`` list item at the left margin inside section N and runs to the
    next point or heading.
    """
    sections: dict[str, list[str]] = {}
    section = point = None
    for line in text.splitlines():
        heading = HEADING.match(line)
        if heading:
            section, point = heading.group(1), None
            sections[section] = [line]
            continue
        if line.startswith("#"):
            section = point = None
            continue
        if section is None:
            continue
        item = POINT.match(line)
        if item:
            point = f"{section}.{item.group(1)}"
            sections[point] = []
        sections[section].append(line)
        if point is not None:
            sections[point].append(line)
    return {key: "\n".join(lines) for key, lines in sections.items()}


def references(text: str) -> list[tuple[int, str]]:
    """(line number, section) of every section reference; a range gives both ends.

    "§4.7–4.9" gives 4.7 and 4.9; "§1–§4" gives 1 and 4; "§4.7-8" gives 4.7
    and 4.8 (a bare end inherits the start's section).
    """
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        for match in REFERENCE.finditer(line):
            start, end = match.group(1), match.group(2)
            found.append((number, start))
            if end is not None:
                if "." in start and "." not in end:
                    end = f"{start.rsplit('.', 1)[0]}.{end}"
                found.append((number, end))
    return found


def cited_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "setup.py"]
    for folder in SOURCE_DIRS:
        for pattern in ("*.py", "*.md"):
            files += (path for path in (ROOT / folder).rglob(pattern)
                      if "__pycache__" not in path.parts)
    return sorted(path for path in files if path.is_file())


def all_references() -> list[tuple[str, int, str]]:
    return [(str(path.relative_to(ROOT)), line, section)
            for path in cited_files()
            for line, section in references(path.read_text(encoding="utf-8"))]


SECTIONS = book_sections(BOOK.read_text(encoding="utf-8"))


def test_every_section_reference_resolves_in_the_book() -> None:
    """A reference to a section the book does not have names its file and line."""
    missing = [f"{path}:{line}: {SIGN}{section}"
               for path, line, section in all_references() if section not in SECTIONS]
    assert not missing, ("references to no section of docs/RULES.md:\n" + "\n".join(missing))


def test_the_scan_finds_the_references_of_code_docs_and_tests() -> None:
    """The scan reads the README, the rules module and the tests (it cannot pass by seeing nothing)."""
    cited = {path for path, _line, _section in all_references()}
    assert {"README.md", "envs/rules.py", "docs/RULES.md"} <= cited
    assert any(path.startswith("tests/") for path in cited)


@pytest.mark.parametrize("section", ["1", "2", "3", "4", "5", "6", "7", "8", "4.1", "4.3", "4.8",
                                     "4.9", "8.1", "8.9", "8.10"])
def test_the_book_has_the_sections_the_code_cites(section: str) -> None:
    assert section in SECTIONS


@pytest.mark.parametrize("section", ["0", "9", "4.0", "4.10", "5.3", "6.1", "8.11", "4.2.4"])
def test_a_section_the_book_lacks_does_not_resolve(section: str) -> None:
    """Sections 5 and 6 are lists of switches, not numbered points: 5.3 names nothing."""
    assert section not in SECTIONS


def test_references_read_ranges_and_plain_sections() -> None:
    text = (f"RULES.md {SIGN}4.8 pays; {SIGN}4.7–4.9 settles\n"
            f"{SIGN}1–{SIGN}4 and {SIGN}4.7-8, then {SIGN}6.")
    assert references(text) == [(1, "4.8"), (1, "4.7"), (1, "4.9"),
                                (2, "1"), (2, "4"), (2, "4.7"), (2, "4.8"), (2, "6")]


def test_preset_table_lists_exactly_the_presets() -> None:
    """RULES.md §7: one row per preset of envs.rules, in the same order."""
    rows = [line for line in SECTIONS["7"].splitlines() if line.startswith("| `")]
    names = [re.match(r"\| `([a-z_]+)` \|", row).group(1) for row in rows]
    assert names == list(PRESETS)


@pytest.mark.parametrize("switch", [f.name for f in dataclasses.fields(Rules)])
def test_each_switch_is_described_in_the_section_its_docstring_cites(switch: str) -> None:
    """The section named first in the switch's docstring names it and every allowed value."""
    cited = re.search(SIGN + "(" + NUMBER + ")", SWITCH_DOCS[switch])
    assert cited, f"{switch}: its docstring cites no section: {SWITCH_DOCS[switch]!r}"
    text = SECTIONS.get(cited.group(1), "")
    assert f"`{switch}`" in text, f"{switch} is not described in {SIGN}{cited.group(1)}"
    choices = next(f for f in dataclasses.fields(Rules) if f.name == switch).metadata["choices"]
    absent = [value for value in choices or () if f"`{value}`" not in text]
    assert not absent, f"{switch}: {SIGN}{cited.group(1)} does not name {absent}"


def test_table_size_is_the_one_the_rules_module_allows() -> None:
    """RULES.md §2 states the seat range and the seats one deck serves as envs.rules has them."""
    text = " ".join(SECTIONS["2"].split())
    assert f"N from {rules.MIN_SEATS} to {rules.MAX_SEATS}" in text
    assert f"more than {rules.SEATS_PER_DECK} seats needs a shoe of at least two decks" in text


def test_header_names_the_package_version_and_the_rules_module() -> None:
    """The book says which release's rules it describes and where each switch is documented."""
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    header = BOOK.read_text(encoding="utf-8").split("\n## ", 1)[0]
    assert f"version {version}" in header
    assert "envs/rules.py" in header


def test_sources_are_cited_by_name_not_by_seed_file() -> None:
    text = BOOK.read_text(encoding="utf-8")
    for name in ("Set i Mig", "pagat.com", "ludoteka.com", "Las siete y media", "Sette e mezzo"):
        assert name in text
    assert not re.search(r"\b\d{3}_[0-9a-f]{16}\b|seeds/", text)
