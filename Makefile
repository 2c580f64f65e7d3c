# dragonroll: `make run` starts the service, `make test` runs every check. Both set up .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: run test venv lint format typecheck unit openapi sentences golden lock clean lint-deploy kubectl bench bench-cpu soak fuzz-long image-test

$(STAMP): requirements/dev.txt requirements/build.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/dev.txt -r requirements/build.txt
	touch $@

# The package itself, installed in place, with the engine modules compiled by mypyc (setup.py): rebuilt
# whenever any rules module changes, since compiled code relies on the types of the models it uses.
# DRAGONROLL_COMPILE=0 builds it pure Python; old extensions are removed first either way.
BUILT := $(VENV)/.installed-package
$(BUILT): $(STAMP) setup.py pyproject.toml $(wildcard rules/*.py rules/*/*.py)
	find rules -name '*.so' -delete; rm -f rules/_build.json
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

venv: $(BUILT)

run: $(BUILT) ## set up and start the service on 127.0.0.1:8000
	$(BIN)/python -m service

test: lint typecheck lint-deploy unit ## set up and run every check CI runs

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(BUILT)
	$(BIN)/python -m pytest -n 2 -q

golden: $(BUILT) ## re-record tests/golden/*/*.response.json (review the diff!)
	$(BIN)/python scripts/gen_golden.py

# kubectl from PATH, else the hash-locked wheel in .venv (`.ci/run` installs it when missing).
KUBECTL ?= $(shell command -v kubectl 2>/dev/null || echo $(BIN)/kubectl)
RENDERED := $(VENV)/rendered

lint-deploy: $(STAMP) $(KUBECTL) ## hadolint the Dockerfile; render and strictly validate the Kubernetes overlays
	$(BIN)/hadolint Dockerfile
	mkdir -p $(RENDERED)
	$(KUBECTL) kustomize deploy/base > $(RENDERED)/base.yaml
	$(KUBECTL) kustomize deploy/overlays/production > $(RENDERED)/production.yaml
	$(BIN)/kubernetes-validate --strict --quiet $(RENDERED)/base.yaml $(RENDERED)/production.yaml

kubectl: $(BIN)/kubectl ## install kubectl into .venv from requirements/kubectl.txt (hash-locked)

# Only used when the machine has no kubectl of its own (a fresh CI machine).
$(BIN)/kubectl: requirements/kubectl.txt | $(STAMP)
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/kubectl.txt
	touch $@

sentences: $(STAMP) ## regenerate rules/*/sentences.py from the systems' texts (rules/*/text.py)
	$(BIN)/python scripts/gen_sentences.py

openapi: $(BUILT) ## regenerate openapi/openapi.json from the app
	$(BIN)/python scripts/gen_openapi.py

lock: $(STAMP) ## re-lock requirements/*.txt from pyproject.toml
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes -q -o requirements/runtime.txt
	$(BIN)/uv pip compile pyproject.toml --extra dev --python-version 3.11 --generate-hashes -q -o requirements/dev.txt
	$(BIN)/uv pip compile requirements/build.in -c requirements/dev.txt --python-version 3.11 --generate-hashes -q -o requirements/build.txt
	$(BIN)/uv pip compile requirements/kubectl.in --python-version 3.11 --generate-hashes -q -o requirements/kubectl.txt

bench: $(BUILT) ## throughput and latency against a bare FastAPI app, as ratios (not a test)
	$(BIN)/python -m bench.bench $(BENCH_ARGS)

bench-cpu: $(BUILT) ## the worker's CPU time per request under load, against the bare app (not a test)
	$(BIN)/python -m bench.cpu $(BENCH_CPU_ARGS)

soak: $(BUILT) ## 120 s of mixed valid and invalid traffic at 128 connections on loopback
	$(BIN)/python -m bench.soak $(SOAK_ARGS)

fuzz-long: $(BUILT) ## the contract fuzz and the endpoint properties with many more examples
	DRAGONROLL_FUZZ_EXAMPLES=1000 DRAGONROLL_PROPERTY_EXAMPLES=300 \
		$(BIN)/python -m pytest -n 2 -q -p no:cacheprovider tests/contract tests/properties

image-test: $(BUILT) ## build the Dockerfile with podman from Debian base images and run the image (root; docs/hardening.md)
	$(BIN)/python scripts/image_test.py

clean:
	find rules -name '*.so' -delete; rm -f rules/_build.json
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache .hypothesis
