"""Keep numba's on-disk cache of the batch engine's kernels in step with their sources.

numba (``cache=True``) checks a cached function against its own source file
only: a kernel compiled with the code of another module inlined in it (the
table kernels call :mod:`envs.batch.kernels_table`, which calls the rulebook
twins and the generator, and the step and reset kernels the observer's
row readers) would keep running the old code after that other module
changed. :func:`refresh` therefore stamps the cache with a digest of every
source the kernels are built from, and clears the kernels' cached files
when the digest changes. It runs for this package when
:mod:`envs.batch.table_jit` is imported — every kernel module compiles with
it — so before any kernel is compiled or loaded; a package with kernels of
its own built on these (:mod:`agents.batch_policies`, :mod:`agents.batch_turns`)
calls it for its own folder and sources when it is imported.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

__all__ = ["CONSTANTS", "SOURCES", "refresh"]

_HERE: Final = Path(__file__).resolve().parent
_ENVS: Final = _HERE.parent

CONSTANTS: Final = tuple(_ENVS / name for name in (
    "actions.py", "cards.py", "hands.py", "phases.py", "rulebook.py", "events.py", "rules.py"))
"""The modules of :mod:`envs` whose constants the kernels are compiled with."""
_RULEBOOK: Final = (_HERE / "kernels_rulebook.py", _HERE / "table_jit.py", *CONSTANTS)
_TABLE: Final = (_HERE / "kernels_table.py", _HERE / "handles.py", _HERE / "rng.py",
                 _HERE / "event_rows.py",
                 *_RULEBOOK)

SOURCES: Final[dict[str, tuple[Path, ...]]] = {
    "rng": (_HERE / "rng.py", _HERE / "table_jit.py"),
    "kernels_rulebook": _RULEBOOK,
    "kernels_table": _TABLE,
    "kernels": (_HERE / "kernels.py", *_TABLE, _HERE / "obs_kernels.py",
                _ENVS / "observation.py", _HERE / "prefetch.py"),
    "kernels_fused": (_HERE / "kernels_fused.py", *_TABLE),
    "obs_kernels": (_HERE / "obs_kernels.py", _HERE / "handles.py", _HERE / "table_jit.py",
                    _HERE / "event_rows.py", *CONSTANTS, _ENVS / "observation.py"),
}
"""Each kernel module and the files whose code or constants its kernels are compiled from."""


def refresh(folder: Path = _HERE,
            modules: Mapping[str, Sequence[Path]] = SOURCES) -> None:
    """Clear the cached machine code of a kernel module of ``folder`` (numba's files in its
    ``__pycache__``) if any of its sources (``modules``: module name -> the files its
    kernels are compiled from; this package's :data:`SOURCES` by default) changed since
    it was built.

    Best effort: a read-only installation (numba then caches elsewhere) is left alone.
    """
    cache = folder / "__pycache__"
    try:
        cache.mkdir(exist_ok=True)
        for module, sources in modules.items():
            digest = hashlib.sha256()
            for path in sources:
                digest.update(path.read_bytes())
            stamp = digest.hexdigest()
            marker = cache / f"{module}.sources.sha256"
            if marker.exists() and marker.read_text() == stamp:
                continue
            for path in cache.glob(f"{module}.*"):
                if path.suffix in (".nbi", ".nbc"):
                    path.unlink()
            marker.write_text(stamp)
    except OSError:
        pass
