"""Where an action may connect: public addresses, and private ones only when an operator admits them.

A flow's author chooses URLs, so an http node pointed at `http://169.254.169.254/` or at the database's
port would read what only the server should reach. The host is resolved first and every address it
resolves to is checked (one private address among public ones is enough to refuse: the connection could
land on any of them); the connection then goes to a checked address, never to a second resolution, so a
DNS answer that changes between check and connect (rebinding) gains nothing.

Examples:
    >>> forbidden(ipaddress.ip_address("169.254.169.254")), forbidden(ipaddress.ip_address("8.8.8.8"))
    (True, False)
    >>> forbidden(ipaddress.ip_address("::ffff:10.0.0.1")), forbidden(ipaddress.ip_address("0.0.0.0"))
    (True, True)
    >>> allow = AllowList.parse("10.0.0.0/8,Intranet.Local")
    >>> ip = ipaddress.ip_address
    >>> allow.admits("intranet.local", ip("192.168.1.1")), allow.admits("x", ip("10.1.1.1"))
    (True, True)
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from backend.actions.failures import ActionFailure

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
_HOST = re.compile(r"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.?$")
# A resolver gives every address of a host; tests inject one to play DNS without a DNS server.
Resolver = Callable[[str, int], Awaitable[list[IPAddress]]]


def forbidden(address: IPAddress) -> bool:
    """Whether an address is loopback, private, link-local (metadata), multicast, reserved or unspecified.

    IPv6 forms that carry an IPv4 address (mapped, 6to4, Teredo) are judged by the address they carry.
    """
    if isinstance(address, ipaddress.IPv6Address):
        carried = address.ipv4_mapped or address.sixtofour or (address.teredo or (None, None))[1]
        if carried is not None and forbidden(carried):
            return True
    return (
        not address.is_global
        or address.is_multicast
        or address.is_reserved
        or address.is_link_local
        or address.is_unspecified
    )


@dataclass(frozen=True, slots=True)
class AllowList:
    """The operator's exceptions: networks, and host names admitted whatever they resolve to."""

    networks: tuple[IPNetwork, ...] = ()
    hosts: frozenset[str] = field(default_factory=frozenset)

    @classmethod
    def parse(cls, text: str) -> AllowList:
        networks: list[IPNetwork] = []
        hosts: set[str] = set()
        for entry in (part.strip() for part in text.split(",")):
            if not entry:
                continue
            try:
                networks.append(ipaddress.ip_network(entry, strict=False))
            except ValueError:
                if not _HOST.match(entry):
                    raise ValueError(f"{entry!r} is neither a network nor a host name") from None
                hosts.add(entry.lower().rstrip("."))
        return cls(tuple(networks), frozenset(hosts))

    def admits(self, host: str, address: IPAddress) -> bool:
        if host.lower().rstrip(".") in self.hosts:
            return True
        return any(address in network for network in self.networks)


async def system_resolver(host: str, port: int) -> list[IPAddress]:
    """Every address of `host`, in the order the system prefers; getaddrinfo runs in a thread."""
    loop = asyncio.get_running_loop()
    try:
        infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ActionFailure(code="action_host_unknown", host=host, detail=str(exc)) from None
    found: list[IPAddress] = []
    for _family, _type, _proto, _name, sockaddr in infos:
        address = ipaddress.ip_address(str(sockaddr[0]).split("%")[0])  # drop an IPv6 zone id
        if address not in found:
            found.append(address)
    return found


@dataclass(frozen=True, slots=True)
class Destinations:
    """Resolves hosts and refuses forbidden addresses; `guarded=False` only resolves (admin-set URLs)."""

    allow: AllowList = field(default_factory=AllowList)
    resolver: Resolver = system_resolver
    guarded: bool = True

    async def addresses(self, host: str, port: int) -> Sequence[IPAddress]:
        """The checked addresses to connect to, in order; ActionFailure when any is forbidden."""
        try:
            literal: IPAddress | None = ipaddress.ip_address(host)
        except ValueError:
            literal = None
        found = [literal] if literal is not None else await self.resolver(host, port)
        if not found:
            raise ActionFailure(code="action_host_unknown", host=host, detail="no address")
        if self.guarded:
            for address in found:
                if forbidden(address) and not self.allow.admits(host, address):
                    raise ActionFailure(code="action_destination_forbidden", host=host, address=str(address))
        return found
