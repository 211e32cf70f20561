"""Driving runs whose flows send actions: an in-process worker with an ActionSender on its own pool."""

from __future__ import annotations

import ipaddress
from typing import Any

from backend.actions import ActionSender, ActionSettings
from backend.actions.destinations import AllowList, IPAddress, Resolver, system_resolver
from backend.approvals.service import ApprovalService
from backend.queue.commands import open_pool
from backend.queue.worker import Worker
from tests.support import Queue

LOCAL = ActionSettings(allow=AllowList.parse("127.0.0.1"))


def drain(queue: Queue, settings: ActionSettings = LOCAL, resolver: Resolver = system_resolver) -> None:
    """Serve until nothing is due by the fake clock, with actions sent for real. The clock first catches up
    with the database, as `Queue.drain`'s does: a run started is due at the database's now, which a slow
    machine puts past where the fake clock started (at load 18 a second run's start was not due yet)."""
    queue.clock.catch_up(queue.url)

    async def go() -> None:
        # Each walk holds a connection; a try borrows another before and after it sends.
        pool = open_pool(queue.url, size=4)
        await pool.open()
        try:
            sender = ActionSender(pool, settings, resolver=resolver)
            worker = Worker(
                pool,
                clock=queue.clock,
                name="test-worker",
                concurrency=2,
                actions=sender,
                approvals=ApprovalService(queue.clock),
            )
            await worker.drain()
        finally:
            await pool.close()

    queue.run(go)


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
