"""Issue 28: the service hosts its Owlbear Rodeo extension at /owlbear/ (manifest, popover, icon),
ships the built files in its package, and lets the Owlbear origin call it by default (CORS)."""

from __future__ import annotations

import fnmatch
import re
import tomllib
from pathlib import Path

import pytest

from service.owlbear import ASSETS
from tests.conftest import Api, assert_problem

ROOT = Path(__file__).resolve().parents[2]
OWLBEAR = "https://www.owlbear.rodeo"


@pytest.fixture(scope="module")
def api() -> Api:
    return Api(log_level="warning")


def test_the_manifest_names_the_popover_and_the_icon(api: Api) -> None:
    r = api.get("/owlbear/manifest.json")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    manifest = r.json()
    assert manifest["manifest_version"] == 1
    for key in ("name", "version", "author", "description", "icon", "homepage_url"):
        assert isinstance(manifest[key], str) and manifest[key], key
    # Owlbear Rodeo's manifest reference: a description of at most 128 characters.
    assert len(manifest["description"]) <= 128, len(manifest["description"])
    assert manifest["homepage_url"] == "http://testserver/"  # absolute, the service's own page
    action = manifest["action"]
    assert set(action) == {"title", "icon", "popover", "width", "height"}
    assert isinstance(action["width"], int) and isinstance(action["height"], int)
    for path in (manifest["icon"], action["icon"], action["popover"]):
        assert api.get(path).status_code == 200, path
    assert api.get(action["icon"]).headers["content-type"] == "image/svg+xml"


def test_the_popover_and_every_built_file_are_served(api: Api) -> None:
    for path in ("/owlbear/", "/owlbear/index.html"):
        r = api.get(path)
        assert r.status_code == 200 and r.headers["content-type"] == "text/html; charset=utf-8"
        csp = r.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "frame-ancestors" not in csp  # Owlbear frames it
    page = api.get("/owlbear/index.html").text
    assets = re.findall(r'(?:src|href)="\./(assets/[^"]+)"', page)
    assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
    for asset in assets:
        assert api.get(f"/owlbear/{asset}").status_code == 200
    for file in ASSETS.rglob("*"):
        if file.is_file():
            r = api.get(f"/owlbear/{file.relative_to(ASSETS).as_posix()}")
            assert r.status_code == 200 and r.content, file
    assert_problem(api.get("/owlbear/no-such-file.js"), 404, "not-found")


def test_the_package_ships_every_built_file() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["service"]
    service = ROOT / "service"
    built = [f.relative_to(service).as_posix() for f in ASSETS.rglob("*") if f.is_file()]
    assert built
    for path in built:
        assert any(
            fnmatch.fnmatch(path, p) and path.count("/") == p.count("/") for p in patterns
        ), path


def test_the_owlbear_origin_may_call_the_service_by_default(api: Api) -> None:
    preflight = api.request(
        "OPTIONS",
        "/dos/test",
        headers={
            "origin": OWLBEAR,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        },
    )
    assert preflight.status_code == 200
    assert preflight.headers["access-control-allow-origin"] in ("*", OWLBEAR)
    r = api.post(
        "/dos/test", {"stat": 1, "skill": 1, "dc": 1, "seed": 1}, headers={"origin": OWLBEAR}
    )
    assert r.status_code == 200
    assert r.headers["access-control-allow-origin"] in ("*", OWLBEAR)
