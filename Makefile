# Chicken Foot Companion: the two commands are `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
HOST   ?= 0.0.0.0
PORT   ?= 8000
HTMX_LOCAL   := static/vendor/htmx.min.js
PYTEST_ARGS  ?=

.PHONY: run test lint typecheck format install install-test vendor browser db serve \
        babel-extract babel-update babel-compile benchmark benchmark-history benchmark-web \
        benchmark-pips clean

## make run: venv + install + serve on the LAN (companion.serve migrates the database first)
run: install vendor babel-compile
	$(BIN)/python -m companion.serve --host $(HOST) --port $(PORT)

## make test: venv + test extras + browser + lint + type check + the whole suite
test: install-test vendor browser babel-compile lint typecheck
	$(BIN)/python -m pytest $(PYTEST_ARGS)

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

## dependencies only when pyproject.toml changed: a stamp file per extra in the venv
## (the project runs from the checkout and is not built, so no build backend runs)
install: $(VENV)/.installed-postgres
install-test: $(VENV)/.installed-test
$(VENV)/.installed-%: pyproject.toml scripts/install_deps.py | $(BIN)/python
	$(BIN)/python scripts/install_deps.py $*
	@touch $@

## the local htmx fallback copy (npm, else the npm registry or the CDN over HTTPS), checked
## against its SRI hash; version and hash are pyproject.toml's [tool.companion.htmx], which the
## app's config reads too; when nothing works it says so in one line and serving goes on
vendor: $(HTMX_LOCAL)
$(HTMX_LOCAL):
	@$(PYTHON) scripts/fetch_htmx.py $@

## Chromium for the browser tests (Debian's package; Playwright cannot download browsers here)
browser:
	bash scripts/ensure-browser.sh

db: $(BIN)/python
	$(BIN)/flask --app wsgi db upgrade

lint: $(BIN)/python
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

## the engine under mypy --strict, the whole package under pyproject's [tool.mypy] settings
## (incremental: .mypy_cache makes a second run take a few seconds)
typecheck: install-test
	$(BIN)/mypy --strict companion/engine
	$(BIN)/mypy companion

format: $(BIN)/python
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

babel-extract:
	PYTHONPATH=. $(BIN)/pybabel extract -F babel.cfg -k _l -k lazy_gettext -k plural_words:1,2 --project "Chicken Foot Companion" \
	  -o companion/translations/messages.pot .

babel-update: babel-extract
	$(BIN)/pybabel update -i companion/translations/messages.pot -d companion/translations
	$(BIN)/python scripts/babel_fill_en.py companion/translations/en/LC_MESSAGES/messages.po

babel-compile:
	@if [ -d companion/translations ] && ls companion/translations/*/LC_MESSAGES/*.po >/dev/null 2>&1; then \
	  $(BIN)/pybabel -q compile -d companion/translations; fi

benchmark: install
	$(BIN)/python benchmarks/engine_bench.py

## history pages on 5,000 games (database cached in /tmp; --rebuild to start over)
benchmark-history: install
	$(BIN)/python benchmarks/history_bench.py

## score keeper pages under gunicorn: 12 players, double-18, last round; SQL per request
benchmark-web: install
	$(BIN)/python benchmarks/web_bench.py

## pips from a photo: CPU and peak memory at 1/4/12 MP; accuracy on real and generated photos
benchmark-pips: install
	$(BIN)/python benchmarks/pips_bench.py
	$(BIN)/python benchmarks/pips_accuracy.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis test-artifacts
