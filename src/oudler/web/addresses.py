"""Where the web table is reached (issue 28): its public address, the origins its pages may open
the live socket from, and the machine's network addresses to share invitation links on.

``oudler serve --public-url https://tarot.example`` (or ``OUDLER_PUBLIC_URL``) names the address
people use, e.g. behind a proxy: invitation links are built on it and the live socket accepts
pages of that origin only. Without it the server answers at whatever address it was reached by,
and a page is trusted when its origin is the request's own (scheme and host) and that host is
an IP address, ``localhost`` or one of this machine's names: a ``Host`` header naming any other
site (a DNS name rebound to this machine) is not enough.
"""

from __future__ import annotations

import functools
import ipaddress
import socket
from typing import NamedTuple
from urllib.parse import urlsplit

DEFAULT_PORTS = {"http": 80, "https": 443}
# Destinations that are never contacted: connecting a UDP socket only picks the local address
# (and interface) that the machine would send from.
_PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))


class Origin(NamedTuple):
    scheme: str
    host: str  # lower case; an IPv6 address without its brackets
    port: int

    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        port = "" if DEFAULT_PORTS.get(self.scheme) == self.port else f":{self.port}"
        return f"{self.scheme}://{host}{port}"


def origin_of(url: str) -> Origin | None:
    """The scheme, host and port of an http(s) URL (a browser's ``Origin``); None if it is not
    one (``null``, another scheme, no host, a bad port)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return Origin(scheme, parts.hostname.lower(), port or DEFAULT_PORTS[scheme])


def public_url(text: str) -> str:
    """``--public-url`` checked and normalized to its origin (``https://host[:port]``). Raises
    ValueError, saying why, for anything else (a path, a query, another scheme)."""
    origin = origin_of(text)
    parts = urlsplit(text.strip())
    if origin is None:
        raise ValueError(f"the public URL must be http:// or https:// and a host, not {text!r}")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise ValueError(
            f"the public URL is the site's address only, e.g. https://tarot.example, not {text!r}"
        )
    return origin.url()


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        return None


def this_machine_only(host: str) -> bool:
    """Whether a link to ``host`` opens on this machine only: ``localhost``, a loopback address,
    or the "all addresses" one a server binds to (``0.0.0.0``), which no other machine opens."""
    ip = _ip(host)
    if ip is not None:
        return ip.is_loopback or ip.is_unspecified
    return host == "localhost" or host.endswith(".localhost")


def loopback(host: str) -> bool:
    """Whether browsers trust ``host`` over plain HTTP as they trust HTTPS (``localhost``, a
    loopback address): elsewhere they ignore, and report, some headers (Cross-Origin-Opener-
    Policy)."""
    ip = _ip(host)
    return ip.is_loopback if ip is not None else host == "localhost" or host.endswith(".localhost")


def all_addresses(host: str) -> bool:
    """Whether a server bound to ``host`` listens on every address of the machine."""
    ip = _ip(host)
    return host == "" or (ip is not None and ip.is_unspecified)


@functools.cache
def machine_names() -> frozenset[str]:
    name = socket.gethostname().lower()
    return frozenset({"localhost", name, f"{name}.local"})


def trusted_host(host: str) -> bool:
    """Whether a page's host may be trusted without a public URL: an IP address (no DNS name to
    rebind), or a name of this machine."""
    return _ip(host) is not None or host.endswith(".localhost") or host in machine_names()


def shared_addresses(listen_host: str | None) -> list[str]:
    """The addresses to share for a server listening on ``listen_host``: the machine's network
    addresses when it listens on all of them (IPv4 ones for ``0.0.0.0``, every one for ``::``),
    that address when it is one of them; none when it listens on this machine only."""
    if listen_host is None:
        return []
    if all_addresses(listen_host):
        ipv4_only = listen_host == "0.0.0.0"
        return [a for a in network_addresses() if not (ipv4_only and ":" in a)]
    return [] if this_machine_only(listen_host) else [listen_host]


def network_addresses() -> list[str]:
    """This machine's addresses that other machines may reach it at (IPv4 first): the ones it
    sends from, and those its name resolves to; no loopback, no link-local ones."""
    found: list[str] = []
    for family, probe in _PROBES:
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                found.append(str(s.getsockname()[0]))
        except OSError:  # no route of that family
            continue
    try:
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None):
            found.append(str(sockaddr[0]))
    except OSError:
        pass
    shareable = []
    for text in dict.fromkeys(found):
        ip = _ip(text.split("%", 1)[0])
        if ip is not None and not (ip.is_loopback or ip.is_link_local or ip.is_unspecified):
            shareable.append(ip)
    shareable.sort(key=lambda ip: ip.version)
    return [str(ip) for ip in shareable]
