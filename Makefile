# 扯旋学堂 — developer commands.
#   make run   create .venv if needed, install runtime deps, compile translations,
#              migrate, serve http://127.0.0.1:8000 (SQLite by default) and run the
#              task worker beside it (scripts/run_dev.py; Ctrl-C stops both)
#   make test  install dev deps (+ Debian chromium, Java and npm's vnu-jar if missing),
#              compile translations, then ruff, mypy and pytest (SQLite): every test but
#              the concurrency ones in parallel (pytest-xdist, one worker per core), the
#              concurrency ones (live gunicorn servers, timing) after them (also one per
#              core), then those again on PostgreSQL (scripts/test_postgres.sh
#              installs/starts it with apt-get); exits non-zero on any failure
#   make serve-prod  production start on 127.0.0.1: collectstatic, migrate, gunicorn
#              (needs SECRET_KEY; see README "Production" and scripts/serve_prod.sh)
#
# Stamp files in .venv/ record the last successful install; a change to a
# requirements file makes the next run reinstall.

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
SUDO   := $(shell [ "$$(id -u)" -eq 0 ] || echo sudo)

RUNTIME_STAMP := $(VENV)/.runtime.stamp
DEV_STAMP     := $(VENV)/.dev.stamp

VNU_JAR := node_modules/vnu-jar/build/dist/vnu.jar

.PHONY: run test lint typecheck pytest messages migrate chromium java icu clean serve-prod

run: $(RUNTIME_STAMP) messages migrate
	$(PY) scripts/run_dev.py 127.0.0.1:8000

test: $(DEV_STAMP) chromium java $(VNU_JAR) messages
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest -n auto --dist worksteal -m "not concurrency" --durations=25
	$(VENV)/bin/pytest -n auto --dist worksteal -m concurrency
	scripts/test_postgres.sh -n auto --dist worksteal -m concurrency

serve-prod: $(RUNTIME_STAMP)
	scripts/serve_prod.sh

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip

$(RUNTIME_STAMP): requirements.txt | $(PY) icu
	$(PY) -m pip install -r requirements.txt
	touch $@

$(DEV_STAMP): requirements.txt requirements-dev.txt | $(PY) icu
	$(PY) -m pip install -r requirements-dev.txt
	touch $(RUNTIME_STAMP) $@

messages: | $(PY)
	$(PY) scripts/compilemessages.py

migrate: $(RUNTIME_STAMP)
	$(PY) manage.py migrate --noinput

# PyICU (names: UTS #39 skeletons) compiles against Debian's ICU.
icu:
	@if ! dpkg -s libicu-dev pkg-config >/dev/null 2>&1; then \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y libicu-dev pkg-config; \
	fi

# Debian's chromium for the browser tests (never `playwright install`); CJK fonts so
# screenshots show Chinese text instead of empty boxes.
chromium:
	@if [ ! -x /usr/bin/chromium ] || ! dpkg -s fonts-noto-cjk >/dev/null 2>&1; then \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y chromium fonts-noto-cjk; \
	fi

# The W3C Nu HTML checker (tests/test_html_valid.py): Debian's Java, and vnu.jar from npm
# (version pinned in package.json / package-lock.json; its postinstall script, which would
# fetch a Java of its own, is not run).
java:
	@if ! command -v java >/dev/null || ! command -v npm >/dev/null; then \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y default-jre-headless npm; \
	fi

$(VNU_JAR): package.json package-lock.json | java
	npm ci --ignore-scripts --no-audit --no-fund
	touch $@

clean:
	rm -rf node_modules $(VENV) staticfiles .staticfiles.stamp .mypy_cache .ruff_cache .pytest_cache tests/artifacts
	find locale -name '*.mo' -delete
