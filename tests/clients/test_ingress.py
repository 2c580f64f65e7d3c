"""The production overlay's Ingress: HTTPS for browser clients, routing the service as a whole (every
API path, whatever systems the registry serves) to the Service's named port, and nothing internal."""

from __future__ import annotations

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


def refused(ingress: dict[str, Any], path: str) -> bool:
    """The server snippet answers ``path`` itself with a 404 (``location = <path> { return 404; }``)."""
    snippet = ingress["metadata"]["annotations"].get(
        "nginx.ingress.kubernetes.io/server-snippet", ""
    )
    return re.search(rf"location = {re.escape(path)} \{{ return 404; \}}", snippet) is not None


def routed(rule: dict[str, Any], path: str) -> bool:
    """Kubernetes' matching: Exact is the whole path; Prefix is whole `/`-separated elements."""
    for entry in rule["http"]["paths"]:
        want = entry["path"]
        if entry["pathType"] == "Exact" and path == want:
            return True
        if entry["pathType"] == "Prefix" and (
            path == want or path.startswith(want.rstrip("/") + "/")
        ):
            return True
    return False


def test_the_ingress_serves_its_hosts_over_tls(production: dict[str, dict[str, Any]]) -> None:
    spec = production["Ingress"]["spec"]
    tls_hosts = {host for entry in spec["tls"] for host in entry["hosts"]}
    assert all(entry["secretName"] for entry in spec["tls"])
    assert {rule["host"] for rule in spec["rules"]} <= tls_hosts
    annotations = production["Ingress"]["metadata"]["annotations"]
    assert annotations["cert-manager.io/cluster-issuer"]


def test_the_ingress_routes_the_api_and_not_the_internals(
    production: dict[str, dict[str, Any]],
) -> None:
    ingress = production["Ingress"]
    (rule,) = ingress["spec"]["rules"]
    reachable = [p for p in [*API_PATHS, *PUBLIC] if routed(rule, p) and not refused(ingress, p)]
    assert reachable == [*API_PATHS, *PUBLIC], "not reachable through the Ingress"
    exposed = [p for p in INTERNAL if routed(rule, p) and not refused(ingress, p)]
    assert not exposed, f"internal paths exposed: {exposed}"


def test_the_backend_is_the_services_named_port(production: dict[str, dict[str, Any]]) -> None:
    service = production["Service"]
    names = {port["name"] for port in service["spec"]["ports"]}
    (rule,) = production["Ingress"]["spec"]["rules"]
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
