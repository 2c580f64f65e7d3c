# dragonroll: `make run` starts the service, `make test` runs every check. Both set up .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: run test venv lint format typecheck unit openapi clean bench soak fuzz-long

$(STAMP): requirements/dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/dev.txt
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

venv: $(STAMP)

run: $(STAMP) ## set up and start the service on 127.0.0.1:8000
	$(BIN)/python -m service

test: lint typecheck unit ## set up and run every check CI runs

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

openapi: $(STAMP) ## regenerate openapi/openapi.json from the app
	$(BIN)/python scripts/gen_openapi.py

lock: $(STAMP) ## re-lock requirements/*.txt from pyproject.toml
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes -q -o requirements/runtime.txt
	$(BIN)/uv pip compile pyproject.toml --extra dev --python-version 3.11 --generate-hashes -q -o requirements/dev.txt

bench: $(STAMP) ## throughput and latency against a bare FastAPI app, as ratios (not a test)
	$(BIN)/python -m bench.bench $(BENCH_ARGS)

soak: $(STAMP) ## 120 s of mixed valid and invalid traffic at 128 connections on loopback
	$(BIN)/python -m bench.soak $(SOAK_ARGS)

fuzz-long: $(STAMP) ## the contract fuzz and the endpoint properties with many more examples
	DRAGONROLL_FUZZ_EXAMPLES=1000 DRAGONROLL_PROPERTY_EXAMPLES=300 \
		$(BIN)/python -m pytest -n 2 -q -p no:cacheprovider tests/contract tests/properties

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
