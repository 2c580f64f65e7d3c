"""The one exception the client raises for an answer that is not 2xx."""

from __future__ import annotations

from typing import Any

import httpx


class DragonrollError(Exception):
    """A problem+json answer (RFC 9457): ``status``, ``type``, ``title``, ``detail``, ``errors``
    (each ``{"loc": [...], "msg": ..., "type": ...}``), ``request_id``, and the whole ``problem``."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        self.type: str = str(problem.get("type", "about:blank"))
        self.title: str = str(problem.get("title", ""))
        self.detail: str = str(problem.get("detail", ""))
        self.errors: list[dict[str, Any]] = list(problem.get("errors") or [])
        self.request_id: str | None = problem.get("request_id")
        super().__init__(f"{status} {self.title}: {self.detail}")

    @classmethod
    def from_response(cls, response: httpx.Response) -> DragonrollError:
        """The error for a non-2xx answer; a body that is not a problem object (a proxy's HTML page,
        say) becomes one with the status's reason as its title."""
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            body = {"title": response.reason_phrase, "detail": response.text[:500]}
        if not body.get("request_id"):
            body["request_id"] = response.headers.get("x-request-id")
        return cls(response.status_code, body)
