"""``/favicon.ico`` answers with a small icon (issue 36): a browser's first request is no 404."""

from __future__ import annotations

from tests.conftest import Api


def test_the_favicon_is_a_small_icon(api: Api) -> None:
    r = api.get("/favicon.ico")
    assert r.status_code == 200
    assert r.headers["content-type"] == "image/x-icon"
    assert r.content[:4] == b"\x00\x00\x01\x00"  # an ICO file's header: reserved 0, type 1 (icon)
    assert 0 < len(r.content) <= 4096
    assert "max-age" in r.headers["cache-control"]
    assert api.request("HEAD", "/favicon.ico").status_code == 200
