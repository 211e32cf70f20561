"""Driving runs whose flows send actions: an in-process worker with an ActionSender on its own pool."""

from __future__ import annotations

import ipaddress
from typing import Any

from backend.actions import ActionSender, ActionSettings
from backend.actions.destinations import AllowList, IPAddress, Resolver, system_resolver
from tests.support import Queue

LOCAL = ActionSettings(allow=AllowList.parse("127.0.0.1"))


def drain(queue: Queue, settings: ActionSettings = LOCAL, resolver: Resolver = system_resolver) -> None:
    """Serve until nothing is due by the fake clock, with actions sent for real (`Queue.drain`, the clock
    caught up first). Each walk holds a connection; a try borrows another before and after it sends."""
    queue.drain(lambda pool: ActionSender(pool, settings, resolver=resolver), pool_size=4, concurrency=2)


def fake_dns(names: dict[str, list[str]]) -> Resolver:
    """A resolver that knows only `names`: DNS answers chosen by the test."""

    async def resolve(host: str, port: int) -> list[IPAddress]:
        return [ipaddress.ip_address(address) for address in names[host]]

    return resolve


def effects(queue: Queue, run_id: int) -> list[dict[str, Any]]:
    rows = queue.all(
        "SELECT visit, node, key, attempts, outcome, output, request FROM effects"
        " WHERE run_id = %s ORDER BY visit",
        run_id,
    )
    names = ("visit", "node", "key", "attempts", "outcome", "output", "request")
    return [dict(zip(names, row, strict=True)) for row in rows]


def journal_data(queue: Queue, run_id: int, code: str) -> list[dict[str, Any]]:
    rows = queue.all("SELECT data FROM journal WHERE run_id = %s AND code = %s ORDER BY seq", run_id, code)
    return [row[0] for row in rows]
