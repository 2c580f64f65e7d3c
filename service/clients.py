"""Who is asking: the client a request's heavy work is admitted for (``service.lanes``, per client): the
peer's address or, behind a trusted proxy, the first address of ``X-Forwarded-For`` from the right
that is not a trusted proxy's; an IPv6 client is its /64 (docs/operations.md, "The server").
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable

from starlette.types import Scope

#: The client of a call that comes with no address (MCP over stdio, a test's direct call): one
#: share for all of them.
ANONYMOUS = "-"
#: The longest text kept of an address that does not parse (a proxy's odd entry).
_LONGEST = 64

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(proxies: Iterable[str]) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(p.strip(), strict=False) for p in proxies if p.strip())


class Clients:
    """The client of a request, with the operator's trusted proxies."""

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self.trusted = networks(trusted)

    def of(self, scope: Scope) -> str:
        peer = scope.get("client")
        address = str(peer[0]) if peer else ANONYMOUS
        if not self.trusted or not self.is_trusted(address):
            return share(address)
        forwarded = [
            part.strip()
            for name, value in scope["headers"]
            if name == b"x-forwarded-for"
            for part in value.decode("latin-1").split(",")
        ]
        for hop in reversed(forwarded):
            if hop and not self.is_trusted(hop):
                return share(hop)
        return share(forwarded[0] if forwarded and forwarded[0] else address)

    def is_trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)


def share(address: str) -> str:
    """The key of ``address``'s share: itself, an IPv6 address's /64, a text cut short."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address[:_LONGEST]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)
