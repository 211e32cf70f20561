# The two commands of the README, and the chores they are made of. CI runs `make test`, nothing else.
PYTHON ?= python3
UV_VERSION := 0.13.9
TOOLS := .flowyard/tools
UV := $(TOOLS)/bin/uv
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint typecheck pytest test-repeat setup catalogs bench clean frontend frontend-check screenshots mutation

run: setup
	$(BIN)/flowyard migrate
	$(BIN)/flowyard serve

# The checks run beside the tests (pytest mostly waits, the checks mostly compute), and uv sync beside
# npm ci; a failure of any fails `make test`.
test:
	@$(MAKE) --no-print-directory -j4 lint typecheck frontend-check pytest

setup: $(VENV)/.synced frontend

# uv lives in a venv of its own: `uv sync` removes from .venv whatever the lock file does not list.
$(UV):
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

$(VENV)/.synced: pyproject.toml uv.lock $(UV)
	UV_PROJECT_ENVIRONMENT=$(VENV) $(UV) sync --frozen --extra dev --quiet
	touch $@

# The editor (frontend/): npm ci when the lock file changes, the typed API client regenerated when the
# API's declarations change, and a build into frontend/dist when any source does (Node.js 20+ and npm).
FRONTEND := frontend
FRONTEND_SOURCES := $(shell find $(FRONTEND)/src -type f 2>/dev/null) $(wildcard $(FRONTEND)/*.ts \
	$(FRONTEND)/*.json $(FRONTEND)/index.html)

frontend: $(FRONTEND)/dist/.built

$(FRONTEND)/node_modules/.installed: $(FRONTEND)/package-lock.json
	cd $(FRONTEND) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

$(FRONTEND)/src/api/schema.d.ts: $(wildcard backend/api/*.py) $(VENV)/.synced $(FRONTEND)/node_modules/.installed
	$(BIN)/python -m backend.api.openapi_json > $(FRONTEND)/openapi.json
	cd $(FRONTEND) && npx openapi-typescript openapi.json -o src/api/schema.d.ts --silent
	touch $@

$(FRONTEND)/dist/.built: $(FRONTEND_SOURCES) $(FRONTEND)/src/api/schema.d.ts $(FRONTEND)/node_modules/.installed
	cd $(FRONTEND) && npm run --silent build
	touch $@

frontend-check: frontend
	cd $(FRONTEND) && npm run --silent lint && npm run --silent typecheck && npm run --silent test

lint: setup
	$(BIN)/ruff check backend tests bench
	$(BIN)/ruff format --check backend tests bench

typecheck: setup
	$(BIN)/mypy

# Four test processes (pytest-xdist), a file each at a time: they keep both cores busy from the first
# minute to the last (sampled every 5 s); six did not pay.
PYTEST_WORKERS ?= 4
# Where pytest writes a JUnit XML report of what ran, when set (.ci/run counts the browser tests in it).
PYTEST_JUNIT ?=

pytest: setup
	$(BIN)/python -m pytest -q -n $(PYTEST_WORKERS) --dist loadfile --durations=15 \
		$(if $(PYTEST_JUNIT),--junitxml=$(PYTEST_JUNIT)) $(PYTEST_ARGS)

# The suite (or REPEAT_ARGS: a directory, a file) run REPEAT times, each on fresh databases, to find the
# tests that fail without a bug: it stops at the first red run and says which run it was.
REPEAT ?= 10
REPEAT_ARGS ?=

test-repeat: setup
	@for run in $$(seq $(REPEAT)); do \
		echo "--- run $$run of $(REPEAT) ($$(cut -d' ' -f1-3 /proc/loadavg) load)"; \
		$(MAKE) --no-print-directory pytest PYTEST_ARGS="$(REPEAT_ARGS)" || \
			{ echo "--- run $$run of $(REPEAT) failed"; exit 1; }; \
	done; echo "--- $(REPEAT) runs of $(if $(REPEAT_ARGS),$(REPEAT_ARGS),the suite), all green"

# The browser tests, writing their screenshots into docs/screenshots/ (a plain test run keeps them in
# .flowyard/screenshots/, so `make test` leaves the tree as it found it).
screenshots: setup
	FLOWYARD_SCREENSHOTS=docs $(BIN)/python -m pytest -q tests/browser

# Mutation testing of the pure core (walker, graph, the queue's pure parts, i18n): minutes, not part of
# `make test`. Scores per file and package, survivors listed; `MUTATION_ARGS=walker` narrows it down.
# mutmut's timeout thread never cancels a timeout: it sends SIGXCPU to the pids of mutants long gone, and
# on a busy machine a pid is soon another process's (it killed a PostgreSQL backend of a CI run beside it).
# The run goes into a pid namespace of its own where the machine allows one, so its signals reach its own
# processes only; a user namespace when not root (pgserver switches user only as root).
PID_NAMESPACE := unshare --pid --fork --kill-child --mount-proc
MUTATION_NAMESPACE = $(shell $(PID_NAMESPACE) true 2>/dev/null && echo $(PID_NAMESPACE) || \
	(unshare --user --map-root-user $(PID_NAMESPACE:unshare%=%) true 2>/dev/null && \
	echo unshare --user --map-root-user $(PID_NAMESPACE:unshare%=%)))
mutation: setup
	nice -n 15 $(MUTATION_NAMESPACE) $(BIN)/python -m tests.mutation.run $(MUTATION_ARGS)

# The gettext template from the source, every locale's catalog updated from it (translations kept, no
# guessing), and the .mo files for gettext tools. The runtime reads the .po files; nothing needs the .mo.
# First, each translation records the English it translates, and one whose English changed is marked
# fuzzy (backend/i18n/stale.py): before `pybabel update`, whose `#. English:` comments would no longer
# show the English it translated.
catalogs: setup
	$(BIN)/python -m backend.i18n.stale
	$(BIN)/pybabel extract -F babel.cfg --add-location=file --sort-output --no-wrap \
		--project=Flowyard --copyright-holder=Flowyard -o locales/messages.pot .
	@# A template whose only change is its creation date is the committed one (no noise in the diff).
	@git diff --quiet -I'^"POT-Creation-Date' -- locales/messages.pot 2>/dev/null \
		&& git checkout -- locales/messages.pot 2>/dev/null || true
	$(BIN)/pybabel update -i locales/messages.pot -d locales --no-fuzzy-matching --no-wrap \
		--ignore-pot-creation-date
	$(BIN)/pybabel compile -d locales --statistics
	@# What is left to translate; the guard test (tests/i18n) is what fails on it.
	-$(BIN)/python -m backend.i18n.gaps

clean:
	rm -rf $(VENV) $(TOOLS) .mypy_cache .ruff_cache $(FRONTEND)/node_modules $(FRONTEND)/dist
