# dragonroll: `make run` starts the service, `make test` runs every check. Both set up .venv first.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
RUNTIME := $(VENV)/.installed-runtime
STAMP := $(VENV)/.installed-dev
export PYTHONDONTWRITEBYTECODE := 1

.PHONY: suites generate check-generated catalogs-events catalogs-events-extract catalogs-events-update catalogs-events-compile catalogs-problems catalogs-problems-extract catalogs-problems-update catalogs-problems-compile catalogs-playground catalogs-playground-extract catalogs-playground-update catalogs-playground-compile clients owlbear test-node node-deps browser-deps run test compiled test-compiled venv lint docs format typecheck unit openapi catalogs catalogs-extract catalogs-update catalogs-compile golden versions lock clean lint-deploy kubectl bench bench-compiled bench-cpu bench-workers bench-inprocess bench-odds soak fuzz-long image-test check-compiled

# Two stamps, one virtualenv. Serving: the runtime lock and setuptools (requirements/setup.txt), then
# the package itself installed in place (editable, once: an edit to rules/ or service/ takes effect
# on the next run, with nothing to rebuild). Testing adds the development and build locks.
$(RUNTIME): requirements/runtime.txt requirements/setup.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --require-hashes --no-deps -r requirements/runtime.txt -r requirements/setup.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
	touch $@

$(STAMP): $(RUNTIME) requirements/dev.txt requirements/build.txt
	$(BIN)/python -m pip install --quiet --require-hashes -r requirements/dev.txt -r requirements/build.txt
	touch $@

venv: $(STAMP)

run: $(RUNTIME) ## set up what serving needs (the runtime lock) and start the service on 127.0.0.1:8000
	$(BIN)/python -m service

test: lint typecheck lint-deploy docs suites check-generated ## set up and run every check CI runs

# The Python suite and the node tests side by side: the node tests mostly wait on the servers they
# start (about 23 s of CPU in 64 s), time the suite's workers fill.
suites: $(STAMP) node-deps
	$(MAKE) --no-print-directory -j2 --output-sync=target unit test-node

# The wheel as the image builds it, the engine compiled with mypyc (needs a C compiler and the Python
# headers), in its own virtualenv; then every golden request answered by it and by the source, compared.
COMPILED := .venv-compiled
compiled: $(STAMP) ## build the compiled wheel (the image's engine) and install it into .venv-compiled
	rm -rf $(COMPILED) build  # a stale build/ would put old files in the wheel
	$(PYTHON) -m venv $(COMPILED)
	$(COMPILED)/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements/runtime.txt
	DRAGONROLL_COMPILE=1 $(BIN)/python -m pip wheel --quiet --no-deps --no-build-isolation -w build/wheels .
	$(COMPILED)/bin/python -m pip install --quiet --no-deps build/wheels/dragonroll-*.whl

test-compiled: compiled ## build the compiled wheel and check it answers byte for byte as the source
	$(MAKE) --no-print-directory check-compiled

check-compiled: $(STAMP) ## check the compiled build already in .venv-compiled (make compiled) against the source
	DRAGONROLL_COMPILED_PYTHON=$(abspath $(COMPILED))/bin/python $(BIN)/python -m pytest -q -p no:cacheprovider tests/compiled

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

docs: $(STAMP) ## build the documentation site into site/ (offline); a broken link or anchor fails it
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

format: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: $(STAMP)
	$(BIN)/mypy
	$(BIN)/mypy --strict clients/python/src

# Three xdist workers on two cores: many server tests wait (timers, SIGTERM, slow clients), and a
# third worker fills that idle CPU (the suite: 12 min 12 s with two, 10 min 31 s with three).
unit: $(STAMP) node-deps
	$(BIN)/python -m pytest -n 3 --dist loadscope -q

