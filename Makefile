# Two commands do all the set-up:
#   make lab   create the environment and open the lessons in JupyterLab
#   make test  create the environment, run the checks (make check) and every test (browser tests included)
# and, beside them: make quick (the fast tests, to run while you work), make classroom (the lessons served
# to a class with Voila), make bench (speed figures)

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: lab rl test check quick bench classroom chromium postgresql hub-proxy clean

lab: $(VENV)/.lab-installed
	$(BIN)/jupyter lab notebooks/ $(ROOT_FLAG)

# The checks, then every tier, as CI runs it (.ci/run), with the 25 slowest steps listed at the end. The tests run
# in parallel worker processes (pytest-xdist), one more than the machine has cores: the browser, server and
# database tests spend most of their time waiting, and a free worker takes the next test (worksteal).
CORES := $(shell nproc 2>/dev/null || echo 2)
TEST_WORKERS ?= $(shell echo $$(($(CORES) + 1)))
test: $(VENV)/.test-installed check chromium postgresql hub-proxy
	$(BIN)/python -m pytest --numprocesses=$(TEST_WORKERS) --dist=worksteal --durations=25

# Lint, import order, format and types, as pyproject.toml configures them (.pre-commit-config.yaml runs the same
# checks on each commit); ruff format and ruff check --fix mend most of what they find.
check: $(VENV)/.test-installed
	$(BIN)/python -m ruff check .
	$(BIN)/python -m ruff format --check .
	$(BIN)/python -m mypy

# The tiers make quick leaves out (pyproject.toml says what each mark means); the property tests it keeps
# try a tenth of their examples (the quick Hypothesis profile, registered in conftest.py). They keep the processor
# busy, so they run in one worker process per core.
QUICK_TESTS := not browser and not notebook and not postgresql and not processes and not slow
quick: $(VENV)/.test-installed
	$(BIN)/python -m pytest -m "$(QUICK_TESTS)" --hypothesis-profile=quick --numprocesses=$(CORES)

# The lessons as apps for a class, served to every device on the local network: Voila shows the widgets,
# not the code, and only to browsers that bring the class key. It prints the address to give learners
# (the lobby, with the key), the teacher's address and the teacher key (see docs/classroom.md).
# Settings: make classroom CLASSROOM_DB=<SQLite file outside notebooks/ or postgresql:// URL>
#   CLASS_KEY=... TEACHER_KEY=... (fresh keys each run otherwise; at least 12 characters, or WEAK_KEYS=yes)
#   CLASSROOM_PORT=... (8866 otherwise) CLASSROOM_WARM_PAGES=... (lobby pages kept ready; 30 otherwise, fewer if
#   memory is short) CLASSROOM_LOG=... (Voila's messages; ~/.colorlab/classroom-server.log otherwise, - for the terminal)
# The kernel of a page that was closed or reloaded is stopped after 10 idle minutes without a page
# (behind a class key, Voila 0.5 refuses the goodbye a leaving page sends, so it cannot stop at once).
# A page that is still open is never stopped, however long it waits.
CLASSROOM_KERNELS := --MappingKernelManager.cull_idle_timeout=600 --MappingKernelManager.cull_interval=60 \
	--MappingKernelManager.cull_connected=False
classroom: $(VENV)/.lab-installed
	$(BIN)/python -m colorlab.classroom.server notebooks $(CLASSROOM_KERNELS)

bench: $(VENV)/.lab-installed $(VENV)/.bench-installed postgresql hub-proxy
	$(BIN)/python benchmarks/run.py

# Each install says what it does first: the first one takes a few minutes, and pip is kept quiet.
$(VENV)/bin/python:
	@echo "Making the Python environment in $(VENV) (once)..."
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.lab-installed: pyproject.toml | $(VENV)/bin/python
	@echo "Installing colorlab, JupyterLab and Voila into $(VENV): a few minutes the first time, seconds after that..."
	$(BIN)/python -m pip install --quiet -e '.[lab]'
	@echo "Installed."
	touch $@

# PyTorch (the rl extra) comes as its CPU build when pip finds one without an index (a wheel in pip's find-links):
# a tenth of the CUDA build PyPI gives, which the lessons never use. Without one, pip takes PyPI's.
TORCH_CPU = $(BIN)/python -m pip install --quiet --no-index --no-deps 'torch>=2.3' 2>/dev/null || true

# Lesson 41 and docs/learning.md: an agent that learns (PyTorch, Stable-Baselines3, sb3-contrib) beside the lessons.
rl: $(VENV)/.rl-installed

$(VENV)/.rl-installed: pyproject.toml | $(VENV)/bin/python
	@echo "Installing the learning tools (PyTorch, Stable-Baselines3, sb3-contrib) into $(VENV)..."
	$(TORCH_CPU)
	$(BIN)/python -m pip install --quiet -e '.[lab,rl]'
	@echo "Installed. Restart a lesson's kernel to use them."
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(VENV)/bin/python
	@echo "Installing colorlab and its test tools into $(VENV): a few minutes the first time, seconds after that..."
	$(TORCH_CPU)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@echo "Installed."
	touch $@

# The ai extra (OpenSpiel, PettingZoo): OpenSpiel's pure-Python tic-tac-toe is the yardstick for random playouts.
$(VENV)/.bench-installed: pyproject.toml | $(VENV)/bin/python
	@echo "Installing the benchmarks' tools (OpenSpiel, PettingZoo, PyTorch) into $(VENV)..."
	$(TORCH_CPU)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	@echo "Installed."
	touch $@

# The browser tests drive Debian's chromium; install it when it is missing. Only root can: for anyone else
# the browser tests skip, saying so, except in CI (CI=true), where a missing chromium fails the run.
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	  else echo "chromium is missing: run 'sudo apt-get install chromium' once; until then the browser tests skip"; \
	    [ "$$CI" != true ]; fi; }

# The tables tests start their own throwaway PostgreSQL server (tests/helpers/databases.py) from Debian's
# package; install it when it is missing. The package may create and start a "main" cluster on port
# 5432: the tests never use it, so it is stopped to leave nothing running in the background. As for
# chromium, only root can install it: elsewhere the PostgreSQL tests skip, except in CI.
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql \
	    && pg_lsclusters --no-header | awk '$$4 ~ /^online/ {print $$1, $$2}' | while read version name; do \
	      pg_ctlcluster "$$version" "$$name" stop; done; \
	  else echo "PostgreSQL is missing: run 'sudo apt-get install postgresql' once; until then its tests skip"; \
	    [ "$$CI" != true ]; fi; }

# The school tests start a real JupyterHub, whose proxy (configurable-http-proxy) comes from npm: it goes into
# $(VENV)/hub, with Debian's Node.js when that is missing (root only, as for chromium; elsewhere the hub tests skip,
# except in CI).
HUB_PROXY := $(VENV)/hub/node_modules/.bin/configurable-http-proxy
hub-proxy:
	@[ -x $(HUB_PROXY) ] || { \
	  command -v npm >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && apt-get update -qq \
	    && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm; } ; \
	  if command -v npm >/dev/null 2>&1; then echo "Installing JupyterHub's proxy into $(VENV)/hub..."; \
	    npm install --prefix $(VENV)/hub --no-audit --no-fund --silent configurable-http-proxy@5; \
	  else echo "npm is missing: run 'sudo apt-get install nodejs npm' once; until then the hub tests skip"; \
	    [ "$$CI" != true ]; fi; }

clean:
	rm -rf $(VENV)
