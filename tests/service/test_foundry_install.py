"""Installing the Foundry module by manifest URL (``service.foundry``, docs/foundry.md): the manifest
the service writes for the address a GM used, and the zip it points at, unzipped and compared with
``clients/foundry`` file by file."""

from __future__ import annotations

import asyncio
import io
import json
import re
import shutil
import subprocess
import tomllib
import zipfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from pydantic import ValidationError

from service.foundry import MODULE_DIR, SHARED, SHARED_DIR, SHIPPED
from service.settings import Settings
from tests.conftest import Api, assert_problem

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "clients" / "foundry"
SOURCE: dict[str, Any] = json.loads((MODULE / "module.json").read_text(encoding="utf-8"))
ZIP = f"/foundry/dragonroll-{SOURCE['version']}.zip"
#: A relative ES import or re-export in a module file: ``from "./endpoints.mjs"``.
IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*\(?\s*["'](\.{1,2}/[^"']+)["']""")


def module_files() -> dict[str, bytes]:
    """What the module consists of, read from clients/foundry itself (not through the link), and the
    shared modules its dialog imports, from service/static/shared (as shared/)."""
    paths = {p for pattern in SHIPPED for p in MODULE.glob(pattern) if p.is_file()}
    files = {p.relative_to(MODULE).as_posix(): p.read_bytes() for p in paths}
    shared = ROOT / "service" / "static" / "shared"
    assert SHARED_DIR.resolve() == shared.resolve()
    files.update({f"shared/{p.name}": p.read_bytes() for pat in SHARED for p in shared.glob(pat)})
    return files


def unzip(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.testzip() is None
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_manifest_points_at_the_host_the_gm_used(api: Api) -> None:
    response = api.get("/foundry/module.json", headers={"host": "192.168.1.20:8000"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert "Host" in [v.strip() for v in response.headers["vary"].split(",")]
    assert response.headers["cache-control"] == "no-cache"
    manifest = response.json()
    assert manifest["url"] == "http://192.168.1.20:8000/"
    assert manifest["manifest"] == "http://192.168.1.20:8000/foundry/module.json"
    assert manifest["download"] == f"http://192.168.1.20:8000{ZIP}"
    # Everything else is the module's own manifest, unchanged and in its order.
    rest = {k: v for k, v in manifest.items() if k not in ("url", "manifest", "download")}
    assert rest == SOURCE and list(rest) == list(SOURCE)
    assert {"url", "manifest", "download"}.isdisjoint(SOURCE)


def test_compatibility_names_minimum_verified_and_a_maximum(api: Api) -> None:
    compatibility = api.get("/foundry/module.json").json()["compatibility"]
    assert set(compatibility) == {"minimum", "verified", "maximum"}
    # No further than the generation verified (a maximum of "14" takes every v14 build), and v14 in:
    # the current stable generation (issue 45).
    assert compatibility["maximum"] == compatibility["verified"].split(".")[0] == "14"
    assert int(compatibility["minimum"]) <= int(compatibility["verified"].split(".")[0])


def test_the_public_url_setting_overrides_the_host_header() -> None:
    api = Api(public_url="https://dice.example.org/rules/")
    response = api.get("/foundry/module.json", headers={"host": "attacker.example"})
    manifest = response.json()
    assert manifest["manifest"] == "https://dice.example.org/rules/foundry/module.json"
    assert manifest["download"] == f"https://dice.example.org/rules{ZIP}"
    assert "Host" not in response.headers.get("vary", "")
    # With the address fixed, even a Host that would be refused gets the same manifest.
    odd = api.get("/foundry/module.json", headers={"host": "a/b?c"})
    assert odd.status_code == 200 and odd.json() == manifest


@pytest.mark.parametrize("value", ["dice.example.org", "ftp://x", "https://x/a b", "https://x?q"])
def test_a_public_url_that_is_not_an_http_address_stops_start_up(value: str) -> None:
    with pytest.raises(ValidationError, match="public_url"):
        Settings(public_url=value)


@pytest.mark.parametrize("host", ["evil.example/x?", "a b", "x:port", "@evil", "-x"])
def test_a_host_header_that_is_no_host_is_refused(api: Api, host: str) -> None:
    for path in ("/foundry/module.json", ZIP):
        body = assert_problem(api.get(path, headers={"host": host}), 400)
        assert "DRAGONROLL_PUBLIC_URL" in body["detail"]


@pytest.mark.parametrize("host", ["localhost", "127.0.0.1:8000", "[::1]:8000", "dice.example.org"])
def test_host_names_and_addresses_are_taken(api: Api, host: str) -> None:
    manifest = api.get("/foundry/module.json", headers={"host": host}).json()
    assert urlsplit(manifest["download"]).netloc == host


def test_the_root_path_of_a_proxied_service_is_kept() -> None:
    app = Api().app

    async def fetch() -> httpx.Response:
        transport = httpx.ASGITransport(app=app, root_path="/dice")
        async with httpx.AsyncClient(transport=transport, base_url="http://vtt.lan") as client:
            return await client.get("/foundry/module.json")

    manifest = asyncio.run(fetch()).json()
    assert manifest["download"] == f"http://vtt.lan/dice{ZIP}"


def test_the_download_unzips_to_the_module_and_its_manifest(api: Api) -> None:
    headers = {"host": "dice.lan:8000"}
    manifest = api.get("/foundry/module.json", headers=headers)
    download = api.get(urlsplit(manifest.json()["download"]).path, headers=headers)
    assert download.status_code == 200
    assert download.headers["content-type"] == "application/zip"
    assert download.headers["content-disposition"] == f'attachment; filename="{ZIP[9:]}"'
    files = unzip(download.content)
    expected = module_files()
    assert sorted(files) == sorted(expected)
    # module.json in the zip is the manifest just served (so Foundry checks it for updates); every
    # other file is the module's, byte for byte.
    assert files["module.json"] == manifest.content
    for name, data in expected.items():
        if name != "module.json":
            assert files[name] == data, name
    # Every file the manifest names, and every file a module file imports, is in the zip.
    named = [*SOURCE.get("esmodules", []), *SOURCE.get("scripts", []), *SOURCE.get("styles", [])]
    named += [language["path"] for language in SOURCE.get("languages", [])]
    assert set(named) <= set(files)
    for name in (n for n in files if n.endswith((".mjs", ".js"))):
        for target in IMPORT.findall(files[name].decode("utf-8")):
            resolved = (Path(name).parent / target).as_posix().removeprefix("./")
            assert resolved in files, f"{name} imports {target}, which the zip lacks"


def test_the_zip_is_the_same_bytes_every_time() -> None:
    first = Api().get(ZIP).content
    second = Api().get(ZIP).content  # another app: built again from the files
    assert first == second
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        infos = archive.infolist()
    assert [i.filename for i in infos] == sorted(i.filename for i in infos)
    assert {i.date_time for i in infos} == {(1980, 1, 1, 0, 0, 0)}
    assert {i.external_attr >> 16 for i in infos} == {0o100644}
    assert all(not i.filename.startswith(("/", "..")) for i in infos)


def test_head_is_answered_and_other_versions_are_not_found(api: Api) -> None:
    assert api.request("HEAD", "/foundry/module.json").status_code == 200
    assert api.request("HEAD", ZIP).status_code == 200
    assert_problem(api.get("/foundry/dragonroll-0.0.1.zip"), 404, "not-found")
    assert_problem(api.post("/foundry/module.json", json={}), 405)


def test_the_files_come_from_clients_foundry_and_ship_in_the_wheel() -> None:
    # In the source tree the package's folder is a link to the module; the wheel carries the files
    # matched by the same patterns as service.foundry.SHIPPED.
    assert MODULE_DIR.is_symlink() and MODULE_DIR.resolve() == MODULE.resolve()
    with (ROOT / "pyproject.toml").open("rb") as f:
        data = tomllib.load(f)["tool"]["setuptools"]["package-data"]["service"]
    assert {
        p.removeprefix("foundry_module/") for p in data if p.startswith("foundry_module/")
    } == set(SHIPPED)
    dockerignore = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    for pattern in SHIPPED:
        kept = f"!clients/foundry/{pattern.removesuffix('*.json')}"
        assert kept in dockerignore, kept
        assert f"clients/foundry/{pattern.removesuffix('*.json')}" in dockerfile, pattern


#: Run by node in the unzipped module's folder: the stand-ins of Foundry's globals, the module as
#: Foundry loads it (its esmodules), its init hook; prints the api's functions.
LOAD = """
import { installStandIns } from %(standins)s;
installStandIns({ lang: "en" });
await import(%(entry)s);
Hooks.callAll("init");
console.log(JSON.stringify(Object.keys(game.modules.get("dragonroll").api).sort()));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no node on this machine")
def test_the_unzipped_module_loads_as_foundry_would_load_it(api: Api, tmp_path: Path) -> None:
    with zipfile.ZipFile(io.BytesIO(api.get(ZIP).content)) as archive:
        archive.extractall(tmp_path)
    [entry] = json.loads((tmp_path / "module.json").read_text(encoding="utf-8"))["esmodules"]
    script = LOAD % {
        "standins": json.dumps((MODULE / "test" / "standins.js").as_uri()),
        "entry": json.dumps((tmp_path / entry).as_uri()),
    }
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    document = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    posts = [item["post"]["operationId"] for item in document["paths"].values() if "post" in item]
    camel = [re.sub(r"_([a-z0-9])", lambda m: m.group(1).upper(), op) for op in posts]
    # one function per endpoint, `resolve` (any by its path), the dialog and the check of a roll
    assert json.loads(done.stdout) == sorted([*camel, "open", "resolve", "verify"])
