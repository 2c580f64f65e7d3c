"""FastAPI's native OpenTelemetry hook: off unless DRAGONROLL_OTEL turns it on."""

from __future__ import annotations

import pytest

from service.app import create_app
from service.settings import Settings


def test_native_telemetry_is_off_by_default() -> None:
    app = create_app(Settings())
    config = app._native_telemetry.config
    assert (config["tracing"], config["metrics"], config["logs"]) == (False, False, False)
    assert app._native_telemetry.enabled() is False


def test_native_telemetry_can_be_turned_on(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DRAGONROLL_OTEL", "true")
    config = create_app(Settings())._native_telemetry.config
    assert (config["tracing"], config["metrics"], config["logs"]) == (True, True, True)
