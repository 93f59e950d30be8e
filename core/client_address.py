"""The address of the client a request comes from, for login throttling and the /metrics
guard.

``REMOTE_ADDR`` is the peer that connected to this process. Behind a proxy that is the
proxy, for every user, so a throttle keyed on it locks everyone out at once. The address a
proxy forwards (``X-Forwarded-For``) is taken only when it is configured, and only from a
peer that is a trusted proxy — a client cannot claim another address by sending the
header itself:

- ``ENGRAM_CLIENT_ADDRESS_HEADER``: the header the proxy sets, e.g. ``X-Forwarded-For``
  (empty, the default: ``REMOTE_ADDR`` only);
- ``ENGRAM_TRUSTED_PROXIES``: the proxies' networks (CIDRs); ``unix`` stands for a peer on
  a Unix socket (``./dev run``'s front door, ``core/frontdoor.py``).

The header's list is read from the right: each hop a trusted proxy appended is skipped,
and the first address that is not a trusted proxy is the client.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.http import HttpRequest

from core.process_state import memoized

UNIX_PEER = "unix"


@memoized("core.client_address._networks", maxsize=8)
def _networks(
    proxies: tuple[str, ...],
) -> tuple[tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...], bool]:
    networks = tuple(ipaddress.ip_network(p, strict=False) for p in proxies if p and p != UNIX_PEER)
    return networks, UNIX_PEER in proxies


def _is_trusted(address: str, proxies: tuple[str, ...]) -> bool:
    networks, unix = _networks(proxies)
    if address in ("", UNIX_PEER):
        return unix  # a Unix-socket peer has no address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in networks)


def _valid(address: str) -> str | None:
    try:
        return str(ipaddress.ip_address(address.strip().strip("[]")))
    except ValueError:
        return None


def client_address(request: HttpRequest) -> str | None:
    """The client's IP address as text, or None if there is none to believe."""
    remote = request.META.get("REMOTE_ADDR", "") or ""
    conf = settings.ENGRAM
    header = conf.get("CLIENT_ADDRESS_HEADER", "")
    proxies = tuple(conf.get("TRUSTED_PROXIES", ()))
    if not header or not _is_trusted(remote, proxies):
        return _valid(remote)
    meta_key = "HTTP_" + header.upper().replace("-", "_")
    hops = [h.strip() for h in request.META.get(meta_key, "").split(",") if h.strip()]
    for hop in reversed(hops):
        address = _valid(hop)
        if address is None:
            return None  # a malformed hop: nothing to its left can be believed
        if not _is_trusted(address, proxies):
            return address
    return _valid(hops[0]) if hops else _valid(remote)
