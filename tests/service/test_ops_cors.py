"""CORS (``service.middleware.cors``): preflights from a self-hosted Foundry, Chrome's private
network access, the allow list."""

from __future__ import annotations

from tests.conftest import Api
from tests.service.ops import CHROME_PNA_PREFLIGHT, FOUNDRY, ROLL, _vary


def test_preflight_from_a_self_hosted_foundry(api: Api) -> None:
    r = api.request(
        "OPTIONS",
        "/dos/roll",
        headers={
            "Origin": FOUNDRY,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type,x-request-id",
        },
    )
    assert r.status_code == 200, r.text
    assert r.headers["access-control-allow-origin"] == "*"
    assert "access-control-allow-credentials" not in r.headers
    methods = {m.strip() for m in r.headers["access-control-allow-methods"].split(",")}
    assert methods == {"GET", "POST", "OPTIONS"}
    allowed = r.headers["access-control-allow-headers"].lower()
    assert "content-type" in allowed and "x-request-id" in allowed
    assert int(r.headers["access-control-max-age"]) >= 600
    assert r.headers["x-request-id"]


def test_chromes_private_network_preflight_is_allowed(api: Api) -> None:
    r = api.request("OPTIONS", "/dos/test", headers=CHROME_PNA_PREFLIGHT)
    assert r.status_code == 200, r.text
    assert r.headers["access-control-allow-private-network"] == "true"
    assert r.headers["access-control-allow-origin"] == "*"
    assert "accept-language" in r.headers["access-control-allow-headers"].lower()
    # The POST that follows is an ordinary cross-origin request.
    post = api.post("/dos/roll", ROLL, headers={"Origin": CHROME_PNA_PREFLIGHT["Origin"]})
    assert post.status_code == 200
    assert post.headers["access-control-allow-origin"] == "*"


def test_private_network_preflights_can_be_turned_off() -> None:
    api = Api(cors_private_network=False)
    r = api.request("OPTIONS", "/dos/test", headers=CHROME_PNA_PREFLIGHT)
    assert r.status_code == 400
    assert "access-control-allow-private-network" not in r.headers
    plain = {k: v for k, v in CHROME_PNA_PREFLIGHT.items() if "Private" not in k}
    assert api.request("OPTIONS", "/dos/test", headers=plain).status_code == 200


def test_private_network_preflight_from_an_origin_not_allowed() -> None:
    api = Api(cors_origins="https://vtt.example.org")
    r = api.request("OPTIONS", "/dos/test", headers=CHROME_PNA_PREFLIGHT)
    assert r.status_code == 400
    assert "access-control-allow-origin" not in r.headers


def test_cors_allow_list() -> None:
    api = Api(cors_origins="https://vtt.example.org, http://localhost:30000")
    preflight = {"Access-Control-Request-Method": "POST"}
    ok = api.request("OPTIONS", "/dos/roll", headers={"Origin": FOUNDRY, **preflight})
    assert ok.status_code == 200
    assert ok.headers["access-control-allow-origin"] == FOUNDRY
    bad = api.request(
        "OPTIONS", "/dos/roll", headers={"Origin": "https://evil.example", **preflight}
    )
    assert bad.status_code == 400
    assert "access-control-allow-origin" not in bad.headers
    simple = api.post("/dos/roll", ROLL, headers={"Origin": "https://evil.example"})
    assert "access-control-allow-origin" not in simple.headers
    # the answer depends on the Origin (and on the language), so caches are told on every
    # response, once each
    assert _vary(api.post("/dos/roll", ROLL)) == ["Accept-Language", "Origin"]
    allowed = api.post("/dos/roll", ROLL, headers={"Origin": FOUNDRY})
    assert _vary(allowed) == ["Accept-Language", "Origin"]
    assert allowed.headers["access-control-allow-origin"] == FOUNDRY
