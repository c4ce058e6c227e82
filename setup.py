"""Build hook: compile the engine's hot modules with mypyc (the rest is in pyproject.toml).

The package is pure Python. ``envs/_native.py`` names the modules that are
also compiled to C extensions by mypyc when the package is installed (about
3x faster game steps); they are used only when every one was built from the
sources beside it, which the manifest written after a successful build
records. Without a C compiler, with a type error in a compiled module, or
with ``SETTE_PURE_PYTHON=1`` set, the install goes on pure Python and says so.
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT / "envs"))
import _native  # noqa: E402  (envs/_native.py: stdlib only, importable without the package)

sys.path.pop(0)


def _warn(message: str) -> None:
    print(f"sette-e-mezzo: {message}; the engine runs as pure Python (slower, same results)",
          file=sys.stderr)


@lru_cache(maxsize=None)  # setuptools may finalize build_ext more than once
def native_extensions() -> list:
    """The mypyc extensions, or none when the compiled core is not wanted or not possible."""
    if os.environ.get(_native.PURE_ENV):
        _warn(f"{_native.PURE_ENV} is set: not compiling the core")
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not installed (pip installs it with mypy from pyproject.toml)")
        return []
    sources = [f"envs/{name}.py" for name in _native.NATIVE_MODULES]
    try:
        return mypycify(sources, group_name=_native.GROUP, opt_level="3")
    except (SystemExit, Exception) as exc:  # mypyc reports type errors by exiting
        _warn(f"mypyc could not compile {', '.join(sources)} ({exc!r})")
        return []


class OptionalBuildExt(build_ext):
    """``build_ext`` that runs mypyc, falls back to pure Python and records what it built.

    mypyc runs here rather than when ``setup.py`` is read: pip reads it for
    the package metadata too, and compiling twice would double the install.
    """

    def finalize_options(self) -> None:
        self.distribution.ext_modules = list(native_extensions())
        super().finalize_options()

    def run(self) -> None:
        targets = [ROOT / "envs", Path(self.build_lib) / "envs"]
        for directory in targets:  # no manifest survives a failed or partial build
            (directory / _native.MANIFEST).unlink(missing_ok=True)
        # Nor does an extension of an earlier build where this one writes its own.
        out = ROOT if self.inplace else Path(self.build_lib)
        stale = [f"envs/{name}" for name in _native.NATIVE_MODULES] + [f"{_native.GROUP}__mypyc"]
        for stem in stale:
            for old in out.glob(f"{stem}.*"):
                if old.suffix in (".so", ".pyd"):
                    old.unlink()
        if not self.extensions:
            return
        try:
            super().run()
        except Exception as exc:  # no compiler, a compile error: keep the pure install
            _warn(f"compiling the core failed ({exc!r})")
            return
        manifest = _native.manifest_text(ROOT / "envs")
        for directory in targets:  # the source tree (editable installs) and the wheel
            directory.mkdir(parents=True, exist_ok=True)
            (directory / _native.MANIFEST).write_text(manifest)


setup(
    # A placeholder that marks the package as having extensions (a platform
    # wheel, build_ext runs); OptionalBuildExt puts mypyc's in its place.
    ext_modules=[Extension(f"{_native.GROUP}__mypyc", sources=[])],
    cmdclass={"build_ext": OptionalBuildExt},
    package_data={"envs": [_native.MANIFEST]},
)
