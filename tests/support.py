"""Helpers for every area's tests: the one flow builder, and for the queue tests flows saved in the module's
database, a clock the test moves, a worker."""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

import psycopg
from psycopg_pool import AsyncConnectionPool

from backend.approvals.queue_port import ApprovalsPort
from backend.flows.store import create_flow
from backend.graph import Finding
from backend.i18n.catalogs import message
from backend.queue.commands import open_pool
from backend.queue.ports import Actions
from backend.queue.runs import start_run
from backend.queue.worker import Worker

T = TypeVar("T")


# A valid config for each node type: what an `id:type` node of `flow` gets.
CONFIGS: dict[str, dict[str, Any]] = {
    "trigger": {"kind": "manual"},
    "set": {"values": {"total": "{{trigger.amount}}"}},
    "condition": {"left": "{{trigger.amount}}", "op": "gt", "right": 1000},
    "foreach": {"items": "{{trigger.items}}", "as": "item"},
    "repeat": {"while": {"left": "{{count}}", "op": "lt", "right": 3}},
    "break": {},
    "approval": {"title": "Pay?", "deadline": "P2D", "on_timeout": "skip", "approvers": ["group:finance"]},
    "delay": {"duration": "PT30M"},
    "http": {"method": "POST", "url": "https://example.test/pay", "timeout_s": 10},
    "notify": {"channel": "email", "to": "finance@example.test", "message": "paid"},
    "command": {"server": "web-1", "template": "uptime"},
    "log": {"message": "hello {{trigger.who}}"},
    "end": {"status": "succeeded"},
    "parallel": {"wait": "all"},
    "join": {"wait": "all"},
    "wait_event": {"events": ["paid"], "key": "{{trigger.order}}", "timeout": "P1D"},
}


def flow(
    *nodes: dict[str, Any] | str, wires: str | list[dict[str, str]] = "", name: str = "test"
) -> dict[str, Any]:
    """A flow document holding exactly the nodes given, in order, and the wires given; nothing added.

    A node is a whole node object, or text of `id:type` nodes separated by spaces (each with the valid
    config of `CONFIGS`). Wires are wire objects, or text of `from>to` (the default port: no `port` key)
    and `from.port>to` wires separated by spaces.

    Examples:
        >>> document = flow("start:trigger", {"id": "a", "type": "log", "config": {"message": "hi"}},
        ...                 wires="start>a a.error>start")
        >>> [node["id"] for node in document["nodes"]], document["wires"]
        (['start', 'a'], [{'from': 'start', 'to': 'a'}, {'from': 'a', 'port': 'error', 'to': 'start'}])
    """
    node_list: list[dict[str, Any]] = []
    for given in nodes:
        if isinstance(given, dict):
            node_list.append(copy.deepcopy(given))
            continue
        for text in given.split():
            node_id, node_type = text.split(":")
            config = copy.deepcopy(CONFIGS.get(node_type, {}))
            node_list.append({"id": node_id, "type": node_type, "config": config})
    if not isinstance(wires, str):
        wire_list = copy.deepcopy(wires)
    else:
        wire_list = []
        for text in wires.split():
            source, target = text.split(">")
            start, _, port = source.partition(".")
            wire_list.append(
                {"from": start, "port": port, "to": target} if port else {"from": start, "to": target}
            )
    return {"format": "flowyard.flow/1", "name": name, "nodes": node_list, "wires": wire_list}


AsyncConnection = psycopg.AsyncConnection[tuple[Any, ...]]


class Connected:
    """A synchronous test's way into the backend's async functions: each call gets an autocommit
    connection of its own to the database, opened and closed around it (the `aconn` fixture)."""

    def __init__(self, url: str) -> None:
        self.url = url

    def __call__(self, call: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        async def go() -> T:
            async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
                return await call(conn)

        return asyncio.run(go())

    def beside_a_loop(self, call: Callable[[AsyncConnection], Awaitable[T]]) -> T:
        """The same, from a thread whose event loop is taken (Playwright's sync API holds the browser
        tests'): on a thread of its own."""
        with ThreadPoolExecutor(max_workers=1) as thread:
            return thread.submit(self, call).result()


class FakeClock:
    """A clock the test moves by hand, never behind its database's now.

    What the database stamps with its own now() (a run's start, a cancel, a resume, an answer) is due by
    this clock once it has caught up, and it catches up in one place, `catch_up`: when the test starts a
    run and before a worker is handed the clock (`Queue.start`, `Queue.drain`). Between two catch-ups it
    stands still, so the times a drain writes are the times the test reads from it, however slow the
    machine."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.now = datetime.min.replace(tzinfo=UTC)
        self.catch_up()

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta

    def catch_up(self) -> None:
        """At least a second past the database's now: a wait made due by now() is due by this clock too,
        however long the test took so far. Never back: a time the test moved it to stands."""
        with psycopg.connect(self.url) as conn:
            row = conn.execute("SELECT now()").fetchone()
        assert row is not None
        self.now = max(self.now, row[0] + timedelta(seconds=1))


class Queue:
    """One module's database, driven in-process: save flows, start runs, drain a worker, read rows."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.clock = FakeClock(url)
        self.aconn = Connected(url)

    def run(self, make: Callable[[], Coroutine[Any, Any, T]]) -> T:
        return asyncio.run(make())

    def save(self, document: dict[str, Any]) -> int:
        return self.aconn(lambda conn: create_flow(conn, document, by="test"))

    def start(self, flow_id: int, input: Any = None, key: str | None = None) -> int:
        """A run started as a trigger starts it; the clock catches up, so its start is due by the clock
        for a worker or a claim the test drives by hand."""

        async def go(conn: AsyncConnection) -> int:
            started = await start_run(
                conn, flow_id, input=input, idempotency_key=key, trigger_kind="webhook" if key else "manual"
            )
            return started.run_id

        run_id = self.aconn(go)
        self.clock.catch_up()
        return run_id

    def drain(
        self,
        actions: Callable[[AsyncConnectionPool[Any]], Actions] | None = None,
        pool_size: int = 5,
        name: str = "test-worker",
        **worker_options: Any,
    ) -> None:
        """Serve with one in-process worker until nothing is due (by the fake clock) and nothing in hand;
        `actions` makes the worker's action sender on its pool.

        The clock first catches up with the database: a run cancelled or resumed through the API or the
        CLI is due at the database's now, which a slow machine puts past where the clock stands."""
        self.clock.catch_up()

        async def go() -> None:
            pool = open_pool(self.url, size=pool_size)
            await pool.open()
            try:
                options = {"approvals": ApprovalsPort(self.clock), **worker_options}
                if actions is not None:
                    options["actions"] = actions(pool)
                await Worker(pool, clock=self.clock, name=name, **options).drain()
            finally:
                await pool.close()

        self.run(go)

    def one(self, sql: str, *params: Any) -> tuple[Any, ...] | None:
        with psycopg.connect(self.url) as conn:
            return conn.execute(sql, params).fetchone()

    def all(self, sql: str, *params: Any) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.url) as conn:
            return conn.execute(sql, params).fetchall()

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


def config_invalid(node: str, pointer: str, problem: str) -> Finding:
    """The `node_config_invalid` finding the validator writes in English at `pointer`: the sentence names
    the setting under `config` (an undo's own settings are the undo's), the config itself
    "Configuration"."""
    keys = pointer.partition("/config")[2].split("/")[1:]
    field = keys[0] if keys else "Configuration"
    sentence = message("node_config_invalid", "en", node=node, field=field, problem=problem)
    return Finding("node_config_invalid", node, None, sentence, pointer)
