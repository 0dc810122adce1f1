"""The real client address behind trusted reverse proxies (issue 27).

Login throttling counts failed logins per client address (:mod:`croupier.progressive.login`),
and every failed login is a significant event naming it. Behind a reverse proxy every request
comes from the proxy: without the forwarded address, the whole pit would share one address.
Forwarded headers are trusted only from the proxies the operator names, and only as far as the
chain of trusted proxies goes:

* ``$CROUPIER_TRUSTED_PROXIES`` (``croupier serve --trusted-proxy CIDR``, repeatable): the
  addresses and networks (``10.0.0.5``, ``10.1.0.0/16``, ``::1``) of the proxies in front of the
  service. None by default: no forwarded header is read, the peer is the client.
* ``$CROUPIER_FORWARDED_HEADER`` (``--forwarded-header``): the one header the proxies write,
  ``x-forwarded-for`` (the default: nginx, HAProxy, Traefik, cloud load balancers) or
  ``forwarded`` (RFC 7239, its ``for=`` parameters). Only one is read: a proxy that writes one
  passes the other on as the client sent it, so reading both would let a client choose its own
  address.

The client is the peer when the peer is not a trusted proxy — whatever it sent in any header.
When it is, the header's addresses are walked from the right (each proxy appends the address it
received the request from): the first that is not a trusted proxy is the client. When every
entry is a trusted proxy, the left-most is the client. A client that writes the header itself
adds entries to the *left* of what the proxies append: it can neither escape its own address
nor take another's.

Every entry the walk reaches was written by a trusted proxy (the one it reached last, ``via``
below). One that is no address is the client too, in a bucket of its own — never the proxy's
own address, which would put every client of a misconfigured proxy in one pacing bucket:

* an **obfuscated identifier** (RFC 7239 § 6.3: ``_`` and letters, digits, ``.``, ``_``,
  ``-``; a port dropped) is the client ``"_gazonk via 10.0.0.2"``: the proxy's name for one
  client, meaningful only to that proxy;
* ``unknown`` (RFC 7239 § 6.2: the proxy does not know, or will not say), or a ``Forwarded``
  element without ``for=``, is ``"unknown via 10.0.0.2"``: the clients that proxy does not
  name share a bucket;
* anything else (``garbage``) is ``"unreadable via 10.0.0.2"`` — a bucket of its own, so a
  client that writes junk cannot escape its count by varying it — and a configuration problem,
  logged as a warning (once per proxy address and process): the proxy passes on a header it
  should append to, or writes another format.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from starlette.requests import Request

from croupier.errors import InputError

ENV_TRUSTED_PROXIES = "CROUPIER_TRUSTED_PROXIES"
ENV_FORWARDED_HEADER = "CROUPIER_FORWARDED_HEADER"
HEADERS = ("x-forwarded-for", "forwarded")
MAX_HOPS = 64
"""The right-most entries of a forwarded header that are looked at (a chain of proxies is
short; what a client wrote to the left of it is never needed)."""

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Header = Literal["x-forwarded-for", "forwarded"]


def parse_address(text: str) -> Address | None:
    """An IP address as a forwarded header or a peer gives it (``192.0.2.1``, ``192.0.2.1:80``,
    ``2001:db8::1``, ``[2001:db8::1]:80``, an IPv4-mapped IPv6 address as its IPv4 one);
    ``None`` for anything else."""
    text = text.strip().strip('"').strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def parse_networks(text: str, source: str = f"${ENV_TRUSTED_PROXIES}") -> tuple[Network, ...]:
    """The networks of a comma- or space-separated list of addresses and CIDRs;
    :class:`~croupier.errors.InputError` naming ``source`` and the entry for one that is
    neither."""
    networks: list[Network] = []
    for item in text.replace(",", " ").split():
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise InputError(
                f"{source} lists the addresses or networks (CIDR: 10.0.0.0/8, ::1) of trusted "
                f"proxies; {item[:60]!r} is neither"
            ) from None
    return tuple(networks)


def parse_header(text: str, source: str = f"${ENV_FORWARDED_HEADER}") -> Header:
    """The forwarded header ``text`` names (``x-forwarded-for`` when empty; any case);
    :class:`~croupier.errors.InputError` naming ``source`` (an option, a variable) for another
    one."""
    header = text.strip().lower() or "x-forwarded-for"
    if header == "forwarded":
        return "forwarded"
    if header != "x-forwarded-for":
        raise InputError(
            f"{source} is x-forwarded-for or forwarded (RFC 7239), not {text.strip()[:40]!r}"
        )
    return "x-forwarded-for"


Hop = Address | tuple[Literal["obfuscated", "unknown", "unreadable"], str]
"""An entry of a forwarded header: an address, or what it is when it is none (and its text)."""
_OBFUSCATED = re.compile(r"_[A-Za-z0-9._-]{1,64}")
_WARNED: set[str] = set()
log = logging.getLogger(__name__)


def parse_hop(text: str) -> Hop:
    """One entry of a forwarded header (``X-Forwarded-For``'s, or a ``for=`` value): an
    address (:func:`parse_address`), else ``("obfuscated", "_token")``, ``("unknown", "")`` or
    ``("unreadable", text)`` (see the module docstring)."""
    address = parse_address(text)
    if address is not None:
        return address
    node = text.strip().strip('"').strip()
    name = node.split(":", 1)[0]
    if _OBFUSCATED.fullmatch(name):
        return ("obfuscated", name)
    if name.lower() == "unknown":
        return ("unknown", "")
    return ("unreadable", node[:60])


def _xff(values: Sequence[str]) -> list[Hop]:
    return [parse_hop(v) for line in values for v in line.split(",")]


def _forwarded(values: Sequence[str]) -> list[Hop]:
    """RFC 7239's ``for=`` of each element (``unknown`` for an element without one)."""
    found: list[Hop] = []
    for line in values:
        for element in line.split(","):
            node: Hop = ("unknown", "")
            for pair in element.split(";"):
                key, _, value = pair.partition("=")
                if key.strip().lower() == "for":
                    node = parse_hop(value)
            found.append(node)
    return found


def _labelled(hop: tuple[str, str], via: Address, header: str) -> str:
    """The client an entry that is no address stands for, written by the trusted proxy
    ``via``; an unreadable one logged (once per proxy and process)."""
    kind, text = hop
    if kind == "obfuscated":
        return f"{text} via {via}"
    if kind == "unknown":
        return f"unknown via {via}"
    if str(via) not in _WARNED and len(_WARNED) < 1_000:
        _WARNED.add(str(via))
        log.warning(
            "the trusted proxy %s wrote %r in %s, which is no address, obfuscated identifier "
            "or 'unknown' (RFC 7239 § 6): its clients' failed logins are counted together as "
            "'unreadable via %s'; check that it appends the address it received each request "
            "from",
            via,
            text,
            header,
            via,
        )
    return f"unreadable via {via}"


@dataclass(frozen=True)
class TrustedProxies:
    """The proxies whose forwarded header is believed, and which header they write."""

    networks: tuple[Network, ...] = ()
    header: Header = "x-forwarded-for"

    @classmethod
    def from_env(cls) -> TrustedProxies:
        """From ``$CROUPIER_TRUSTED_PROXIES`` and ``$CROUPIER_FORWARDED_HEADER``;
        :class:`~croupier.errors.InputError` for an entry that is no address or network, or a
        header other than ``x-forwarded-for`` and ``forwarded``."""
        header = parse_header(os.environ.get(ENV_FORWARDED_HEADER, ""))
        networks = parse_networks(os.environ.get(ENV_TRUSTED_PROXIES, ""))
        return cls(networks, header)

    def trusts(self, address: Address | None) -> bool:
        """Whether ``address`` is one of the trusted proxies'."""
        return address is not None and any(address in n for n in self.networks)

    def client(self, peer: str | None, headers: Sequence[str]) -> str | None:
        """The client address of a request from ``peer`` carrying the values ``headers`` of
        :attr:`header` (see the module docstring); ``peer`` as given when it is no IP
        address."""
        at = parse_address(peer) if peer is not None else None
        if at is None:
            return peer
        if not self.trusts(at) or not headers:
            return str(at)
        hops = _forwarded(headers) if self.header == "forwarded" else _xff(headers)
        for hop in reversed(hops[-MAX_HOPS:]):
            if isinstance(hop, tuple):
                return _labelled(hop, at, self.header)
            if not self.trusts(hop):
                return str(hop)
            at = hop
        return str(at)

    def of(self, request: Request) -> str | None:
        """:meth:`client` of a Starlette request."""
        peer = request.client.host if request.client is not None else None
        return self.client(peer, request.headers.getlist(self.header) if self.networks else ())


def client_address(request: Request) -> str | None:
    """The client address of ``request`` by the service's trusted proxies
    (``app.state.config.trusted_proxies``; none: the peer)."""
    config = getattr(request.app.state, "config", None)
    proxies = getattr(config, "trusted_proxies", None)
    if not isinstance(proxies, TrustedProxies):
        proxies = TrustedProxies()
    return proxies.of(request)


__all__ = [
    "ENV_FORWARDED_HEADER",
    "ENV_TRUSTED_PROXIES",
    "TrustedProxies",
    "client_address",
    "parse_address",
    "parse_header",
    "parse_hop",
    "parse_networks",
]
