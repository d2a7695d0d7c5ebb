# One entry point for people and CI. `make demo` and `make test` set everything up themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export PATH := $(abspath $(BIN)):$(PATH)

.PHONY: help install demo lint test test-slow test-all test-live test-fast test-e2e fuzz bench clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-10s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[daemon,dev]'
	@command -v node >/dev/null || { echo "Node.js is required (pyright runs on it)"; exit 1; }
	$(BIN)/python -c "from prewrite_daemon.backends.pyright_command import langserver_argv; langserver_argv()"
	touch $(STAMP)

TOOLCHAINS := tests/toolchains/node_modules/.installed
$(TOOLCHAINS): tests/toolchains/package-lock.json
	@command -v npm >/dev/null || { echo "npm is required (the TypeScript test toolchains)"; exit 1; }
	npm ci --prefix tests/toolchains --no-audit --no-fund --loglevel=error
	touch $(TOOLCHAINS)

# prewrite's own TypeScript (daemon/prewrite_daemon/languages/typescript/pinned.py): an untrusted
# workspace is checked with it, never with its own node_modules/typescript.
PINNED_TS := daemon/prewrite_daemon/toolchain/node_modules/.installed
$(PINNED_TS): daemon/prewrite_daemon/toolchain/package-lock.json
	@command -v npm >/dev/null || { echo "npm is required (prewrite's own TypeScript)"; exit 1; }
	npm ci --prefix daemon/prewrite_daemon/toolchain --no-audit --no-fund --loglevel=error
	touch $(PINNED_TS)

install: $(STAMP) $(TOOLCHAINS) $(PINNED_TS)  ## .venv with prewrite, pyright, ruff, test tools; prewrite's TypeScript; TypeScript 5 and 7 for the tests

demo: $(STAMP)  ## start the daemon, check a green and a red patch on bench/demo/repo, stop it
	$(BIN)/python -m bench.demo

lint: $(STAMP)  ## ruff, pyright strict, and the package layers (import-linter, .importlinter)
	$(BIN)/ruff check client daemon tests bench
	$(BIN)/ruff format --check client daemon tests bench
	$(BIN)/pyright
	$(BIN)/lint-imports

# Two workers (pytest-xdist), a module at a time to whichever is free, the slow tier first
# (tests/conftest.py): the suite's modules are independent, each worker has its own session
# daemon, a module's fixtures stay on one worker. PYTEST_WORKERS=0 runs them in one process.
PYTEST_WORKERS ?= 2
XDIST = $(if $(filter 0,$(PYTEST_WORKERS)),,-n $(PYTEST_WORKERS) --dist loadscope --no-loadscope-reorder)

# `make test` is everything but the slow tier (PyPI and npm packages judged against their cold
# checkers, the bench harness end to end, the catalogue's plans on a newer Python: ~10 min more);
# CI (`.ci/run`) runs both, `make test-all` runs them together.
test: $(STAMP) $(TOOLCHAINS) $(PINNED_TS)  ## unit, faults, CLI, end-to-end with the real checkers (not the slow tier)
	$(BIN)/pytest -q $(XDIST) -m "not slow" --durations=30

test-slow: $(STAMP) $(TOOLCHAINS) $(PINNED_TS)  ## the slow tier: real packages against cold pyright, mypy, tsc, ...; the bench harness
	$(BIN)/pytest -q $(XDIST) -m slow --durations=20

test-all: $(STAMP) $(TOOLCHAINS) $(PINNED_TS)  ## every test in one run (make test + make test-slow)
	$(BIN)/pytest -q $(XDIST) --durations=40

# The slow differential tier reads the cold oracle's recorded answers for inputs it has judged
# before (tests/support/oracle_record.py; each checker's first record is re-run cold and must
# match); test-live runs every oracle cold, reading and writing no record.
test-live: $(STAMP) $(TOOLCHAINS) $(PINNED_TS)  ## all tests with every cold oracle run live (no recorded answers read)
	PREWRITE_ORACLE=live $(BIN)/pytest -q $(XDIST) --durations=40

test-fast: $(STAMP) $(TOOLCHAINS) $(PINNED_TS)  ## the inner loop: unit, fault and CLI tests (~3 min; the CLI ones on a real daemon and pyright)
	$(BIN)/pytest -q $(XDIST) -m "not slow" tests/unit tests/faults tests/cli

test-e2e: $(STAMP) $(TOOLCHAINS) $(PINNED_TS)  ## end-to-end on the real checkers, without the slow differential tier
	$(BIN)/pytest -q $(XDIST) -m "not slow" tests/e2e tests/fuzz

# PROGRAMS programs per TypeScript major from SEED on; a failure prints the seed to rerun.
FUZZ_ENV = PREWRITE_TS_FUZZ_PROGRAMS=$(or $(PROGRAMS),100) PREWRITE_TS_FUZZ_SEED=$(or $(SEED),1000)
# PREWRITE_FUZZ_PROGRAMS generated Python programs from PREWRITE_FUZZ_SEED on; a finding prints
# a shrunk reproduction (files, patch, the missed diagnostic). Both fuzzers run; either fails it.
PY_FUZZ_ENV = PREWRITE_FUZZ_PROGRAMS=$(or $(PREWRITE_FUZZ_PROGRAMS),500) \
	PREWRITE_FUZZ_SEED=$(or $(PREWRITE_FUZZ_SEED),10000)
fuzz: $(STAMP) $(TOOLCHAINS)  ## long fuzz runs of the planners: TypeScript (PROGRAMS=100 SEED=1000), Python (PREWRITE_FUZZ_PROGRAMS=500)
	status=0; \
	$(FUZZ_ENV) $(BIN)/pytest -q -s tests/e2e/test_fuzz_ts_planner.py -k long_run || status=1; \
	$(PY_FUZZ_ENV) $(BIN)/pytest -q -s tests/e2e/test_fuzz_py_planner.py -k long_run || status=1; \
	exit $$status

bench: $(STAMP) $(TOOLCHAINS)  ## warm vs cold measurements (results under bench/results/); options: make bench ARGS="--quick"
	$(BIN)/python -m bench $(ARGS)

clean:  ## remove the venv and caches
	rm -rf $(VENV) .cache .pytest_cache .ruff_cache build *.egg-info