# Every npm package a test needs, each directory's from its lock file, installed when its
# node_modules is missing or older than the lock (npm writes node_modules/.package-lock.json last):
# the browser tests' axe-core (tests/browser), the TypeScript client's generator, type checker and
# esbuild (clients/typescript; the browser test of the bundle), the Foundry module's ajv
# (clients/foundry), the MCP TypeScript SDK client (tests/mcp), the Owlbear Rodeo SDK and vite
# (clients/owlbear). Chromium is the system's (CI: Debian's, .ci/run).
BROWSER_TESTS := tests/browser
TS_CLIENT := clients/typescript
FOUNDRY := clients/foundry
MCP_TESTS := tests/mcp
OWLBEAR := clients/owlbear
NPM_DIRS := $(BROWSER_TESTS) $(TS_CLIENT) $(FOUNDRY) $(MCP_TESTS) $(OWLBEAR)
NPM_DEPS := $(NPM_DIRS:%=%/node_modules/.package-lock.json)

node-deps: $(NPM_DEPS) ## install every test's locked npm packages (npm ci in each directory with a package-lock.json)

browser-deps: $(BROWSER_TESTS)/node_modules/.package-lock.json ## install the browser tests' locked npm packages (axe-core)

%/node_modules/.package-lock.json: %/package-lock.json
	@command -v npm >/dev/null 2>&1 || { echo "make: the tests need npm (and node) for $*: apt-get install npm, or see docs/development.md" >&2; exit 1; }
	npm ci --prefix $* --no-audit --no-fund --silent

# `make golden SYSTEM=dos` (or SYSTEM="dos riders") re-records those systems' goldens alone.
golden: $(STAMP) ## re-record tests/golden/*/*.response.json, or SYSTEM=<id>'s alone (review the diff!)
	$(BIN)/python scripts/gen_golden.py $(foreach id,$(SYSTEM),--system $(id))

versions: $(STAMP) ## re-record each system's rules version and fingerprint (tests/rules/versions.json)
	$(BIN)/python -m tests.rules.versions

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

# The gettext catalogs, managed with Babel: the event texts (domain `dragonroll`, rules.narration,
# docs/narration.md) and the playground's texts (domain `playground`, service/playground_catalog.py).
# Extract the English source texts into each template, update each language's .po from it (a changed
# English text marks its translation fuzzy: untranslated until reviewed), compile the .mo files the
# service reads and the JSON catalogs the playground page reads.
LOCALE := rules/locale
CATALOG_KEYWORDS := --no-default-keywords -k sentence:1c,2 -k counted:1c,2,3 -k term:1c,2
PLAYGROUND_LOCALE := service/locale

catalogs: catalogs-extract catalogs-update catalogs-compile ## extract, update and compile the event texts', the problems' and the playground's catalogs

catalogs-extract: catalogs-events-extract catalogs-problems-extract catalogs-playground-extract ## every template
catalogs-update: catalogs-events-update catalogs-problems-update catalogs-playground-update ## the templates' messages into every language's .po
catalogs-compile: catalogs-events-compile catalogs-problems-compile catalogs-playground-compile ## .mo and the playground's i18n/<lang>.json

# One domain at a time, for `make generate` (the playground's is extracted from openapi/openapi.json,
# which is made from the event catalogs: events, then the document, then the playground).
catalogs-events: catalogs-events-extract catalogs-events-update catalogs-events-compile ## the event texts' catalogs alone

catalogs-events-extract: $(STAMP) ## rules/*/text.py -> rules/locale/dragonroll.pot
	$(BIN)/pybabel -q extract -F babel.cfg $(CATALOG_KEYWORDS) --add-comments=TRANSLATORS: \
		--no-location --omit-header -o $(LOCALE)/dragonroll.pot .

catalogs-events-update: $(STAMP)
	$(BIN)/pybabel -q update -i $(LOCALE)/dragonroll.pot -d $(LOCALE) -D dragonroll \
		--ignore-obsolete --ignore-pot-creation-date

catalogs-events-compile: $(STAMP) ## every dragonroll .po -> .mo (what the service reads)
	$(BIN)/pybabel -q compile -d $(LOCALE) -D dragonroll --statistics

