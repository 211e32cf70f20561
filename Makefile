# The two commands of the README, and the chores they are made of. CI runs `make test`, nothing else.
PYTHON ?= python3
UV_VERSION := 0.13.9
TOOLS := .flowyard/tools
UV := $(TOOLS)/bin/uv
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint typecheck pytest setup catalogs bench clean

run: setup
	$(BIN)/flowyard migrate
	$(BIN)/flowyard serve

test: setup lint typecheck pytest

setup: $(VENV)/.synced

# uv lives in a venv of its own: `uv sync` removes from .venv whatever the lock file does not list.
$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

$(VENV)/.synced: pyproject.toml uv.lock $(UV)
	UV_PROJECT_ENVIRONMENT=$(VENV) $(UV) sync --frozen --extra dev --quiet
	touch $@

lint: setup
	$(BIN)/ruff check backend tests bench
	$(BIN)/ruff format --check backend tests bench

typecheck: setup
	$(BIN)/mypy

pytest: setup
	$(BIN)/python -m pytest -q $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) $(TOOLS) .mypy_cache .ruff_cache
