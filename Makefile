# Two commands for a fresh machine with Python 3.11+:  make run  and  make test.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

## run: install everything and run the demo (show a board, watch a game)
run: $(STAMP)
	$(BIN)/noughts show "hypercube(7,3)"
	$(BIN)/noughts show tictactoe
	$(BIN)/noughts play "misere(mnk(3,3,3))" --x random --o random --seed 7

## test: install everything and run the test suite (slow tests excluded)
test: $(STAMP)
	$(BIN)/python -m pytest -m "not slow" -q

## lint: ruff (lint + format check) and mypy (strict on noughts.core)
lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

## bench: the benchmarks in bench/ against their peers (installs the peers)
bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[dev,bench]"
	$(BIN)/python bench/playouts.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
