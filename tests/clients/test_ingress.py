"""The production overlay's Ingress: HTTPS for browser clients, routing every API path (and nothing
internal) to the Service's named port."""

from __future__ import annotations

import json
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
    (rule,) = production["Ingress"]["spec"]["rules"]
    missing = [p for p in [*API_PATHS, *PUBLIC] if not routed(rule, p)]
    assert not missing, f"not reachable through the Ingress: {missing}"
    exposed = [p for p in INTERNAL if routed(rule, p)]
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


def test_the_ingress_routes_each_system_of_the_registry_and_no_other(
    production: dict[str, dict[str, Any]],
) -> None:
    """The ingress names the systems by hand: it routes exactly the registry's prefixes."""
    from rules.registry import SYSTEMS

    (rule,) = production["Ingress"]["spec"]["rules"]
    prefixes = {e["path"] for e in rule["http"]["paths"] if e["pathType"] == "Prefix"}
    systems = {s.prefix for s in SYSTEMS}
    assert prefixes - {"/docs", "/static", "/foundry", "/owlbear"} == systems, (
        "deploy/overlays/production/ingress.yaml"
    )
    assert routed(rule, "/systems")
