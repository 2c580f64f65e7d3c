"""``make image-test``: build the container image from our ``Dockerfile`` and run it, no registry needed.

1. Base images: ``mmdebstrap`` makes Debian bookworm minbase root file systems for the Dockerfile's two
   ``ARG`` base images (runtime: python3.11, python3.11-venv, python-is-python3; build: the same plus
   build-essential and python3.11-dev), cached as tarballs under ``$DRAGONROLL_IMAGE_CACHE`` (default
   ``~/.cache/dragonroll/image-test``), keyed by what goes in them; ``podman import`` tags each as the
   ``ARG``'s default name (re-imported only when its tarball changed).
2. ``podman build --isolation=chroot --pull=never`` builds the Dockerfile unchanged; the machine's CA
   bundle and a pip.conf naming it are mounted into the build's ``RUN`` steps so pip reaches the index.
3. Run: podman's runtimes cannot set rlimits on these machines, so the image's own root file system is
   mounted (``podman image mount``) and its ``CMD`` runs there under ``chroot --userspec=10001:10001``
   with the image's ``ENV`` and ``WORKDIR`` (host and port overridden: 127.0.0.1:8115).
4. Checks: ``/livez`` and ``/readyz``; one seeded golden request per system answers the same bytes as
   the in-process app built from this work tree, and so do the Foundry module's manifest and zip;
   the process runs as uid 10001 and cannot write its code or venv; SIGTERM stops it cleanly (exit
   0, "stopping" logged) within the graceful timeout.
5. The compiled engine the image ships, checked as ``make test-compiled`` checks a wheel built
   beside the source (``tests/compiled``: every golden request with 13 seeds answered byte for
   byte as the source answers it, every listed module running compiled, the Foundry module
   served the same), with the image's own Python in its root file system as uid 10001: what ships
   is what is tested, and the wheel is built once. CI runs this (``.ci/run``) instead of
   ``make test-compiled``.

Needs root, ``mmdebstrap`` and ``podman`` (``apt-get install mmdebstrap podman``). Prints the time of
each phase; exits non-zero on the first failed check.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SUITE = "bookworm"
RUNTIME_PACKAGES = ("python3.11", "python3.11-venv", "python-is-python3")
BASES = {  # Dockerfile ARG -> packages of its root file system
    "PYTHON_IMAGE": RUNTIME_PACKAGES,
    "BUILD_IMAGE": (*RUNTIME_PACKAGES, "build-essential", "python3.11-dev"),
}
TAG = "localhost/dragonroll:image-test"
PORT = 8115
USER = "10001:10001"
CA_BUNDLE = Path(os.environ.get("SSL_CERT_FILE", "/etc/ssl/certs/ca-certificates.crt"))
CACHE = Path(
    os.environ.get("DRAGONROLL_IMAGE_CACHE", Path.home() / ".cache" / "dragonroll" / "image-test")
)


class Failed(Exception):
    """A check that did not hold."""


def run(*cmd: str | Path, capture: bool = False) -> str:
    out = subprocess.run([str(c) for c in cmd], check=True, text=True, capture_output=capture)
    return out.stdout.strip() if capture else ""


@contextmanager
def phase(name: str, times: dict[str, float]) -> Iterator[None]:
    print(f"image-test: {name} ...", flush=True)
    start = time.monotonic()
    yield
    times[name] = time.monotonic() - start
    print(f"image-test: {name}: {times[name]:.1f} s", flush=True)


def base_names() -> dict[str, str]:
    """The Dockerfile's ARG defaults for the base images, as podman names them locally."""
    text = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    names = dict(re.findall(r"^ARG (\w+)=(\S+)", text, flags=re.MULTILINE))
    out = {}
    for arg in BASES:
        name = names[arg]
        out[arg] = name if "/" in name.split(":")[0] else f"docker.io/library/{name}"
    return out


