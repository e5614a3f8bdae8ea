# Everything the project needs is installed by these targets: `make test` on a
# fresh machine bootstraps .venv from pyproject.toml + constraints.txt.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
NODE_STAMP := node_modules/.installed-stamp
BIOME := node_modules/.bin/biome

.PHONY: run class test test-js lint format bench clean browser redis postgres jdk loadtest attack node screens toolchain core pyodide

# uv (pinned in constraints.txt like the rest) installs the project into the venv: the same
# packages and versions as pip, in 8 s where pip took 24 on a fresh machine.
$(STAMP): pyproject.toml constraints.txt setup.py | toolchain
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt uv
	$(BIN)/uv pip install --quiet --python $(BIN)/python -c constraints.txt -e '.[test]'
	touch $(STAMP)

# The compiled core (server/engine/csrc/, a C extension built in place by setup.py)
# needs a C compiler and Python's headers: Debian's build-essential and python3-dev.
# When it cannot be built the pure-Python engine runs (knights-tour --version says
# which); an old build is removed first, so it never outlives its sources.
CORE_SRC := $(wildcard server/engine/csrc/*.c server/engine/csrc/*.h)
CORE_STAMP := $(VENV)/.core-stamp
PY_INCLUDE = $(shell $(PYTHON) -c 'import sysconfig; print(sysconfig.get_paths()["include"])')

toolchain:
	@command -v gcc >/dev/null 2>&1 || { command -v apt-get >/dev/null 2>&1 && \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y build-essential; } || \
		echo "no C compiler: the pure-Python engine will run" >&2
	@test -f "$(PY_INCLUDE)/Python.h" || { command -v apt-get >/dev/null 2>&1 && \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y python3-dev; } || \
		echo "no Python headers: the pure-Python engine will run" >&2

$(CORE_STAMP): $(STAMP) $(CORE_SRC) setup.py
	rm -f server/engine/_core.*.so
	$(BIN)/python setup.py --quiet build_ext --inplace
	touch $(CORE_STAMP)

core: $(CORE_STAMP)

run: $(CORE_STAMP) pyodide
	$(BIN)/knights-tour serve

# A class on the local network: all interfaces, the students' link on this machine's
# LAN address (README: "Teaching a class").
class: $(CORE_STAMP) pyodide
	$(BIN)/knights-tour serve --lan

lint: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(BIOME) ci

format: $(STAMP) $(NODE_STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	$(BIOME) check --write

# The browser code's tools: Biome (pinned in package.json and package-lock.json) lints and
# formats static/js; node's own test runner runs its unit tests (tests/js). Debian's node
# and npm when the machine has none. Nothing under node_modules is served.
node:
	@command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y nodejs npm; }

$(NODE_STAMP): package.json package-lock.json | node
	npm ci --no-audit --no-fund
	touch $(NODE_STAMP)

# The code lab's Python (/lab): Pyodide's npm tarball, checked against the sha512 pinned in
# static/vendor/pyodide/pin.json, its needed files unpacked there (git ignores them; about
# 13 MB, fetched once: nothing is downloaded while the pinned version is in place).
PYODIDE_STAMP := static/vendor/pyodide/package.json
$(PYODIDE_STAMP): static/vendor/pyodide/pin.json tools/fetch_pyodide.py
	$(PYTHON) tools/fetch_pyodide.py
	touch $(PYODIDE_STAMP)

pyodide: $(PYODIDE_STAMP)

test-js: node
	node --test --test-reporter=spec tests/js/*.test.js

# The browser tests drive Debian's chromium as its headless shell (with CJK fonts for the
# 中文 UI; tests/support/chromium.py says why the shell); elsewhere, Playwright's own build.
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
browser: $(STAMP)
	@if [ -x /usr/bin/chromium-headless-shell ] && [ -f $(CJK_FONT) ]; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y \
			chromium-headless-shell fonts-noto-cjk; \
	else \
		$(BIN)/python -m playwright install chromium-headless-shell; \
	fi

# The scale-out tests start their own redis-server (Debian's package).
redis:
	@command -v redis-server >/dev/null 2>&1 || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y redis-server; }

# tests/scale/test_postgres.py runs a throwaway cluster with Debian's initdb / pg_ctl
# (under /usr/lib/postgresql/*/bin, not on PATH).
postgres:
	@command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || \
		{ apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql; }

# tests/articles/test_fidelity.py compiles and runs the Java articles' own programs
# with a JDK (Debian's headless one); gcc comes with the core target's build-essential.
jdk:
	@command -v javac >/dev/null 2>&1 && command -v java >/dev/null 2>&1 || { apt-get update && \
		DEBIAN_FRONTEND=noninteractive apt-get install -y default-jdk-headless; }

# The suite in two pytest-xdist runs at once, both CPU-bound: alone, each left a core idle
# at its ends (one long file, one long page), and the two in a row took 539 s where at once
# they take 457. The browser tests in a process of their own, handed out one by one, the
# longest first (tests/browser/conftest.py); their report, in BROWSER_LOG, follows the
# rest's. The rest file by file, the heaviest first (tests/conftest.py). Each run ends with
# its slowest tests (--durations): what to look at when the suite grows. Python writes
# bytecode here, whatever the environment says: the run starts some 150 processes that
# each import the server.
BROWSER_LOG := test-artifacts/browser-tests.log
TEST_WORKERS ?= 3
BROWSER_WORKERS ?= 2
test: $(CORE_STAMP) lint test-js browser redis postgres jdk pyodide
	@mkdir -p $(dir $(BROWSER_LOG)); unset PYTHONDONTWRITEBYTECODE; \
	$(BIN)/python -m pytest -n $(BROWSER_WORKERS) --dist load tests/browser --durations=12 \
		>$(BROWSER_LOG) 2>&1 & browser=$$!; \
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder \
		--ignore=tests/browser --durations=12; rest=$$?; \
	wait $$browser; browsers=$$?; \
	echo "== the browser tests ($(BROWSER_LOG))"; cat $(BROWSER_LOG); \
	test $$rest -eq 0 && test $$browsers -eq 0

# Every page at a phone's and a desktop's size, under test-artifacts/screens/: to compare by
# eye before and after a change to the browser code (SCREENS_DIR=... for another folder).
screens: $(CORE_STAMP) browser pyodide
	SCREENS=1 $(BIN)/python -m pytest tests/browser/test_screens.py

bench: $(CORE_STAMP) browser pyodide
	$(BIN)/python benchmarks/bench.py --write

loadtest: $(CORE_STAMP) redis
	$(BIN)/python benchmarks/loadtest.py --write

# Each attack of issue 22 for 22 s from one address, against `knights-tour serve` and
# gunicorn, while a teacher and 20 followers play: a Markdown table per server (not part
# of `make test`; about 20 minutes). ATTACK_ARGS="--server serve --only 1 6" for fewer.
attack: $(CORE_STAMP)
	$(BIN)/python benchmarks/attack.py $(ATTACK_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis node_modules build server/engine/_core.*.so
