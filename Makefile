# Everything the project needs is installed by these targets: `make test` on a
# fresh machine bootstraps .venv from pyproject.toml + constraints.txt.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run class test lint format bench clean browser redis postgres loadtest

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/knights-tour serve

# A class on the local network: all interfaces, the students' link on this machine's
# LAN address (README: "Teaching a class").
class: $(STAMP)
	$(BIN)/knights-tour serve --lan

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

# The browser tests drive Debian's chromium (with CJK fonts for the 中文 UI);
# elsewhere, Playwright's own build.
CJK_FONT := /usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
browser: $(STAMP)
	@if [ -x /usr/bin/chromium ] && [ -f $(CJK_FONT) ]; then :; \
	elif command -v apt-get >/dev/null 2>&1; then \
		apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-cjk; \
	else \
		$(BIN)/python -m playwright install chromium; \
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

test: $(STAMP) lint browser redis postgres
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python benchmarks/bench.py

loadtest: $(STAMP) redis
	$(BIN)/python benchmarks/loadtest.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
