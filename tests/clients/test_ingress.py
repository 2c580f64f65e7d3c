"""The production overlay's Ingresses: HTTPS for browser clients, routing the service as a whole (every
API path, whatever systems the registry serves) to the Service's named port, and nothing internal (a
second Ingress refuses /metrics and the probes at the edge), with annotations a default ingress-nginx
accepts: no snippet, and values its validators pass."""

from __future__ import annotations

import ipaddress
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.service.test_ops_deploy import render

ROOT = Path(__file__).resolve().parents[2]
API_PATHS = json.loads((ROOT / "openapi" / "openapi.json").read_text(encoding="utf-8"))["paths"]
PUBLIC = [
    "/",
    "/docs",
    "/redoc",
    "/openapi.json",
    "/mcp",
    "/owlbear/manifest.json",
    "/static/docs/redoc.standalone.js",
    "/foundry/module.json",
    "/foundry/dragonroll-0.1.0.zip",
]
INTERNAL = ["/metrics", "/livez", "/healthz", "/readyz"]


@pytest.fixture(scope="module")
def production() -> dict[str, dict[str, Any]]:
    return render("deploy/overlays/production")


PREFIX = "nginx.ingress.kubernetes.io/"


def ingresses(rendered: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    return [doc for key, doc in rendered.items() if key.startswith("Ingress/")]


def matching(entry: dict[str, Any], path: str) -> bool:
    """Kubernetes' matching: Exact is the whole path; Prefix is whole `/`-separated elements."""
    want = entry["path"]
    if entry["pathType"] == "Exact":
        return path == want
    return path == want or path.startswith(want.rstrip("/") + "/")


def winner(rendered: dict[str, dict[str, Any]], host: str, path: str) -> dict[str, Any] | None:
    """The Ingress whose path serves ``path`` on ``host``: of every matching path of every Ingress
    of that host (the controller merges them), the longest, and Exact before Prefix at equal length
    (the Ingress specification's precedence)."""
    found: list[tuple[int, bool, dict[str, Any]]] = []
    for ingress in ingresses(rendered):
        for rule in ingress["spec"]["rules"]:
            if rule["host"] != host:
                continue
            for entry in rule["http"]["paths"]:
                if matching(entry, path):
                    found.append((len(entry["path"]), entry["pathType"] == "Exact", ingress))
    return max(found, key=lambda f: f[:2])[2] if found else None


def public(ingress: dict[str, Any]) -> bool:
    """Whether any client on the internet may pass the Ingress's allow-list (none set: anyone)."""
    allowed = ingress["metadata"].get("annotations", {}).get(PREFIX + "allowlist-source-range")
    if allowed is None:
        return True
    return not all(ipaddress.ip_network(c.strip()).is_loopback for c in allowed.split(","))


def reachable(rendered: dict[str, dict[str, Any]], path: str) -> bool:
    (rule,) = rendered["Ingress"]["spec"]["rules"]
    ingress = winner(rendered, rule["host"], path)
    return ingress is not None and public(ingress)


def routed(rule: dict[str, Any], path: str) -> bool:
    return any(matching(entry, path) for entry in rule["http"]["paths"])


def test_the_ingress_serves_its_hosts_over_tls(production: dict[str, dict[str, Any]]) -> None:
    for ingress in ingresses(production):
        spec = ingress["spec"]
        tls_hosts = {host for entry in spec["tls"] for host in entry["hosts"]}
        assert all(entry["secretName"] for entry in spec["tls"])
        assert {rule["host"] for rule in spec["rules"]} <= tls_hosts
    annotations = production["Ingress"]["metadata"]["annotations"]
    assert annotations["cert-manager.io/cluster-issuer"]


def test_the_ingress_routes_the_api_and_not_the_internals(
    production: dict[str, dict[str, Any]],
) -> None:
    missing = [p for p in [*API_PATHS, *PUBLIC] if not reachable(production, p)]
    assert not missing, "not reachable through the Ingress"
    exposed = [p for p in INTERNAL if reachable(production, p)]
    assert not exposed, f"internal paths exposed: {exposed}"
    # and each is refused by an Ingress of its own, not merely left unrouted
    assert all(winner(production, "dragonroll.example.org", p) for p in INTERNAL)


#: The values ingress-nginx's validators accept (internal/ingress/annotations/proxy/main.go,
#: ``validUpstreamAnnotation``; ``parser.ValidateInt``): a value they refuse makes the admission
#: webhook reject the whole Ingress.
VALID = {
    "proxy-next-upstream": re.compile(
        r"^((error|timeout|invalid_header|http_500|http_502|http_503|http_504|http_403|http_404"
        r"|http_429|non_idempotent|off)\s?)+$"
    ),
    "proxy-next-upstream-tries": re.compile(r"^\d+$"),
    "proxy-connect-timeout": re.compile(r"^\d+$"),
    "proxy-read-timeout": re.compile(r"^\d+$"),
    "proxy-send-timeout": re.compile(r"^\d+$"),
}


def test_a_default_controller_accepts_the_annotations(
    production: dict[str, dict[str, Any]],
) -> None:
    """No snippet (refused unless the controller allows snippets, and then the webhook rejects the
    whole Ingress); each value one the controller's validator accepts."""
    for ingress in ingresses(production):
        annotations = ingress["metadata"].get("annotations", {})
        assert not [k for k in annotations if k.endswith("snippet")], ingress["metadata"]["name"]
        for key, value in annotations.items():
            name = key.removeprefix(PREFIX)
            if name in VALID:
                assert VALID[name].match(value), (key, value)


def test_posts_are_retried_on_another_replica(production: dict[str, dict[str, Any]]) -> None:
    """A replica lost mid-request, or draining (503), costs no request: POSTs included, since each
    answers the same bytes for its seed wherever it is retried (tests/service/test_failover.py runs
    the same retry in Debian's nginx)."""
    annotations = production["Ingress"]["metadata"]["annotations"]
    retry = annotations[PREFIX + "proxy-next-upstream"].split()
    assert {"error", "timeout", "http_502", "http_503", "non_idempotent"} <= set(retry)
    assert int(annotations[PREFIX + "proxy-next-upstream-tries"]) >= 2


def test_the_backend_is_the_services_named_port(production: dict[str, dict[str, Any]]) -> None:
    service = production["Service"]
    names = {port["name"] for port in service["spec"]["ports"]}
    for ingress in ingresses(production):
        (rule,) = ingress["spec"]["rules"]
        for entry in rule["http"]["paths"]:
            backend = entry["backend"]["service"]
            assert backend["name"] == service["metadata"]["name"]
            assert backend["port"]["name"] in names


def test_the_foundry_manifest_names_the_ingress_address(
    production: dict[str, dict[str, Any]],
) -> None:
    # Behind the Ingress uvicorn sees plain HTTP under the Service's name: the manifest's URLs come
    # from DRAGONROLL_PUBLIC_URL, the Ingress's own https address (service.foundry).
    (rule,) = production["Ingress"]["spec"]["rules"]
    (container,) = production["Deployment"]["spec"]["template"]["spec"]["containers"]
    env = {item["name"]: item.get("value") for item in container["env"]}
    assert env["DRAGONROLL_PUBLIC_URL"] == f"https://{rule['host']}"


def test_the_ingress_routes_the_service_as_a_whole(
    production: dict[str, dict[str, Any]],
) -> None:
    """One path, the whole service: a system the registry adds is routed with no line here, and
    neither the Ingress nor its snippet names a system."""
    from rules.registry import SYSTEMS

    (rule,) = production["Ingress"]["spec"]["rules"]
    assert [(e["path"], e["pathType"]) for e in rule["http"]["paths"]] == [("/", "Prefix")]
    text = (ROOT / "deploy" / "overlays" / "production" / "ingress.yaml").read_text("utf-8")
    for system in SYSTEMS:
        assert not re.search(rf"(?<![\w/]){re.escape(system.prefix)}\b", text), system.prefix
        assert routed(rule, f"{system.prefix}/anything")