# The problems' texts (domain `problems`, service/problem_texts.py): a refusal in the reader's language.
catalogs-problems: catalogs-problems-extract catalogs-problems-update catalogs-problems-compile ## the problems' catalogs alone

catalogs-problems-extract: $(STAMP) ## the problem kinds' titles and service/problem_texts.py -> service/locale/problems.pot
	$(BIN)/pybabel -q extract -F babel-problems.cfg --add-comments=TRANSLATORS: \
		--no-location --omit-header --sort-output -o $(PLAYGROUND_LOCALE)/problems.pot .

catalogs-problems-update: $(STAMP)
	$(BIN)/pybabel -q update -i $(PLAYGROUND_LOCALE)/problems.pot -d $(PLAYGROUND_LOCALE) -D problems \
		--ignore-obsolete --ignore-pot-creation-date

catalogs-problems-compile: $(STAMP) ## every problems .po -> .mo (what the service reads)
	$(BIN)/pybabel -q compile -d $(PLAYGROUND_LOCALE) -D problems

catalogs-playground: catalogs-playground-extract catalogs-playground-update catalogs-playground-compile ## the playground's catalogs alone

catalogs-playground-extract: $(STAMP) ## the page and openapi/openapi.json -> service/locale/playground.pot
	$(BIN)/pybabel -q extract -F babel-playground.cfg -k t -k N_ -k nt:1,2 --add-comments=TRANSLATORS: \
		--no-location --omit-header --sort-output -o $(PLAYGROUND_LOCALE)/playground.pot .

catalogs-playground-update: $(STAMP)
	$(BIN)/pybabel -q update -i $(PLAYGROUND_LOCALE)/playground.pot -d $(PLAYGROUND_LOCALE) -D playground \
		--ignore-obsolete --ignore-pot-creation-date --no-wrap

catalogs-playground-compile: $(STAMP) ## the playground's .po -> service/static/playground/i18n/<lang>.json
	$(BIN)/python -m service.playground_catalog

# Every regeneration, in the order each reads the one before: the event catalogs (the document's
# examples and GET /systems's languages read them), the OpenAPI document, the playground's catalogs
# (extracted from the document), the clients (generated from it), the Owlbear popover's build (it
# bundles the shared front-end modules: a change to them changes it), the goldens of SYSTEM only (none
# without it; `make golden` records them all), and last the rules versions (they fingerprint the
# translations). `make check-generated` runs it and fails when it changed a file.
generate: ## every generated file, in dependency order (SYSTEM=<id>: that system's goldens too)
	$(MAKE) --no-print-directory catalogs-events
	$(MAKE) --no-print-directory catalogs-problems
	$(MAKE) --no-print-directory openapi
	$(MAKE) --no-print-directory catalogs-playground
	$(MAKE) --no-print-directory clients
	$(MAKE) --no-print-directory owlbear
	$(if $(SYSTEM),$(MAKE) --no-print-directory golden SYSTEM="$(SYSTEM)")
	$(MAKE) --no-print-directory versions

check-generated: $(STAMP) ## run `make generate` and fail when a generated file was stale (it is then rewritten: review and commit)
	$(BIN)/python scripts/check_generated.py

openapi: $(STAMP) ## regenerate openapi/openapi.json from the app
	$(BIN)/python scripts/gen_openapi.py

lock: $(STAMP) ## re-lock requirements/*.txt from pyproject.toml
	$(BIN)/uv pip compile pyproject.toml --python-version 3.11 --generate-hashes -q -o requirements/runtime.txt
	$(BIN)/uv pip compile pyproject.toml --extra dev --python-version 3.11 --generate-hashes -q -o requirements/dev.txt
	$(BIN)/uv pip compile requirements/build.in -c requirements/dev.txt --python-version 3.11 --generate-hashes -q -o requirements/build.txt
	$(BIN)/uv pip compile requirements/setup.in -c requirements/build.txt --python-version 3.11 --generate-hashes -q -o requirements/setup.txt
	$(BIN)/uv pip compile requirements/kubectl.in --python-version 3.11 --generate-hashes -q -o requirements/kubectl.txt

