"""Issue 28: the service hosts its Owlbear Rodeo extension at /owlbear/ (manifest, popover, icon),
ships the built files in its package, and lets the Owlbear origin call it by default (CORS)."""

from __future__ import annotations

import fnmatch
import re
import struct
import tomllib
from pathlib import Path
from urllib.parse import urlsplit

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
    # Every address absolute, the service's own (the store lists icons by absolute URL).
    for url in (manifest["icon"], action["icon"], action["popover"]):
        assert url.startswith("http://testserver/owlbear/"), url
        assert api.get(url).status_code == 200, url
    assert api.get(action["icon"]).headers["content-type"] == "image/svg+xml"
    assert "Host" in r.headers["vary"]


def test_the_addresses_follow_the_host_or_the_public_url(api: Api) -> None:
    lan = api.get("/owlbear/manifest.json", headers={"host": "192.168.1.20:8000"}).json()
    assert lan["icon"] == "http://192.168.1.20:8000/owlbear/icon.svg"
    assert lan["action"]["popover"] == "http://192.168.1.20:8000/owlbear/index.html"
    assert_problem(api.get("/owlbear/manifest.json", headers={"host": "a/b?c"}), 400)
    assert_problem(api.get("/owlbear/store.md", headers={"host": "a b"}), 400)
    public = Api(log_level="warning", public_url="https://dice.example.org/")
    fixed = public.get("/owlbear/manifest.json", headers={"host": "attacker.example"})
    assert fixed.json()["action"]["icon"] == "https://dice.example.org/owlbear/icon.svg"
    assert "Host" not in fixed.headers.get("vary", "")


#: What Owlbear Rodeo's extension store requires of a listing's front matter, as its public docs
#: state it (docs.owlbear.rodeo, "Sharing your extension": title, description, author, an absolute
#: link to a hero image and to the icon, tags from its list, the manifest, a link or an email to
#: learn more).
STORE_TAGS = {
    "dice",
    "fog",
    "tool",
    "content-pack",
    "drawing",
    "audio",
    "combat",
    "automation",
    "other",
}


def test_the_store_listing_meets_the_store_s_requirements(api: Api) -> None:
    import yaml  # mkdocs's dependency, in the dev lock

    r = api.get("/owlbear/store.md", headers={"host": "dice.example.org"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/markdown")
    _, front, body = r.text.split("---\n", 2)
    listing = yaml.safe_load(front)
    assert set(listing) == {
        "title",
        "description",
        "author",
        "image",
        "icon",
        "tags",
        "manifest",
        "learn-more",
    }
    for key in ("title", "description", "author"):
        assert isinstance(listing[key], str) and listing[key]
    for key in ("image", "icon", "manifest", "learn-more"):
        assert (
            urlsplit(listing[key]).scheme == "http"
            and urlsplit(listing[key]).netloc == "dice.example.org"
        ), key
    assert listing["tags"] and set(listing["tags"]) <= STORE_TAGS
    manifest = api.get("/owlbear/manifest.json", headers={"host": "dice.example.org"}).json()
    assert listing["icon"] == manifest["icon"] and listing["title"] == manifest["name"]
    assert listing["manifest"] == "http://dice.example.org/owlbear/manifest.json"
    hero = api.get(urlsplit(listing["image"]).path)
    assert hero.status_code == 200 and hero.headers["content-type"] == "image/png"
    # A PNG's size is in its IHDR chunk: 1280 x 720, a wide hero.
    assert hero.content[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", hero.content[16:24])
    assert (width, height) == (1280, 720)
    assert body.strip().startswith("# dragonroll")


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
