"""The Foundry VTT module (``clients/foundry``), served so a GM installs it by manifest URL: the
manifest at ``GET /foundry/module.json`` and the module's zip, both naming the service's own address
(docs/foundry.md, "Install it by manifest URL"). The files shipped are :data:`SHIPPED`'s (the same
patterns as ``pyproject.toml``'s package data), and the shared front-end modules :data:`SHARED_DIR`'s.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from starlette.requests import Request
from starlette.responses import Response

from service import problems

#: Where the module's files are: ``clients/foundry`` through the link, or the wheel's copy.
MODULE_DIR = Path(__file__).parent / "foundry_module"
#: The files of the module, as patterns under :data:`MODULE_DIR` (and in ``pyproject.toml``).
SHIPPED = ("module.json", "*.mjs", "lang/*.json")
#: The shared front-end modules the module's dialog imports (the playground's form, card and odds:
#: ``service/static/shared``, package data already), in the zip under ``shared/``: in the source tree
#: ``clients/foundry/shared`` links to them, so the module runs from there as it does unzipped.
SHARED_DIR = Path(__file__).parent / "static" / "shared"
SHARED = ("*.js", "*.css")
PREFIX = "/foundry"
#: A Host header as browsers and Foundry send it: a name or IPv4 address, or [IPv6]; a port.
_HOST = re.compile(
    r"^(?:[A-Za-z0-9](?:[A-Za-z0-9.\-]*[A-Za-z0-9])?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$"
)
#: 1980-01-01 00:00:00, the earliest time a zip entry can carry.
_EPOCH = (1980, 1, 1, 0, 0, 0)


def module_files(directory: Path = MODULE_DIR, shared: Path = SHARED_DIR) -> dict[str, bytes]:
    """The module's files by their path in the zip (``lang/en.json``, ``shared/form.js``), sorted."""
    found = {
        path.relative_to(directory).as_posix(): path
        for pattern in SHIPPED
        for path in directory.glob(pattern)
        if path.is_file()
    }
    found.update(
        (f"shared/{path.name}", path)
        for pattern in SHARED
        for path in shared.glob(pattern)
        if path.is_file()
    )
    if "module.json" not in found:
        msg = f"the Foundry module is not where the service looks for it: {directory}"
        raise RuntimeError(msg)
    return {name: found[name].read_bytes() for name in sorted(found)}


def manifest(source: dict[str, Any], base: str) -> dict[str, Any]:
    """The manifest a GM installs from ``base`` (``https://dice.example.org``, no trailing slash):
    the module's own, with ``url`` (the service's page), ``manifest`` and ``download`` after
    ``version``."""
    version = source["version"]
    links = {
        "url": f"{base}/",
        "manifest": f"{base}{PREFIX}/module.json",
        "download": f"{base}{PREFIX}/{zip_name(source)}",
    }
    out: dict[str, Any] = {}
    for key, value in source.items():
        if key not in links:
            out[key] = value
        if key == "version":
            out.update(links)
    assert out["version"] == version
    return out


def zip_name(source: dict[str, Any]) -> str:
    return f"{source['id']}-{source['version']}.zip"


def encode(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode("utf-8")


def build_zip(files: dict[str, bytes], manifest_bytes: bytes) -> bytes:
    entries = {**files, "module.json": manifest_bytes}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=_EPOCH)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so the mode below is read as one
            info.external_attr = 0o100644 << 16
            archive.writestr(info, entries[name], compresslevel=9)
    return buffer.getvalue()


def bad_host(request: Request) -> Response | None:
    """A 400 problem when the manifest would be written from a ``Host`` header that is not a host
    name or address with an optional port; else nothing."""
    host = request.headers.get("host")
    if host is None or _HOST.match(host):
        return None
    detail = (
        f"the Host header {host[:100]!r} is not a host name with an optional port;"
        " set DRAGONROLL_PUBLIC_URL to the service's address"
    )
    body = {"type": "about:blank", "title": "Bad Request", "status": 400, "detail": detail}
    return problems.response(request.scope, body)


def mount_foundry(app: FastAPI) -> None:
    """``GET /foundry/module.json`` and ``GET /foundry/<id>-<version>.zip`` (and their HEAD)."""
    files = module_files()
    source = json.loads(files["module.json"])
    public_url: str | None = app.state.settings.public_url or None

    def headers() -> dict[str, str]:
        found = {"cache-control": "no-cache"}
        if not public_url:
            found["vary"] = "Host"
        return found

    @lru_cache(maxsize=8)
    def manifest_bytes(base: str) -> bytes:
        return encode(manifest(source, base))

    @lru_cache(maxsize=8)
    def zip_bytes(base: str) -> bytes:
        return build_zip(files, manifest_bytes(base))

    def route(build: Callable[[str], bytes], media: str, **extra: str) -> Any:
        async def serve(request: Request) -> Response:
            if public_url:
                base = public_url.rstrip("/")
            else:
                refused = bad_host(request)
                if refused is not None:
                    return refused
                base = str(request.base_url).rstrip("/")
            return Response(build(base), media_type=media, headers={**headers(), **extra})

        return serve

    app.add_route(
        f"{PREFIX}/module.json",
        route(manifest_bytes, "application/json"),
        methods=["GET", "HEAD"],
        include_in_schema=False,
    )
    name = zip_name(source)
    app.add_route(
        f"{PREFIX}/{name}",
        route(
            zip_bytes,
            "application/zip",
            **{"content-disposition": f'attachment; filename="{name}"'},
        ),
        methods=["GET", "HEAD"],
        include_in_schema=False,
    )
