"""Which addresses an action may reach, and the operator's allow-list."""

from __future__ import annotations

import asyncio
import ipaddress

import pytest

from backend.actions.destinations import AllowList, Destinations, forbidden
from backend.actions.failures import ActionFailure
from tests.actions.support import fake_dns

REFUSED = [
    "127.0.0.1",  # loopback
    "10.2.3.4",  # private
    "172.16.0.1",
    "192.168.1.1",
    "100.64.0.1",  # shared address space (carrier NAT)
    "169.254.169.254",  # cloud metadata, link-local
    "0.0.0.0",  # unspecified
    "224.0.0.1",  # multicast
    "240.0.0.1",  # reserved
    "::1",
    "fe80::1",
    "fd00:ec2::254",  # a cloud's IPv6 metadata address (unique local)
    "::ffff:127.0.0.1",  # IPv4-mapped loopback
    "2002:7f00:1::",  # 6to4 wrapping 127.0.0.1
    "ff02::1",
]
ADMITTED = ["8.8.8.8", "93.184.216.34", "2001:4860:4860::8888"]


@pytest.mark.parametrize("address", REFUSED)
def test_private_and_special_addresses_are_forbidden(address: str) -> None:
    assert forbidden(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ADMITTED)
def test_public_addresses_are_not(address: str) -> None:
    assert not forbidden(ipaddress.ip_address(address))


def test_the_allow_list_admits_networks_and_host_names_and_refuses_nonsense() -> None:
    allow = AllowList.parse(" 10.0.0.0/8 , ::1, Agents.Internal. ,")
    ip = ipaddress.ip_address
    assert allow.admits("anything", ip("10.9.9.9")) and allow.admits("x", ip("::1"))
    assert allow.admits("agents.internal", ip("192.168.0.5"))
    assert not allow.admits("other.internal", ip("192.168.0.5"))
    with pytest.raises(ValueError, match="neither a network nor a host name"):
        AllowList.parse("10.0.0.0/8, not a host")


def test_an_ip_literal_is_checked_without_a_lookup_and_a_name_after_one() -> None:
    asked: list[str] = []
    dns = fake_dns({"db.internal": ["10.0.0.5"], "public.test": ["93.184.216.34"]})

    async def resolver(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
        asked.append(host)
        return await dns(host, port)

    guard = Destinations(AllowList(), resolver)
    with pytest.raises(ActionFailure) as caught:
        asyncio.run(guard.addresses("db.internal", 80))
    assert caught.value.code == "action_destination_forbidden"
    assert [str(a) for a in asyncio.run(guard.addresses("public.test", 443))] == ["93.184.216.34"]
    assert [str(a) for a in asyncio.run(guard.addresses("93.184.216.35", 80))] == ["93.184.216.35"]
    assert asked == ["db.internal", "public.test"]
    unguarded = Destinations(AllowList(), resolver, guarded=False)
    assert [str(a) for a in asyncio.run(unguarded.addresses("db.internal", 80))] == ["10.0.0.5"]


def test_a_name_no_one_knows_is_its_own_error() -> None:
    with pytest.raises(ActionFailure) as caught:
        asyncio.run(Destinations().addresses("no-such-host.invalid", 80))
    assert caught.value.code == "action_host_unknown"
