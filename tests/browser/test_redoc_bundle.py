"""ReDoc's bundle as /redoc loads it: its CDN logo replaced by a data: image, so the page's CSP refuses
nothing and no request leaves the machine (the Chromium check is tests/service/test_docs_browser.py)."""

from __future__ import annotations

from service.docs import ASSETS, LOCAL_LOGO, REDOC_JS, REDOC_LOGO, content_security_policy
from tests.conftest import Api


def test_the_redoc_bundle_shows_a_local_logo(api: Api) -> None:
    served = api.get(f"/static/docs/{REDOC_JS}")
    assert served.status_code == 200
    assert served.headers["content-type"].startswith("text/javascript")
    assert REDOC_LOGO not in served.content and LOCAL_LOGO in served.content
    assert "cdn.redoc.ly" not in served.text
    # Only the logo changed: the rest is fastapi-offline's file, byte for byte.
    original = (ASSETS / REDOC_JS).read_bytes()
    assert served.content == original.replace(REDOC_LOGO, LOCAL_LOGO)
    page = api.get("/redoc")
    assert "img-src 'self' data:" in content_security_policy(page.content)
    assert f"/static/docs/{REDOC_JS}" in page.text
