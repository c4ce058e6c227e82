# Two commands do everything on a fresh clone:
#   make run    - the main job with its defaults: `sette train` (sets up .venv on first use)
#   make test   - the type check (make typecheck), then the test suite (sets up .venv on first use)
# `make setup` exists too, but nobody needs to call it first.

PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-stamp
EXTRAS ?= dev,bench,train,play

.PHONY: setup run typecheck test bench clean

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

test: typecheck
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python benchmarks/bench_env.py

clean:
	rm -rf $(VENV) build *.egg-info
