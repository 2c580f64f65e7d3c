"""Who a request's heavy work is admitted for (``service.clients``): the peer, or behind a trusted
proxy the first untrusted address of X-Forwarded-For from the right; never the caller's own words
left of it; an IPv6 host's /64 as one client."""

from __future__ import annotations

import pytest

from service.clients import ANONYMOUS, Clients, share
from service.settings import Settings


def scope(peer: str | None, *forwarded: str) -> dict[str, object]:
    return {
        "client": (peer, 5000) if peer else None,
        "headers": [(b"x-forwarded-for", value.encode()) for value in forwarded],
    }


def test_without_trusted_proxies_the_peer_is_the_client_and_the_header_ignored() -> None:
    clients = Clients()
    assert clients.of(scope("203.0.113.7", "198.51.100.1")) == "203.0.113.7"
    assert clients.of(scope(None)) == ANONYMOUS


def test_behind_a_trusted_proxy_the_last_untrusted_hop_is_the_client() -> None:
    clients = Clients(["10.0.0.0/8", "192.0.2.1"])
    # the caller wrote "1.2.3.4" itself; the ingress appended the address it saw
    assert clients.of(scope("10.1.2.3", "1.2.3.4, 203.0.113.9")) == "203.0.113.9"
    # two proxies: the edge (192.0.2.1) and the ingress (10.x), each appending
    assert clients.of(scope("10.1.2.3", "1.2.3.4, 203.0.113.9", "192.0.2.1")) == "203.0.113.9"
    # only trusted hops: the leftmost is the client; no header: the proxy itself
    assert clients.of(scope("10.1.2.3", "10.9.9.9, 192.0.2.1")) == "10.9.9.9"
    assert clients.of(scope("10.1.2.3")) == "10.1.2.3"
    # a peer that is not a trusted proxy is the client, whatever it forwards
    assert clients.of(scope("203.0.113.5", "10.0.0.1")) == "203.0.113.5"


def test_one_ipv6_host_is_one_client_and_odd_entries_are_bounded() -> None:
    assert share("2001:db8:1:2:aaaa::1") == share("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert share("::ffff:203.0.113.7") == "203.0.113.7"
    assert share("unknown" * 50) == ("unknown" * 50)[:64]
    assert Clients(["10.0.0.0/8"]).of(scope("10.0.0.2", "x" * 500)) == "x" * 64


def test_trusted_proxies_are_read_and_checked_as_a_setting() -> None:
    assert Settings(trusted_proxies="10.0.0.0/8, 192.0.2.1").trusted_proxies == (  # type: ignore[arg-type]
        "10.0.0.0/8",
        "192.0.2.1",
    )
    with pytest.raises(ValueError, match="not an IP address or network"):
        Settings(trusted_proxies="ingress.local")  # type: ignore[arg-type]
