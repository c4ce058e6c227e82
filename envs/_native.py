"""Which engine runs: the compiled core or the pure-Python sources.

The engine's hot modules (:data:`NATIVE_MODULES`) are plain Python, and
installing the package also compiles them to C extensions with mypyc
(``setup.py``): the same code, several times faster per game step
(docs/PERFORMANCE.md).
Python imports a compiled module in preference to its source even after the
source was edited, so the choice is made here, explicitly, before any of
them is imported:

* the compiled modules are used only when every one of them is present and
  the manifest written after a successful build (:data:`MANIFEST`) holds the
  SHA-256 of exactly the sources beside them;
* otherwise — not built, built from older sources, or ``SETTE_PURE_PYTHON=1``
  in the environment — the sources are imported, with a warning when a
  stale build is being bypassed (rebuild with ``make setup`` or
  ``pip install -e .``).

Compiled code enforces the type annotations of its functions at run time,
which is why the public entry points of those modules accept ``object`` or
numpy integers where they check the value themselves.

This module uses only the standard library: ``setup.py`` imports it
before the package's dependencies exist.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from pathlib import Path

NATIVE_MODULES = ("cards", "actions", "hands", "phases", "rulebook", "house_rules", "bank_seat",
                  "engine", "observer", "seat_play")
"""Modules of ``envs`` compiled by mypyc, in import order."""

GROUP = "sette_native"
"""mypyc group name: the shared library is the top-level module ``sette_native__mypyc``."""

MANIFEST = "_native_manifest.json"
PURE_ENV = "SETTE_PURE_PYTHON"

_HERE = Path(__file__).resolve().parent


def source_digests(directory: Path = _HERE) -> dict[str, str]:
    """SHA-256 of each compiled module's source in ``directory``."""
    return {name: hashlib.sha256((directory / f"{name}.py").read_bytes()).hexdigest()
            for name in NATIVE_MODULES}


def manifest_text(directory: Path = _HERE) -> str:
    """The manifest recording which sources a build compiled."""
    return json.dumps({"group": GROUP, "sources": source_digests(directory)}, indent=2) + "\n"


def _compiled(directory: Path, name: str) -> bool:
    return any((directory / f"{name}{suffix}").is_file()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def decide(directory: Path = _HERE, environ: dict[str, str] | os._Environ = os.environ
           ) -> tuple[bool, str]:
    """``(use_compiled, why)`` for the modules in ``directory``."""
    if environ.get(PURE_ENV):
        return False, f"{PURE_ENV} is set"
    missing = [name for name in NATIVE_MODULES if not _compiled(directory, name)]
    if missing:
        return False, "not compiled (" + ", ".join(missing) + ")"
    try:
        recorded = json.loads((directory / MANIFEST).read_text())["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return False, f"stale: compiled modules without a valid {MANIFEST}"
    changed = [name for name, digest in source_digests(directory).items()
               if recorded.get(name) != digest]
    if changed:
        return False, "stale: " + ", ".join(f"{name}.py" for name in changed) + \
            " changed since the build"
    if importlib.util.find_spec(f"{GROUP}__mypyc") is None:
        return False, f"stale: the shared library {GROUP}__mypyc is missing"
    return True, "compiled with mypyc"


class _SourceFinder:
    """Meta-path finder that imports the listed ``envs`` modules from their ``.py`` files."""

    def __init__(self, directory: Path) -> None:
        self.paths = {f"envs.{name}": directory / f"{name}.py" for name in NATIVE_MODULES}

    def find_spec(self, fullname: str, path: object = None, target: object = None
                  ) -> importlib.machinery.ModuleSpec | None:
        source = self.paths.get(fullname)
        if source is None:
            return None
        return importlib.util.spec_from_file_location(fullname, source)


def install() -> tuple[bool, str]:
    """Choose for the modules of this package; call before importing any of them."""
    native, why = decide()
    if not native:
        if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
            sys.meta_path.insert(0, _SourceFinder(_HERE))
        if why.startswith("stale"):
            warnings.warn(f"envs: the compiled engine is {why}; running the pure-Python "
                          "sources instead (same results, slower). Rebuild with "
                          "`make setup` or `pip install -e .`", stacklevel=3)
    return native, why
