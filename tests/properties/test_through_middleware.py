"""Resolver POSTs go through every middleware, whenever that middleware is added."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from tests.conftest import Api


class Recorder:
    """A pure ASGI middleware that records the paths it saw and the route the request reached."""

    seen: list[tuple[str, str | None]]

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        Recorder.seen = []

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
        if scope["type"] == "http":
            route = scope.get("route")
            Recorder.seen.append((scope["path"], getattr(route, "path", None)))


def test_middleware_added_later_still_sees_resolver_requests() -> None:
    api = Api()
    api.app.add_middleware(Recorder)
    assert api.post("/dos/roll", {"pool": 2, "seed": 1}).status_code == 200
    assert api.post("/dos/roll", {"pool": "x"}).status_code == 422
    assert api.get("/openapi.json").status_code == 200
    assert Recorder.seen[:2] == [("/dos/roll", "/dos/roll"), ("/dos/roll", "/dos/roll")]
    assert [path for path, _ in Recorder.seen[2:]] == ["/openapi.json"]


def test_other_methods_and_paths_go_to_the_router(api: Api) -> None:
    r = api.get("/dos/roll")
    assert r.status_code == 405 and r.headers["allow"] == "POST"
    assert api.post("/dos/roll/", {"pool": 1}).status_code == 404  # no redirect: issue 25
    assert api.post("/dos/nothing", {"pool": 1}).status_code == 404
