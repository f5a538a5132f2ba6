# Two commands for a fresh machine with Python 3.11+:  make run  and  make test.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# the light install (playing, solving, serving) for make run; the test and lint tools on top for the rest.
# --no-compile: Python writes the bytecode of the modules it imports as it first imports them, not of
# every module of SciPy and NumPy at install time (about 90 MB less; bench/setup.py measures it)
BASE   := $(VENV)/.installed-base
PORT   ?= 8000

.PHONY: run test lint docs bench clean

$(BASE): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --no-compile -e .
	touch $(BASE)

$(STAMP): $(BASE)
	$(BIN)/python -m pip install --quiet -e ".[dev,neural,dataset]"
	touch $(STAMP)

## run: install what playing and serving need, show a board, then serve the web arena at
## http://127.0.0.1:$(PORT) (make run PORT=8080 for another port; Ctrl-C stops it). The clone gets
## its own store, .noughts/noughts.db (noughts finds it from any folder inside the clone).
run: $(BASE)
	mkdir -p .noughts
	$(BIN)/noughts show tictactoe
	$(BIN)/noughts serve --open --port $(PORT)

## test: install the test and lint tools too and run the test suite (slow tests excluded), one worker per core
## (each test file stays in one worker, so the kernels it compiles are compiled once)
test: $(STAMP)
	$(BIN)/python -m pytest -m "not slow" -q -n auto --dist loadfile

## lint: ruff (lint + format check) and mypy (strict on noughts.core)
lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

## docs: the docs site into site/ (mkdocs, the API reference generated from the docstrings);
## warnings are errors (--strict): a broken link or a docstring that does not render fails it
docs: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[docs]"
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

## bench: the benchmarks in bench/ against their peers (installs the peers)
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[dev,bench]"
	$(BIN)/python bench/playouts.py
	$(BIN)/python bench/solve.py
	$(BIN)/python bench/solve_targets.py
	$(BIN)/python bench/batch_playouts.py
	$(BIN)/python bench/mcts.py
	$(BIN)/python bench/minimax.py
	$(BIN)/python bench/td.py
	$(BIN)/python bench/qlearning.py
	$(BIN)/python bench/pairing.py
	$(BIN)/python bench/cube7.py
	$(BIN)/python bench/web.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache site