bench: $(STAMP) ## throughput and latency against a bare FastAPI app, as ratios (not a test)
	$(BIN)/python -m bench.bench $(BENCH_ARGS)

bench-compiled: compiled ## make bench with the service from the compiled build (what the image runs)
	$(BIN)/python -m bench.bench --service-python $(abspath $(COMPILED))/bin/python $(BENCH_ARGS)

bench-cpu: $(STAMP) ## the worker's CPU time per request under load, against the bare app (not a test)
	$(BIN)/python -m bench.cpu $(BENCH_CPU_ARGS)

bench-workers: $(STAMP) ## the server's CPU time per request with 2 uvicorn workers against 1 (from /proc; not a test)
	$(BIN)/python -m bench.workers $(BENCH_WORKERS_ARGS)

bench-inprocess: $(STAMP) ## CPU time per request of every endpoint and the bare app, in one process
	$(BIN)/python -m bench.inprocess $(BENCH_INPROCESS_ARGS)

bench-odds: $(STAMP) ## exact odds cold and warm, in-process, as ratios to one /dos/test (not a test)
	$(BIN)/python -m bench.odds $(BENCH_ODDS_ARGS)

soak: $(STAMP) ## 120 s of mixed valid and invalid traffic at 128 connections on loopback
	$(BIN)/python -m bench.soak $(SOAK_ARGS)

fuzz-long: $(STAMP) ## the contract fuzz and the endpoint properties with many more examples, the Monte Carlo oracles with 10^6 runs
	DRAGONROLL_FUZZ_EXAMPLES=1000 DRAGONROLL_PROPERTY_EXAMPLES=300 DRAGONROLL_ODDS_FULL_RUNS=1000000 \
		DRAGONROLL_SEARCH_SECONDS=10 \
		$(BIN)/python -m pytest -n 2 -q -p no:cacheprovider tests/contract tests/properties tests/odds/test_monte_carlo.py

# IMAGE_TEST_ARGS=--fresh builds every layer again (what a new machine pays); CI runs it after `make
# test` instead of `make test-compiled`: the image's compiled engine is checked against the source.
image-test: $(STAMP) ## build the Dockerfile with podman from Debian base images, run the image, check its compiled engine (root; docs/hardening.md)
	$(BIN)/python scripts/image_test.py $(IMAGE_TEST_ARGS)

clean: ## also removes extension modules an old compiled build left in rules/ (they would shadow the source)
	find rules -name '*.so' -delete
	rm -rf $(VENV) $(COMPILED) build site .pytest_cache .mypy_cache .ruff_cache .hypothesis

# The typed clients (clients/typescript, clients/python): their generated parts come from openapi/openapi.json.
clients: $(STAMP) $(TS_CLIENT)/node_modules/.package-lock.json ## regenerate the clients' generated code (and the Foundry module's endpoints) from openapi/openapi.json
	npm run --prefix $(TS_CLIENT) --silent generate
	$(BIN)/python clients/python/generate.py
	node clients/foundry/tools/generate.mjs

# The Owlbear Rodeo extension (clients/owlbear): built with vite into service/static/owlbear (committed).
owlbear: $(OWLBEAR)/node_modules/.package-lock.json ## rebuild the Owlbear Rodeo extension into service/static/owlbear (commit the result)
	npm run --prefix $(OWLBEAR) --silent build

test-node: $(STAMP) $(TS_CLIENT)/node_modules/.package-lock.json $(FOUNDRY)/node_modules/.package-lock.json $(OWLBEAR)/node_modules/.package-lock.json ## the TypeScript client (typecheck, drift, end to end), the Foundry module (stand-ins, end to end), the Owlbear extension (logic with the SDK replaced, build drift)
	npm test --prefix $(TS_CLIENT) --silent
	npm test --prefix $(FOUNDRY) --silent
	npm test --prefix $(OWLBEAR) --silent
