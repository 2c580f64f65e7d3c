# dragonroll: a small, non-root image running one uvicorn process (scale with replicas, not workers).
# Build: docker build -t dragonroll:0.1.0 .   Run: docker run --rm -p 8000:8000 dragonroll:0.1.0
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

# --- build: a virtualenv with the locked, hash-checked runtime dependencies ------------------------
FROM ${PYTHON_IMAGE} AS build
ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONDONTWRITEBYTECODE=1
RUN python -m venv /opt/venv
COPY requirements/runtime.txt /tmp/runtime.txt
RUN /opt/venv/bin/pip install --no-cache-dir --require-hashes --no-deps -r /tmp/runtime.txt

# --- runtime: the interpreter, the venv and the source; no compilers, no package caches -----------
FROM ${PYTHON_IMAGE} AS runtime
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DRAGONROLL_HOST=0.0.0.0 \
    DRAGONROLL_PORT=8000 \
    DRAGONROLL_LOG_FORMAT=json
WORKDIR /app
COPY --from=build /opt/venv /opt/venv
COPY rules/ /app/rules/
COPY service/ /app/service/
# A numeric user that owns nothing in the image: the code and the venv stay read-only to it.
USER 10001:10001
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/livez' % os.environ.get('DRAGONROLL_PORT', '8000'), timeout=2)"]
STOPSIGNAL SIGTERM
CMD ["python", "-m", "service"]
