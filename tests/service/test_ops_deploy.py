"""What schema validation cannot see in Dockerfile, compose.yaml and the rendered Kubernetes overlays:
selectors that really match the pods, probe paths the app really serves, ports that agree."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from service.app import create_app
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
OVERLAYS = ["deploy/base", "deploy/overlays/production"]


def kubectl() -> str:
    found = shutil.which("kubectl") or shutil.which(
        "kubectl", path=str(Path(sys.executable).parent)
    )
    if found is None:
        pytest.skip("kubectl is missing: `make kubectl` (or .ci/run) installs it")
    return found


def render(overlay: str) -> dict[str, dict[str, Any]]:
    out = subprocess.run(
        [kubectl(), "kustomize", str(ROOT / overlay)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    docs = [doc for doc in yaml.safe_load_all(out) if doc]
    # each kind's first document by its kind, and every one by "kind/name" (two Ingresses)
    named = {f"{doc['kind']}/{doc['metadata']['name']}": doc for doc in docs}
    return {**named, **{doc["kind"]: doc for doc in reversed(docs)}}


def matches(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def env_of(container: dict[str, Any]) -> dict[str, str]:
    return {e["name"]: e["value"] for e in container.get("env", [])}


def served(paths: list[str]) -> dict[str, int]:
    """The status each path gets from the app once started (lifespan run)."""
    app = create_app(Settings())

    async def go() -> dict[str, int]:
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://k") as client:
                return {p: (await client.get(p)).status_code for p in paths}

    return asyncio.run(go())


@pytest.fixture(scope="module", params=OVERLAYS)
def rendered(request: pytest.FixtureRequest) -> dict[str, dict[str, Any]]:
    return render(request.param)


def test_every_kind_is_there(rendered: dict[str, dict[str, Any]]) -> None:
    assert {"Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"} <= set(
        rendered
    )


def test_selectors_match_the_pod_labels(rendered: dict[str, dict[str, Any]]) -> None:
    deployment = rendered["Deployment"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert matches(deployment["spec"]["selector"]["matchLabels"], labels)
    assert matches(rendered["Service"]["spec"]["selector"], labels)
    assert matches(rendered["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"], labels)
    target = rendered["HorizontalPodAutoscaler"]["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])
    for name in ("Service", "PodDisruptionBudget", "HorizontalPodAutoscaler"):
        ns = rendered[name]["metadata"].get("namespace")
        assert ns == deployment["metadata"].get("namespace"), name


def test_probe_paths_exist_in_the_app(rendered: dict[str, dict[str, Any]]) -> None:
    [container] = rendered["Deployment"]["spec"]["template"]["spec"]["containers"]
    probes = {
        kind: container[kind]["httpGet"]["path"] for kind in ("readinessProbe", "livenessProbe")
    }
    assert probes == {"readinessProbe": "/readyz", "livenessProbe": "/livez"}
    assert set(served(list(probes.values())).values()) == {200}


def test_a_slow_start_is_waited_for_not_restarted(rendered: dict[str, dict[str, Any]]) -> None:
    """A startupProbe holds the liveness probe off for 2 minutes (a start under load took 30 s);
    once started, the liveness probe needs no initial delay."""
    [container] = rendered["Deployment"]["spec"]["template"]["spec"]["containers"]
    startup = container["startupProbe"]
    assert startup["periodSeconds"] * startup["failureThreshold"] >= 120
    assert served([startup["httpGet"]["path"]]) == {startup["httpGet"]["path"]: 200}
    assert "initialDelaySeconds" not in container["livenessProbe"]


#: ingress-nginx's idle keep-alive to the pods (its ConfigMap's upstream-keepalive-timeout default).
PROXY_KEEP_ALIVE_SECONDS = 60


def test_every_setting_is_one_the_service_reads(rendered: dict[str, dict[str, Any]]) -> None:
    """Each DRAGONROLL_ variable of the pod names a setting and holds a valid value (the settings
    ignore unknown names: a typo would pass unseen), and the server keeps idle connections longer
    than the proxy in front of it."""
    [container] = rendered["Deployment"]["spec"]["template"]["spec"]["containers"]
    env = env_of(container)
    names = {k.removeprefix("DRAGONROLL_").lower(): v for k, v in env.items()}
    assert names.keys() <= Settings.model_fields.keys()
    settings = Settings(**names)  # type: ignore[arg-type]
    assert settings.keep_alive_timeout > PROXY_KEEP_ALIVE_SECONDS


def test_ports_agree(rendered: dict[str, dict[str, Any]]) -> None:
    [container] = rendered["Deployment"]["spec"]["template"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert int(env_of(container)["DRAGONROLL_PORT"]) == ports["http"]
    for probe in ("readinessProbe", "livenessProbe"):
        port = container[probe]["httpGet"]["port"]
        assert port == "http" or port == ports["http"]
    for port in rendered["Service"]["spec"]["ports"]:
        assert port["targetPort"] in (ports["http"], "http")
    annotations = rendered["Deployment"]["spec"]["template"]["metadata"].get("annotations", {})
    if "prometheus.io/port" in annotations:
        assert int(annotations["prometheus.io/port"]) == ports["http"]
        assert served([annotations["prometheus.io/path"]]) == {"/metrics": 200}
    assert f"EXPOSE {ports['http']}" in DOCKERFILE


def test_grace_period_exceeds_pre_stop_plus_uvicorn_timeout(
    rendered: dict[str, dict[str, Any]],
) -> None:
    pod = rendered["Deployment"]["spec"]["template"]["spec"]
    [container] = pod["containers"]
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pause = int(command[1])
    graceful = int(env_of(container)["DRAGONROLL_GRACEFUL_TIMEOUT"])
    assert pod["terminationGracePeriodSeconds"] > pause + graceful


def test_replicas_resources_and_security(rendered: dict[str, dict[str, Any]]) -> None:
    deployment = rendered["Deployment"]
    # the HPA owns the scale: a `replicas` in the Deployment would reset it on every apply
    assert "replicas" not in deployment["spec"]
    hpa = rendered["HorizontalPodAutoscaler"]["spec"]
    assert 2 <= hpa["minReplicas"] <= hpa["maxReplicas"]
    assert [m["resource"]["name"] for m in hpa["metrics"]] == ["cpu"]
    pdb = rendered["PodDisruptionBudget"]["spec"]
    assert pdb["minAvailable"] < hpa["minReplicas"]  # a node drain can always make progress
    pod = deployment["spec"]["template"]["spec"]
    [container] = pod["containers"]
    resources = container["resources"]
    assert {"cpu", "memory"} <= resources["requests"].keys()
    assert "memory" in resources["limits"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == DOCKER_UID
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert security["capabilities"]["drop"] == ["ALL"]


DOCKERFILE = (ROOT / "Dockerfile").read_text(encoding="utf-8")
DOCKER_UID = int(re.search(r"^USER (\d+)", DOCKERFILE, re.MULTILINE).group(1))  # type: ignore[union-attr]


def test_dockerfile_shape() -> None:
    stages = re.findall(r"^FROM (\S+)", DOCKERFILE, re.MULTILINE)
    assert len(stages) >= 2  # multi-stage
    base = re.search(r"^ARG PYTHON_IMAGE=(\S+)", DOCKERFILE, re.MULTILINE)
    assert base is not None and base.group(1).startswith(f"python:3.{sys.version_info.minor}-slim")
    lock = DOCKERFILE.index("--require-hashes")
    assert lock < DOCKERFILE.index("COPY service/")  # dependencies before the source
    assert DOCKER_UID != 0
    cmd = re.search(r"^CMD (.+)$", DOCKERFILE, re.MULTILINE)
    assert cmd is not None and json.loads(cmd.group(1)) == ["python", "-m", "service"]
    health = re.search(r"127\.0\.0\.1:%s(/\w+)", DOCKERFILE)
    assert health is not None and served([health.group(1)]) == {health.group(1): 200}
    builder = re.search(r"^ARG BUILD_IMAGE=(\S+)", DOCKERFILE, re.MULTILINE)
    assert builder is not None and builder.group(1).startswith(
        f"python:3.{sys.version_info.minor}-"
    )
    final = DOCKERFILE[DOCKERFILE.rindex("\nFROM ") :]
    # The engine is compiled in the build stage (or the build fails); the image ships only the venv.
    assert "DRAGONROLL_COMPILE=1" in DOCKERFILE[: DOCKERFILE.rindex("\nFROM ")]
    assert "COPY rules/" not in final and "COPY --from=build /opt/venv /opt/venv" in final
    assert "apt-get" not in final and "gcc" not in final and "build-essential" not in final


#: The server and its two heavy-lane workers, proportional set, busy (the soak's mix of every
#: endpoint, 30 clients of the largest roll: 152-158 MiB; docs/operations.md, "Resources").
BUSY_MIB = 158
#: The worst measured: 150 connections that never read, the cap on unread answer bytes reached (273
#: MiB; docs/operations.md, "Resources").
WORST_MIB = 273


def mib(quantity: str) -> float:
    """A Kubernetes or compose memory quantity in MiB (``256Mi``, ``384M`` as compose writes it)."""
    units = {"Ki": 1 / 1024, "Mi": 1, "Gi": 1024, "K": 1 / 1024, "M": 1, "G": 1024}
    number, unit = re.fullmatch(r"(\d+)([KMG]i?)", quantity).groups()  # type: ignore[union-attr]
    return int(number) * units[unit]


def test_memory_holds_the_busy_figure(rendered: dict[str, dict[str, Any]]) -> None:
    """The request holds the busy figure with a margin, the limit the worst with a margin, and
    compose gives its one container the pod's figures."""
    [container] = rendered["Deployment"]["spec"]["template"]["spec"]["containers"]
    resources = container["resources"]
    request, limit = mib(resources["requests"]["memory"]), mib(resources["limits"]["memory"])
    assert BUSY_MIB * 1.25 <= request < limit
    assert limit >= WORST_MIB * 1.2
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    memory = compose["services"]["dragonroll"]["deploy"]["resources"]
    assert mib(memory["reservations"]["memory"]) == request
    assert mib(memory["limits"]["memory"]) == limit


def test_compose_runs_the_image_like_the_cluster() -> None:
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text(encoding="utf-8"))
    service = compose["services"]["dragonroll"]
    assert service["read_only"] is True
    published = service["ports"][0].rsplit(":", 1)[1]
    assert int(published) == int(re.search(r"^EXPOSE (\d+)", DOCKERFILE, re.MULTILINE).group(1))  # type: ignore[union-attr]
    grace = int(service["stop_grace_period"].rstrip("s"))
    assert grace > int(service["environment"]["DRAGONROLL_GRACEFUL_TIMEOUT"])


def test_dockerignore_keeps_tests_and_venv_out() -> None:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    assert lines[lines.index("*")] == "*"  # an allow-list
    assert {"!rules/", "!service/", "!requirements/runtime.txt"} <= set(lines)
