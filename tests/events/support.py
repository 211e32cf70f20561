"""Flows with a wait_event node, and posting events through the service with the queue's clock."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from backend.events.service import Delivery, deliver
from tests.support import Queue, flow

KEEP = timedelta(days=1)
LIMIT = 1 << 20


def waiting_flow(
    events: tuple[str, ...] = ("paid", "cancelled"),
    *,
    timeout: str | None = "P2D",
    keep_early: str | None = None,
    key: str = "{{trigger.order}}",
) -> dict[str, Any]:
    """trigger -> wait for `events` under the order's key -> one log per port (and the timeout's)."""
    config: dict[str, Any] = {"events": list(events), "key": key, "timeout": timeout}
    if keep_early is not None:
        config["keep_early"] = keep_early
    logs = [
        {"id": f"on_{port}", "type": "log", "config": {"message": f"{port} {{{{wait.amount}}}}"}}
        for port in (*events, "timeout")
    ]
    wires = [{"from": "start", "to": "wait"}] + [
        {"from": "wait", "port": port, "to": f"on_{port}"} for port in (*events, "timeout")
    ]
    return flow("start:trigger", {"id": "wait", "type": "wait_event", "config": config}, *logs, wires=wires)


def post(queue: Queue, name: str, key: str, payload: dict[str, Any] | None = None) -> Delivery:
    """Send an event as the API does, at the queue's clock."""

    async def go(conn: Any) -> Delivery:
        return await deliver(
            conn,
            name,
            key,
            payload or {},
            keep=KEEP,
            max_payload_bytes=LIMIT,
            sent_by="test",
            now=queue.clock(),
        )

    async def connected() -> Delivery:
        import psycopg

        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return await go(conn)

    return queue.run(connected)


def logged(queue: Queue, run_id: int) -> list[str]:
    rows = queue.all(
        "SELECT data ->> 'message' FROM journal WHERE run_id = %s AND code = 'log_written' ORDER BY seq",
        run_id,
    )
    return [row[0] for row in rows]


def drain(queue: Queue) -> None:
    """Drain at (at least) the database's now: the runs just started are due by the test's clock."""
    queue.drain()
