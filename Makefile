# Lapau: `make run` serves the site, `make test` runs every check. Both set themselves up.
# `make check` is the quick tier to run before each commit (no browser, no server).
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 8000
CHROMIUM := /usr/bin/chromium-headless-shell
export LAPAU_INSTANCE_PATH ?= $(CURDIR)/instance
# Every test worker and server imports the whole site: Python keeps the compiled modules
# (__pycache__, which git ignores) even where the environment says not to, or each worker
# compiles them all again (6 of its 10 s of start-up, and again at every run).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test check setup test-setup translations database lint typecheck pytest chromium postgresql redis clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when the project's dependencies change.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.installed
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@

setup: $(VENV)/.installed translations

test-setup: setup $(VENV)/.installed-test chromium postgresql redis

translations: $(VENV)/.installed
	$(BIN)/python -m babel.messages.frontend compile --statistics -d webapp/i18n

database: $(VENV)/.installed
	$(BIN)/flask --app webapp db upgrade

run: setup database
	$(BIN)/gunicorn --worker-class gevent --workers 1 --worker-connections 2000 \
		--bind 127.0.0.1:$(PORT) 'webapp:create_app()'

# Debian's Chromium for the end-to-end tests, as its headless shell (Playwright drives it; it
# downloads no browser): the desktop browser around the same engine only costs CPU there.
chromium:
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell; \
		else \
			echo "Chromium is missing: run 'sudo apt-get install chromium-headless-shell' once." >&2; exit 1; \
		fi; \
	fi

# Debian's PostgreSQL server binaries: the tests start a throwaway cluster of their own
# (tests/postgres.py); the package's own cluster is not used.
postgresql:
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql; \
		else \
			echo "PostgreSQL is missing: run 'sudo apt-get install postgresql' once." >&2; exit 1; \
		fi; \
	fi

# Debian's Redis server binary: the tests start throwaway servers of their own
# (tests/redis.py); the package's own service is not used.
redis:
	@if [ ! -x /usr/bin/redis-server ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server; \
		else \
			echo "Redis is missing: run 'sudo apt-get install redis-server' once." >&2; exit 1; \
		fi; \
	fi

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy --strict --explicit-package-bases webapp tests benchmarks

# Both tiers spread the tests over the machine's cores (pytest-xdist: one process per core,
# one more for make test, each with its own PostgreSQL cluster, servers and browser). Workers
# take whole files (a module's shared server starts once), the costliest first (tests/costs.py):
# the minute-long files run side by side from the start and the short ones fill in after them.
# `make check WORKERS=0` runs in one process, as a debugger wants.
WORKERS ?= auto
XDIST = -n $(WORKERS) --dist loadfile --no-loadscope-reorder
# One worker more than the cores: a few tests wait out real intervals (a minute and more).
FULL_WORKERS = $(if $(filter auto,$(WORKERS)),$(shell echo $$(( $$(nproc) + 1 ))),$(WORKERS))

pytest: test-setup
	$(BIN)/python -m pytest tests webapp -n $(FULL_WORKERS) --dist loadfile --no-loadscope-reorder --durations=25

test: test-setup lint typecheck pytest

# Markers (pyproject.toml) select the quick tier: no browser, no server subprocess, no long runs.
QUICK := not e2e and not live and not slow

# It runs the property tests and playouts with fewer examples (tests/tiers.py).
check: setup $(VENV)/.installed-test lint typecheck
	LAPAU_TEST_TIER=quick LAPAU_TEST_DATABASES=sqlite \
		$(BIN)/python -m pytest tests webapp -q -m "$(QUICK)" $(XDIST)

clean:
	rm -rf $(VENV) instance .pytest_cache .mypy_cache .ruff_cache
