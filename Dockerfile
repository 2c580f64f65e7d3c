# dragonroll: a small, non-root image running one uvicorn process (scale with replicas, not workers).
# Build: docker build -t dragonroll:0.1.0 .   Run: docker run --rm -p 8000:8000 dragonroll:0.1.0
ARG PYTHON_IMAGE=python:3.11-slim-bookworm
# The same Python with a C compiler and headers, to compile the engine (mypyc) for the runtime image.
ARG BUILD_IMAGE=python:3.11-bookworm

# --- build: the locked, hash-checked runtime dependencies and dragonroll itself, engine compiled ----
FROM ${BUILD_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1 \
    DRAGONROLL_COMPILE=1
COPY requirements/runtime.txt requirements/build.txt /tmp/req/
# /opt/venv is what ships; /opt/tools holds mypy and setuptools, which compile the engine against the
# same pydantic: /opt/venv's packages, on its path by a .pth file (installed once, not twice: 40 s of
# a clean build on a loaded 2-core machine).
RUN python -m venv /opt/venv \
    && /opt/venv/bin/pip install --no-cache-dir --require-hashes --no-deps -r /tmp/req/runtime.txt \
    && python -m venv /opt/tools \
    && /opt/tools/bin/pip install --no-cache-dir --require-hashes --no-deps -r /tmp/req/build.txt \
    && /opt/venv/bin/python -c "import sysconfig; print(sysconfig.get_path('purelib'))" \
        > "$(/opt/tools/bin/python -c "import sysconfig; print(sysconfig.get_path('purelib'))")/runtime.pth"
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY rules/ rules/
COPY service/ service/
# The Foundry module, which service/foundry_module links to: the wheel carries its files (service.foundry).
COPY clients/foundry/module.json clients/foundry/*.mjs clients/foundry/
COPY clients/foundry/lang/ clients/foundry/lang/
# The pages the MCP server serves as resources (setup.py copies them into the wheel).
COPY docs/dice.md docs/
COPY docs/systems/ docs/systems/
RUN /opt/tools/bin/pip wheel --no-cache-dir --no-deps --no-build-isolation -w /tmp/wheels . \
    && /opt/venv/bin/pip install --no-cache-dir --no-deps /tmp/wheels/dragonroll-*.whl

# --- runtime: the interpreter and the venv (dragonroll installed in it); no compilers, no caches -----
FROM ${PYTHON_IMAGE} AS runtime
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DRAGONROLL_HOST=0.0.0.0 \
    DRAGONROLL_PORT=8000 \
    DRAGONROLL_LOG_FORMAT=json
WORKDIR /app
COPY --from=build /opt/venv /opt/venv
# A numeric user that owns nothing in the image: the code and the venv stay read-only to it.
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/livez' % os.environ.get('DRAGONROLL_PORT', '8000'), timeout=2)"]
STOPSIGNAL SIGTERM
CMD ["python", "-m", "service"]
