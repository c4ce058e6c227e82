"""The compiled core (envs._native): used when fresh, identical to the sources, picklable.

``make setup`` compiles the engine's hot modules with mypyc. These tests
check that the build is the one in use (so a broken build cannot silently
slow everything down), that the compiled and the pure-Python engine play
every preset identically, that a stale or partial build is never used, and
that the compiled objects pickle like plain Python ones.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import pickle
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import envs
from envs import _native
from envs.engine import Engine
from envs.observer import Observer
from envs.rules import PRESETS

ENVS_DIR = Path(_native.__file__).resolve().parent


def play_digest(presets: list[str], seed: int = 11) -> str:
    """SHA-256 over the event logs and every observation of seeded random play."""
    digest = hashlib.sha256()
    for preset in presets:
        engine = Engine(preset, 4, 6)
        observer = Observer(engine)
        rnd = random.Random(seed)
        engine.reset(seed=seed)
        while not engine.over:
            digest.update(observer.observe(engine.actor).tobytes())
            digest.update(engine.action_mask().tobytes())
            engine.step(rnd.choice(engine.legal_actions()))
        digest.update(repr(engine.events).encode())
    return digest.hexdigest()


def run_pure(code: str) -> str:
    """Run ``code`` in a fresh interpreter on the pure-Python sources; its stdout."""
    env = dict(os.environ, **{_native.PURE_ENV: "1"})
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, timeout=300, cwd=Path(__file__).parent)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_the_compiled_core_is_in_use():
    if os.environ.get(_native.PURE_ENV):
        pytest.skip(f"{_native.PURE_ENV} is set: the sources are tested on purpose")
    assert envs.COMPILED, (f"the engine runs from its sources: {envs.COMPILED_WHY}. "
                           f"Rebuild with `make setup` (needs a C compiler), or set "
                           f"{_native.PURE_ENV}=1 to test the pure-Python engine")
    assert Path(sys.modules["envs.engine"].__file__).suffix != ".py"


def test_pure_python_sources_play_every_preset_exactly_like_the_compiled_core():
    presets = sorted(PRESETS)
    pure = run_pure("import envs, sys; sys.path.insert(0, '.'); from test_native import "
                    f"play_digest; print(envs.COMPILED, play_digest({presets!r}))")
    assert pure == f"False {play_digest(presets)}"


def test_pure_python_is_forced_by_the_environment_variable():
    out = run_pure("import envs, envs.engine, sys; print(envs.COMPILED, envs.COMPILED_WHY, "
                   "sys.modules['envs.engine'].__file__)")
    assert out.startswith(f"False {_native.PURE_ENV} is set")
    assert out.endswith("engine.py")


@pytest.fixture()
def copied_sources(tmp_path: Path) -> Path:
    for name in _native.NATIVE_MODULES:
        shutil.copy(ENVS_DIR / f"{name}.py", tmp_path / f"{name}.py")
    return tmp_path


def fake_build(directory: Path) -> None:
    for name in _native.NATIVE_MODULES:
        (directory / f"{name}.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    (directory / _native.MANIFEST).write_text(_native.manifest_text(directory))


def test_a_build_is_used_only_when_complete_and_from_the_same_sources(copied_sources: Path):
    directory = copied_sources
    assert _native.decide(directory, {}) == (
        False, "not compiled (" + ", ".join(_native.NATIVE_MODULES) + ")")
    fake_build(directory)
    if importlib.util.find_spec(f"{_native.GROUP}__mypyc") is None:  # a pure install
        assert _native.decide(directory, {})[1].startswith("stale: the shared library")
    else:
        assert _native.decide(directory, {}) == (True, "compiled with mypyc")
    assert _native.decide(directory, {_native.PURE_ENV: "1"})[0] is False
    engine = directory / "engine.py"
    engine.write_text(engine.read_text() + "\n# edited after the build\n")
    assert _native.decide(directory, {}) == (False, "stale: engine.py changed since the build")
    (directory / _native.MANIFEST).write_text("not json")
    assert _native.decide(directory, {})[1].startswith("stale: compiled modules without")
    (directory / "observer.cpython-311-x86_64-linux-gnu.so").unlink()
    assert _native.decide(directory, {}) == (False, "not compiled (observer)")


def test_manifest_records_the_sources_digests(copied_sources: Path):
    recorded = json.loads(_native.manifest_text(copied_sources))["sources"]
    assert recorded["engine"] == hashlib.sha256(
        (copied_sources / "engine.py").read_bytes()).hexdigest()
    assert sorted(recorded) == sorted(_native.NATIVE_MODULES)


@pytest.mark.parametrize("preset", ["catalan", "spanish_full", "italian"])
def test_engine_and_observer_pickle_mid_hand_and_play_on_identically(preset):
    engine = Engine(preset, 4, 5)
    observer = Observer(engine)
    engine.reset(seed=4)
    rnd = random.Random(0)
    for _ in range(9):
        observer.observe(engine.actor)
        engine.step(rnd.choice(engine.legal_actions()))
    copy_engine, copy_observer = pickle.loads(pickle.dumps((engine, observer)))
    assert copy_engine.events == engine.events and copy_engine is not engine
    a, b = random.Random(7), random.Random(7)
    while not engine.over:
        assert (observer.observe(engine.actor) == copy_observer.observe(copy_engine.actor)).all()
        engine.step(a.choice(engine.legal_actions()))
        copy_engine.step(b.choice(copy_engine.legal_actions()))
    assert copy_engine.events == engine.events
    assert copy_engine.chips == engine.chips
