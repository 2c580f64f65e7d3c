"""A typed client for dragonroll: ``Client`` (sync) and ``AsyncClient`` on httpx, one method per
endpoint, request and answer types as ``TypedDict``s generated from the service's OpenAPI document,
and ``DragonrollError`` for every problem+json answer."""

from dragonroll_client._errors import DragonrollError
from dragonroll_client._generated import OPERATIONS, AsyncClient, Client

__all__ = ["OPERATIONS", "AsyncClient", "Client", "DragonrollError"]