def rootfs(arg: str) -> tuple[Path, str]:
    """The cached root file system tarball for ``arg``'s base image, made when missing."""
    packages = BASES[arg]
    key = hashlib.sha256(f"{SUITE} minbase {','.join(packages)}".encode()).hexdigest()[:16]
    tarball = CACHE / f"{arg.lower()}-{SUITE}-{key}.tar"
    if not tarball.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        partial = tarball.with_suffix(".partial.tar")
        run("mmdebstrap", "--quiet", "--variant=minbase", f"--include={','.join(packages)}",
            SUITE, partial)  # fmt: skip
        partial.rename(tarball)
    return tarball, key


def import_base(arg: str, name: str) -> None:
    """Tag the cached root file system as ``name`` unless the image there is already that one."""
    tarball, key = rootfs(arg)
    found = subprocess.run(
        ["podman", "image", "inspect", "--format", "{{.Comment}}", name],
        check=False,
        text=True,
        capture_output=True,
    )
    if found.returncode == 0 and found.stdout.strip() == key:
        return
    run("podman", "import", "--quiet", "--message", key, tarball, name)


def bases() -> None:
    """Both base images at once: making one is mostly waiting for Debian's archive (a build
    image took 204 s of wall clock and 32 s of CPU on a loaded 2-core machine)."""
    with ThreadPoolExecutor(max_workers=len(BASES)) as pool:
        list(pool.map(lambda item: import_base(*item), base_names().items()))


def build(workdir: Path, fresh: bool) -> None:
    pip_conf = workdir / "pip.conf"
    pip_conf.write_text(f"[global]\ncert = {CA_BUNDLE}\n", encoding="utf-8")
    cache = ["--no-cache"] if fresh else []
    run("podman", "build", "--quiet", "--isolation=chroot", "--pull=never", "--format=docker", *cache,
        "-v", f"{CA_BUNDLE}:{CA_BUNDLE}:ro", "-v", f"{pip_conf}:/etc/pip.conf:ro",
        "-t", TAG, "-f", ROOT / "Dockerfile", ROOT)  # fmt: skip


def image_config() -> dict[str, Any]:
    inspected = json.loads(run("podman", "image", "inspect", TAG, capture=True))
    config: dict[str, Any] = inspected[0]["Config"]
    return config


def start(root: Path, config: dict[str, Any], log: Path) -> subprocess.Popen[bytes]:
    """The image's CMD in its root file system, as its USER, with its ENV and WORKDIR."""
    if config.get("User") != USER:
        raise Failed(f"the image's USER is {config.get('User')!r}, not {USER}")
    env = [*config["Env"], "DRAGONROLL_HOST=127.0.0.1", f"DRAGONROLL_PORT={PORT}"]
    workdir = config.get("WorkingDir") or "/"
    cmd = ["chroot", f"--userspec={USER}", str(root), "/usr/bin/env", "-i", "-C", workdir, *env]
    with log.open("wb") as out:
        return subprocess.Popen([*cmd, *config["Cmd"]], stdout=out, stderr=subprocess.STDOUT)


