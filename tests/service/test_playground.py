"""The playground page (``GET /``) and the request examples it starts from (``service.examples``).

The page itself is driven in a real browser by ``tests/browser/test_playground_browser.py``; here:
what the service serves, and that every example is a request that works.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from service.examples import EXAMPLES
from service.playground import SHARED_ASSETS
from tests.conftest import Api
from tests.properties.strategies import RESOLVING


def test_the_page_is_served_at_the_root_with_a_strict_csp(api: Api) -> None:
    page = api.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    csp = page.headers["content-security-policy"]
    assert "script-src 'self';" in csp and "style-src 'self';" in csp
    assert "connect-src 'self'" in csp and "default-src 'none'" in csp
    html = page.text
    # Nothing inline that the CSP would block, nothing from another origin.
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert not re.search(r"\sstyle=", html) and not re.search(r"\son[a-z]+=", html)
    assert not re.search(r"(src|href)=\"(https?:)?//", html)
    assert '<html lang="en">' in html and 'name="viewport"' in html


SHARED_MODULES = sorted(p.name for p in SHARED_ASSETS.glob("*.js"))


def test_head_of_the_root_is_answered(api: Api) -> None:
    assert api.request("HEAD", "/").status_code == 200


@pytest.mark.parametrize(
    ("path", "media"),
    [
        ("/static/playground/playground.js", "text/javascript"),
        ("/static/playground/playground.css", "text/css"),
        *((f"/static/shared/{name}", "text/javascript") for name in SHARED_MODULES),
        ("/static/shared/card.css", "text/css"),
        ("/static/shared/form.css", "text/css"),
    ],
)
def test_the_page_assets_are_served(api: Api, path: str, media: str) -> None:
    asset = api.get(path)
    assert asset.status_code == 200
    assert asset.headers["content-type"].startswith(media)
    # Nothing fetched from another origin (the SVG namespace is a name, not a fetch).
    text = asset.text.replace('"http://www.w3.org/2000/svg"', "")
    assert "http://" not in text and "https://" not in text


def test_a_missing_asset_is_a_404(api: Api) -> None:
    assert api.get("/static/playground/nope.js").status_code == 404


def test_every_resolver_has_an_example() -> None:
    assert set(EXAMPLES) == set(RESOLVING)  # odds and simulations carry examples of their own


@pytest.mark.parametrize("path", sorted(EXAMPLES))
def test_each_example_resolves_and_is_the_documented_answer(api: Api, path: str) -> None:
    example: dict[str, Any] = EXAMPLES[path]
    assert "seed" in example, "examples are seeded, so the documented answer is stable"
    answer = api.post(path, example)
    assert answer.status_code == 200, answer.text
    op = api.get("/openapi.json").json()["paths"][path]["post"]
    assert op["requestBody"]["content"]["application/json"]["example"] == example
    assert op["responses"]["200"]["content"]["application/json"]["example"] == answer.json()
    assert answer.json()["events"], "an example shows some narration"
