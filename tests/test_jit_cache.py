"""numba's on-disk cache of the compiled kernels follows every source they are built from.

numba checks a cached kernel against its own file only; a kernel that inlines
another module's code (the VecEnv's turns inline the engine's step and the
observer, and call the policies' kernels) would otherwise keep running the old
code after that module changed (``envs.batch.jit_cache``).
"""

from __future__ import annotations

from pathlib import Path

from agents.batch_policies import POLICY_SOURCES
from agents.batch_turns import TURNS_SOURCES
from envs.batch.jit_cache import refresh

ROOT = Path(__file__).resolve().parents[1]


def _cached(cache: Path, module: str) -> list[Path]:
    files = [cache / f"{module}.kernel-12.py311.nbi", cache / f"{module}.kernel-12.py311.1.nbc"]
    for path in files:
        path.write_bytes(b"machine code")
    return files


def test_a_changed_source_clears_the_cached_kernels_of_the_modules_built_from_it(
        tmp_path: Path) -> None:
    own, shared = tmp_path / "own.py", tmp_path / "shared.py"
    own.write_text("X = 1\n")
    shared.write_text("Y = 1\n")
    modules = {"first": (own, shared), "second": (own,)}
    refresh(tmp_path, modules)  # the first stamp
    cache = tmp_path / "__pycache__"
    first, second = _cached(cache, "first"), _cached(cache, "second")
    refresh(tmp_path, modules)
    assert all(path.exists() for path in first + second)  # nothing changed: all kept
    shared.write_text("Y = 2\n")
    refresh(tmp_path, modules)
    assert not any(path.exists() for path in first)  # built from the changed file: cleared
    assert all(path.exists() for path in second)
    assert (cache / "first.sources.sha256").exists()


def test_the_agents_kernels_follow_the_engine_code_they_are_built_from() -> None:
    engine = {ROOT / "envs" / "batch" / name for name in (
        "kernels.py", "kernels_table.py", "kernels_rulebook.py", "obs_kernels.py", "rng.py",
        "handles.py", "prefetch.py", "table_jit.py")}
    assert engine <= set(TURNS_SOURCES)
    assert set(POLICY_SOURCES) <= set(TURNS_SOURCES)
    assert {ROOT / "agents" / "heuristics.py", ROOT / "envs" / "observation.py",
            ROOT / "envs" / "batch" / "table_jit.py"} <= set(POLICY_SOURCES)