def get(path: str, body: bytes | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(
        f"http://127.0.0.1:{PORT}{path}",
        data=body,
        headers={"content-type": "application/json"} if body is not None else {},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.read()


def wait_ready(process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise Failed(f"the service exited ({process.returncode}):\n{log.read_text()}")
        try:
            if get("/readyz")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.3)
    raise Failed(f"no /readyz 200 within 60 s:\n{log.read_text()}")


def check_health() -> None:
    for path in ("/livez", "/readyz"):
        status, body = get(path)
        if status != 200:
            raise Failed(f"{path}: {status} {body!r}")
        print(f"image-test: {path}: {status} {body.decode()}")


def golden_requests() -> list[tuple[str, bytes]]:
    """One seeded golden request per system of the registry whose answer rolls dice."""
    from rules.registry import SYSTEMS

    out = []
    for system in (s.id for s in SYSTEMS if s.game):
        for file in sorted((ROOT / "tests" / "golden" / system).glob("*.request.json")):
            spec = json.loads(file.read_text(encoding="utf-8"))
            answer = file.with_name(file.name.replace(".request.", ".response."))
            rolls = json.loads(answer.read_text(encoding="utf-8")).get("rolls")
            if spec.get("status", 200) == 200 and "seed" in spec["body"] and rolls:
                out.append((spec["path"], json.dumps(spec["body"]).encode()))
                break
        else:
            raise Failed(f"no seeded golden request for {system}")
    return out


def in_process(requests: list[tuple[str, bytes]]) -> list[bytes]:
    import httpx

    from service.app import create_app
    from service.settings import Settings

    async def answers() -> list[bytes]:
        app = create_app(Settings(log_level="warning"))
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://in-process") as client:
            out = []
            for path, body in requests:
                r = await client.post(
                    path, content=body, headers={"content-type": "application/json"}
                )
                out.append(r.content)
            return out

    return asyncio.run(answers())


def in_process_foundry() -> tuple[bytes, bytes]:
    """The Foundry manifest and zip as the in-process app serves them at the image's address."""
    import httpx

    from service.app import create_app
    from service.settings import Settings

    async def answers() -> tuple[bytes, bytes]:
        app = create_app(Settings(log_level="warning"))
        transport = httpx.ASGITransport(app=app)
        base = f"http://127.0.0.1:{PORT}"
        async with httpx.AsyncClient(transport=transport, base_url=base) as client:
            manifest = await client.get("/foundry/module.json")
            download = await client.get(manifest.json()["download"])
            return manifest.content, download.content

    return asyncio.run(answers())


def check_foundry() -> None:
    """The image carries the Foundry module: the same manifest and zip as the work tree's."""
    manifest, download = in_process_foundry()
    status, served = get("/foundry/module.json")
    if status != 200 or served != manifest:
        raise Failed(f"/foundry/module.json: {status}, not the in-process manifest")
    path = json.loads(served)["download"].removeprefix(f"http://127.0.0.1:{PORT}")
    status, served = get(path)
    if status != 200 or served != download:
        raise Failed(f"{path}: {status}, {len(served)} bytes, not the in-process zip")
    print(f"image-test: GET {path}: 200, {len(served)} bytes, same as in-process")


def check_requests() -> None:
    requests = golden_requests()
    for (path, body), expected in zip(requests, in_process(requests), strict=True):
        status, answer = get(path, body)
        if status != 200 or answer != expected:
            raise Failed(f"{path}: the image answered {status}, {len(answer)} bytes, not the same"
                         f" {len(expected)} bytes as in-process")  # fmt: skip
        print(f"image-test: POST {path}: 200, {len(answer)} bytes, same as in-process")


def check_user(process: subprocess.Popen[bytes], root: Path, config: dict[str, Any]) -> None:
    status = Path(f"/proc/{process.pid}/status").read_text()
    uids = re.search(r"^Uid:\s+(.*)$", status, flags=re.MULTILINE)
    if uids is None or set(uids.group(1).split()) != {USER.split(":", maxsplit=1)[0]}:
        raise Failed(f"the service runs as uid {uids.group(1) if uids else '?'}, not {USER}")
    probe = (
        "import os, service, sys\n"
        "places = [os.path.dirname(service.__file__), sys.prefix, os.getcwd(), '/usr/lib/python3.11']\n"
        "for place in places:\n"
        "    try:\n"
        "        open(os.path.join(place, 'image-test-probe'), 'w').close()\n"
        "    except OSError:\n"
        "        continue\n"
        "    sys.exit('wrote into ' + place)\n"
        "print('no write into', ', '.join(places))\n"
    )
    workdir = config.get("WorkingDir") or "/"
    out = subprocess.run(
        ["chroot", f"--userspec={USER}", str(root), "/usr/bin/env", "-i", "-C", workdir,
         *config["Env"], "python", "-c", probe],
        check=False, text=True, capture_output=True,
    )  # fmt: skip
    if out.returncode != 0:
        raise Failed(f"uid 10001 can write the code: {out.stdout}{out.stderr}")
    print(f"image-test: runs as uid {uids.group(1).split()[0]}; {out.stdout.strip()}")


def check_stop(process: subprocess.Popen[bytes], log: Path) -> None:
    """SIGTERM: uvicorn finishes in-flight requests, runs the lifespan's shutdown ("stopping"), then
    re-raises the signal, so a clean stop ends by SIGTERM (-15; 143 in a shell) or with 0."""
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
        raise Failed("SIGTERM did not stop the service within 20 s") from None
    text = log.read_text()
    if (
        code not in (0, -signal.SIGTERM)
        or '"stopping"' not in text
        or "Finished server" not in text
    ):
        raise Failed(f"unclean stop (exit {code}):\n" + "\n".join(text.splitlines()[-10:]))
    print(f"image-test: SIGTERM: exit {code}, 'stopping' logged, server process finished")


def image_python(root: Path, config: dict[str, Any], workdir: Path) -> Path:
    """A script that runs the image's ``python`` in its root file system as its USER, with its ENV
    and WORKDIR (and the caller's DRAGONROLL_LOG_LEVEL): ``DRAGONROLL_COMPILED_PYTHON``."""
    env = " ".join(shlex.quote(e) for e in config["Env"])
    script = workdir / "image-python"
    script.write_text(
        "#!/bin/sh\n"
        f"exec chroot --userspec={USER} {shlex.quote(str(root))} /usr/bin/env -i"
        f" -C {shlex.quote(config.get('WorkingDir') or '/')} {env}"
        ' DRAGONROLL_LOG_LEVEL="${DRAGONROLL_LOG_LEVEL:-warning}" python "$@"\n',
        encoding="utf-8",
    )
    script.chmod(0o755)
    return script


def check_compiled(root: Path, config: dict[str, Any], workdir: Path) -> None:
    """``tests/compiled`` with the image's Python (the source's answers from this work tree)."""
    python = image_python(root, config, workdir)
    env = {**os.environ, "DRAGONROLL_COMPILED_PYTHON": str(python)}
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/compiled"],
        cwd=ROOT, env=env, check=False, text=True, capture_output=True, timeout=1200,
    )  # fmt: skip
    last = tests.stdout.strip().splitlines()[-1:] or ["(no output)"]
    if tests.returncode != 0 or "skipped" in last[0]:
        raise Failed(
            f"tests/compiled with the image's Python:\n{tests.stdout[-4000:]}{tests.stderr}"
        )
    print(f"image-test: tests/compiled with the image's Python: {last[0]}")


def serve_and_check(times: dict[str, float], workdir: Path) -> None:
    config = image_config()
    root = Path(run("podman", "image", "mount", TAG, capture=True))
    log = workdir / "service.log"
    process = start(root, config, log)
    try:
        with phase("start", times):
            wait_ready(process, log)
        with phase("checks", times):
            check_health()
            check_requests()
            check_foundry()
            check_user(process, root, config)
            check_stop(process, log)
        with phase("compiled", times):
            check_compiled(root, config, workdir)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        run("podman", "image", "unmount", TAG)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", maxsplit=1)[0])
    parser.add_argument(
        "--bases-only",
        action="store_true",
        help="make and import the base images, nothing else (CI starts it early)",
    )
    parser.add_argument(
        "--fresh",
        action="store_true",
        help="build every layer again, as a new machine does (no layer cache)",
    )
    args = parser.parse_args(argv)  # fmt: skip
    for tool in ("mmdebstrap", "podman", "chroot"):
        if shutil.which(tool) is None:
            print(f"image-test: {tool} is missing (apt-get install mmdebstrap podman)")
            return 2
    times: dict[str, float] = {}
    workdir = CACHE / "run"
    workdir.mkdir(parents=True, exist_ok=True)
    # one run at a time on a machine (the tag, the port and this directory are shared)
    with (CACHE / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            with phase("base images", times):
                bases()
            if not args.bases_only:
                with phase("build", times):
                    build(workdir, args.fresh)
                serve_and_check(times, workdir)
        except (Failed, subprocess.CalledProcessError) as exc:
            print(f"image-test: FAILED: {exc}", file=sys.stderr)
            return 1
    total = sum(times.values())
    print("image-test: passed in " + ", ".join(f"{k} {v:.0f} s" for k, v in times.items())
          + f"; total {total:.0f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
