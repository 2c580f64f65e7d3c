"""The hand-kept part of the clients: one httpx client each, JSON in, JSON or DragonrollError out.

The endpoint methods are generated (``_generated.py``) on top of these two classes.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import TracebackType
from typing import Any, Self

import httpx

from dragonroll_client._errors import DragonrollError

DEFAULT_URL = "http://127.0.0.1:8000"


def _decode(response: httpx.Response) -> Any:
    if response.is_success:
        return response.json()
    raise DragonrollError.from_response(response)


class SyncTransport:
    """``Client(base_url, timeout=..., headers=...)``; use it as a context manager or ``close()`` it.
    ``headers`` go with every request (``Accept-Language: pl``, say); ``transport`` is httpx's."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        timeout: float = 10.0,
        headers: Mapping[str, str] | None = None,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._http = httpx.Client(
            base_url=base_url, timeout=timeout, headers=headers, transport=transport
        )

    def _post(self, path: str, body: Mapping[str, Any], headers: Mapping[str, str] | None) -> Any:
        return _decode(self._http.post(path, json=body, headers=headers))

    def _get(self, path: str, headers: Mapping[str, str] | None) -> Any:
        return _decode(self._http.get(path, headers=headers))

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class AsyncTransport:
    """``AsyncClient(base_url, ...)``: the same as ``Client``, awaited; ``async with`` or ``aclose()``."""

    def __init__(
        self,
        base_url: str = DEFAULT_URL,
        *,
        timeout: float = 10.0,
        headers: Mapping[str, str] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self._http = httpx.AsyncClient(
            base_url=base_url, timeout=timeout, headers=headers, transport=transport
        )

    async def _post(
        self, path: str, body: Mapping[str, Any], headers: Mapping[str, str] | None
    ) -> Any:
        return _decode(await self._http.post(path, json=body, headers=headers))

    async def _get(self, path: str, headers: Mapping[str, str] | None) -> Any:
        return _decode(await self._http.get(path, headers=headers))

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
