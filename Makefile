# Two commands do everything on a fresh clone:
#   make run    - the main job with its defaults: `sette train` (sets up .venv on first use)
#   make test   - the type check (make typecheck), then the test suite (sets up .venv on first use),
#                 then the RLlib backend's tests (make test-rllib: sets up .venv-rllib on first use)
# `make setup` exists too, but nobody needs to call it first.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
EXTRAS ?= dev,bench,train,play
TEST_WORKERS ?= auto

.PHONY: setup run typecheck test test-rllib bench clean

setup: $(STAMP)

# setup.py compiles these engine modules with mypyc (envs/_native.py): rebuild when they change.
NATIVE_SOURCES := $(addprefix envs/,cards.py actions.py hands.py phases.py rulebook.py house_rules.py bank_seat.py engine.py observer.py seat_play.py _native.py)

$(STAMP): pyproject.toml Makefile setup.py $(NATIVE_SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[$(EXTRAS)]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/sette train

# mypy over every module (settings in pyproject.toml's [tool.mypy]).
TYPECHECKED := envs agents play evaluate train benchmarks

typecheck: $(STAMP)
	$(BIN)/python -m mypy $(TYPECHECKED)

# The main suite on TEST_WORKERS processes (pytest-xdist, default one per core; each test
# file stays in one worker, so its fixtures are built once), after the batch engine's numba
# kernels are compiled once into their disk cache (python -m envs.batch.warm) rather than by
# every worker at once; then the RLlib backend's tests in their own virtualenv (make test-rllib).
# TEST_WORKERS=0 runs the suite in one process. The workers share the cores, so their
# kernels use numba's non-spinning workqueue threading layer (envs/batch/threads.py says
# why; tests/test_batch_threads.py plays the default layer too).
test: typecheck
	$(BIN)/python -m envs.batch.warm
	NUMBA_THREADING_LAYER=workqueue $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile
	$(MAKE) test-rllib

# The RLlib backend's own virtualenv (ray[rllib] 2.60 pins gymnasium==1.2.2): the
# project's dependencies and the rllib extra, with the checkout on its path (a .pth
# file), so it runs the engine's compiled core that `make setup` built instead of
# compiling it again (an editable install there would rebuild it in the source tree).
# torch comes first, so that ray never pulls a CUDA build. Its tests: the RLlib ones,
# and the env's own under the gymnasium RLlib needs.
RLLIB_VENV  ?= .venv-rllib
RLLIB_BIN   := $(RLLIB_VENV)/bin
RLLIB_STAMP := $(RLLIB_VENV)/.installed-stamp
RLLIB_TESTS := tests/rllib tests/test_rllib_policy.py tests/test_pettingzoo_api.py tests/test_seeding.py

$(RLLIB_STAMP): pyproject.toml $(STAMP)
	test -x $(RLLIB_BIN)/python || $(PYTHON) -m venv $(RLLIB_VENV)
	$(RLLIB_BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -c "import sys; tomllib = __import__('tomllib' if sys.version_info >= (3, 11) else 'tomli'); p = tomllib.load(open('pyproject.toml', 'rb'))['project']; print('\n'.join(p['dependencies'] + p['optional-dependencies']['rllib'] + ['pytest>=8']))" > $(RLLIB_VENV)/requirements.txt
	$(RLLIB_BIN)/python -m pip install --quiet -r $(RLLIB_VENV)/requirements.txt
	$(RLLIB_BIN)/python -c "import os, sysconfig; open(os.path.join(sysconfig.get_paths()['purelib'], 'sette-e-mezzo-checkout.pth'), 'w').write(os.getcwd() + '\n')"
	touch $(RLLIB_STAMP)

test-rllib: $(RLLIB_STAMP)
	$(RLLIB_BIN)/python -m pytest -q $(RLLIB_TESTS)

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_env.py

clean:
	rm -rf $(VENV) $(RLLIB_VENV) build *.egg-info
