"""Helpers for queue tests: flows saved in the module's database, a clock the test moves, a worker."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import psycopg

from backend.flows.store import create_flow
from backend.queue.commands import open_pool
from backend.queue.runs import start_run
from backend.queue.worker import Worker

T = TypeVar("T")


def flow(*nodes: dict[str, Any], wires: list[dict[str, str]], name: str = "test") -> dict[str, Any]:
    trigger = {"id": "start", "type": "trigger", "config": {"kind": "manual"}}
    return {"format": "flowyard.flow/1", "name": name, "nodes": [trigger, *nodes], "wires": wires}


class FakeClock:
    """A clock the test moves by hand; it starts at the database's now so new waits are due."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta

    def catch_up(self, url: str) -> None:
        """At least the database's now: a wait made due by now() (a cancel, a resume) is due by this clock
        too, however long the test took so far."""
        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT now()").fetchone()
        assert row is not None
        self.now = max(self.now, row[0] + timedelta(seconds=1))


class Queue:
    """One module's database, driven in-process: save flows, start runs, drain a worker, read rows."""

    def __init__(self, url: str) -> None:
        self.url = url
        with psycopg.connect(url) as conn:
            row = conn.execute("SELECT now()").fetchone()
        assert row is not None
        self.clock = FakeClock(row[0] + timedelta(seconds=1))

    def run(self, make: Callable[[], Awaitable[T]]) -> T:
        return asyncio.run(make())  # type: ignore[arg-type]

    def save(self, document: dict[str, Any]) -> int:
        async def go() -> int:
            async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                return await create_flow(conn, document, by="test")

        return self.run(go)

    def start(self, flow_id: int, input: Any = None, key: str | None = None) -> int:
        async def go() -> int:
            async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                started = await start_run(
                    conn,
                    flow_id,
                    input=input,
                    idempotency_key=key,
                    trigger_kind="webhook" if key else "manual",
                )
                return started.run_id

        return self.run(go)

    def drain(self, **worker_options: Any) -> None:
        """Serve with one in-process worker until nothing is due (by the fake clock) and nothing in hand."""

        async def go() -> None:
            pool = open_pool(self.url, size=5)
            await pool.open()
            try:
                await Worker(pool, clock=self.clock, name="test-worker", **worker_options).drain()
            finally:
                await pool.close()

        self.run(go)

    def one(self, sql: str, *params: Any) -> tuple[Any, ...] | None:
        with psycopg.connect(self.url) as conn:
            return conn.execute(sql, params).fetchone()  # type: ignore[arg-type]

    def all(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.url) as conn:
            return conn.execute(sql, params).fetchall()  # type: ignore[arg-type]

    def status(self, run_id: int) -> tuple[str, str | None]:
        row = self.one("SELECT status, error FROM runs WHERE id = %s", run_id)
        assert row is not None
        return row[0], row[1]

    def codes(self, run_id: int) -> list[str]:
        return [r[0] for r in self.all("SELECT code FROM journal WHERE run_id = %s ORDER BY seq", run_id)]


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def sequential_scans(url: str, statement: str, params: dict[str, Any], tables: set[str]) -> list[str]:
    """The tables among `tables` that `statement`'s plan reads whole: what a growing table must never see."""
    with psycopg.connect(url) as conn:
        row = conn.execute(b"EXPLAIN (FORMAT JSON) " + statement.encode(), params).fetchone()
        conn.rollback()
    assert row is not None
    plan = row[0] if isinstance(row[0], list) else json.loads(row[0])
    scans, stack = [], [plan[0]["Plan"]]
    while stack:
        node = stack.pop()
        if node["Node Type"] == "Seq Scan" and node.get("Relation Name") in tables:
            scans.append(node["Relation Name"])
        stack.extend(node.get("Plans", []))
    return scans


def plan_text(url: str, statement: str, params: dict[str, Any]) -> str:
    """The plan of `statement`, as EXPLAIN prints it: what a failing plan assertion shows."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(b"EXPLAIN " + statement.encode(), params).fetchall()
        conn.rollback()
    return "\n".join(str(row[0]) for row in rows)
