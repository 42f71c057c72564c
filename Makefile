# The two commands of the README: `make demo` and `make test`. Both set themselves up.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1:8000
# The suite runs in parallel, a process per core (at most 4: each has its own test database and,
# on Redis, its own cache database). PYTEST_ARGS="-n 0" runs it in one process. --dist worksteal: each
# process starts on its half of the order (tests/conftest.py: the slowest modules first) and an idle one
# takes the back half of a busy one's queue, so the run does not end on one process's long tests.
PYTEST_ARGS ?= -n auto --maxprocesses 4 --dist worksteal

.PHONY: demo test serve bench messages clean

$(VENV)/.requirements: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.requirements-dev: requirements-dev.txt $(VENV)/.requirements
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

## Set up, migrate, build the demo event and serve it at http://$(HOST) (safe to run twice).
demo: $(VENV)/.requirements
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py runserver $(HOST)

## Lint, type-check (the whole tree, strict) and run the whole test suite (SQLite unless DATABASE_URL is set).
test: $(VENV)/.requirements-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy
	$(VENV)/bin/pytest $(PYTEST_ARGS)

## Benchmarks (not tests): prints `BENCH <name> <value> <unit>` lines.
bench: $(VENV)/.requirements-dev
	@for script in bench/*_bench.py; do $(PY) $$script || exit 1; done

## Regenerate the translation catalogue (needs GNU gettext) after changing UI text.
messages: $(VENV)/.requirements-dev
	$(PY) manage.py makemessages --locale zh_Hans --ignore '.venv/*' --ignore 'var/*'
	$(PY) manage.py compilemessages --locale zh_Hans --ignore '.venv/*'

clean:
	rm -rf $(VENV) var staticfiles
