"""The parts of bench/decisions_cell.py that its worker, sender and feeder processes run. Nothing here
imports the project at module level: each process imports the checkout it was handed, so that another
copy of the project can be measured beside this one."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import psycopg
from psycopg import sql
from psycopg.conninfo import make_conninfo

from bench.processes import ended

SENDER_NAME = "fin"
PARKED = "SELECT count(*) FROM approvals WHERE outcome IS NULL"
BUSY = "SELECT EXISTS (SELECT FROM waits)"
FLOW = {
    "format": "flowyard.flow/1",
    "name": "approve",
    "nodes": [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
        {
            "id": "sign",
            "type": "approval",
            "config": {"title": "Invoice {{trigger.n}}", "approvers": ["group:finance"]},
        },
        {"id": "paid", "type": "log", "config": {"message": "invoice {{trigger.n}} approved"}},
        {"id": "held", "type": "log", "config": {"message": "invoice {{trigger.n}} rejected"}},
    ],
    "wires": [
        {"from": "start", "to": "sign"},
        {"from": "sign", "port": "approve", "to": "paid"},
        {"from": "sign", "port": "reject", "to": "held"},
    ],
}
PARK_RUNS = (
    "WITH started AS (INSERT INTO runs (flow_id, version, status, trigger_kind, input)"
    " SELECT %s, 1, 'waiting', 'manual', jsonb_build_object('n', g) FROM generate_series(1, %s) AS g"
    " RETURNING id) INSERT INTO waits (run_id, kind, wake_at) SELECT id, 'start', now() FROM started"
)


def named(url: str, application: str) -> str:
    return make_conninfo(url, application_name=application)


@contextmanager
def fresh_database(server: str, name: str, *, log_statements: bool) -> Iterator[str]:
    """A database of its own on the server, dropped afterwards; with log_statements, every statement sent
    to it (and to no other database) is written to the server's log."""
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        if log_statements:
            conn.execute(sql.SQL("ALTER DATABASE {} SET log_statement = 'all'").format(sql.Identifier(name)))
    try:
        yield make_conninfo(server, dbname=name)
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def parked_runs(url: str, flow_id: int, items: int) -> None:
    with psycopg.connect(url) as conn:
        conn.execute(PARK_RUNS, (flow_id, items))


def percentile(ordered: list[float], q: int) -> float:
    """The nearest-rank percentile of an ordered list."""
    if not ordered:
        return float("nan")
    return ordered[max(0, -(-len(ordered) * q // 100) - 1)]


def work(url: str, ready: Any, stop: Any, checkout: str) -> None:
    """One worker process: a Worker at the CLI's concurrency (10) until the parent says stop."""
    sys.path.insert(0, checkout)
    from psycopg_pool import AsyncConnectionPool

    from backend.approvals.queue_port import ApprovalsPort
    from backend.queue.worker import Worker

    async def go() -> None:
        kwargs = {"autocommit": True, "application_name": "bench-worker"}
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            url, min_size=1, max_size=13, kwargs=kwargs, open=False
        )
        await pool.open()
        worker = Worker(
            pool, concurrency=10, lease=timedelta(seconds=30), retention=None, approvals=ApprovalsPort()
        )
        stopping = asyncio.Event()
        await asyncio.to_thread(ready.wait)
        runner = asyncio.create_task(worker.run(stopping))
        await asyncio.to_thread(stop.wait)
        stopping.set()
        await runner
        await pool.close()

    asyncio.run(go())


class Senders:
    """S senders as asyncio tasks, each on its own connection (a database connection, or an HTTP client
    with its own session), spread over min(S, cores) processes; sender k decides approvals k, k+S, ...
    in id order. Each process prepares its senders, waits on `ready` with the parent, sends, then keeps
    its connections open until `end` (so that the server still knows whose they were)."""

    def __init__(self, url: str, mode: str, senders: int, port: int | None, checkout: str) -> None:
        context = multiprocessing.get_context("spawn")
        count = min(senders, os.cpu_count() or 1)
        self.ready = context.Barrier(count + 1)
        self.stop = context.Event()
        self.errors = context.Value("q", 0)
        shares = [list(range(first, senders, count)) for first in range(count)]
        self.processes = [
            context.Process(
                target=send,
                args=(url, mode, senders, share, port, checkout, self.ready, self.stop, self.errors),
            )
            for share in shares
        ]
        for process in self.processes:
            process.start()

    def end(self) -> None:
        ended(self.stop, self.processes)


def sender_processes(url: str, mode: str, senders: int, port: int | None, checkout: str) -> Senders:
    return Senders(url, mode, senders, port, checkout)


def send(
    url: str,
    mode: str,
    senders: int,
    mine: list[int],
    port: int | None,
    checkout: str,
    ready: Any,
    stop: Any,
    errors: Any,
) -> None:
    sys.path.insert(0, checkout)

    async def go() -> None:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            cursor = await conn.execute("SELECT id FROM approvals WHERE outcome IS NULL ORDER BY id")
            ids = [row[0] for row in await cursor.fetchall()]
        prepare = service_sender if mode == "service" else api_sender
        tasks = [await prepare(url, port, number, ids[number::senders]) for number in mine]
        await asyncio.to_thread(ready.wait)
        refused = sum(await asyncio.gather(*(task() for task in tasks)))
        with errors.get_lock():
            errors.value += refused
        await asyncio.to_thread(stop.wait)

    asyncio.run(go())


async def service_sender(url: str, port: int | None, number: int, ids: list[int]) -> Any:
    """ApprovalDecisions().decide per decision, on a connection of this sender's own."""
    from backend.approvals.decisions import ApprovalDecisions

    conn = await psycopg.AsyncConnection.connect(named(url, "bench-sender"), autocommit=True)
    service = ApprovalDecisions()

    async def decide() -> int:
        for approval_id in ids:
            await service.decide(conn, approval_id, "approved", by=f"{SENDER_NAME}{number}", comment=None)
        return 0  # a refusal is an exception: the process fails and the parent says so

    return decide


async def api_sender(url: str, port: int | None, number: int, ids: list[int]) -> Any:
    """POST /api/approvals/{id}/decision as the page does: a session (cookie) of this sender's own, its
    CSRF token echoed, the approval's id and the digest read with it (`seen`), on one keep-alive client."""
    import httpx

    client = httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60)
    name = f"{SENDER_NAME}{number}"
    login = await client.post("/api/session", json={"name": name, "password": SENDER_NAME})
    login.raise_for_status()
    headers = {"x-csrf-token": login.json()["csrf_token"]}
    seen = {}
    for approval_id in ids:  # what the page read before the person clicked: not timed
        shown = await client.get(f"/api/approvals/{approval_id}")
        shown.raise_for_status()
        seen[approval_id] = shown.json()["digest"]

    async def decide() -> int:
        refused = 0
        for approval_id in ids:
            body = {"outcome": "approve", "approval": approval_id, "seen": seen[approval_id]}
            answer = await client.post(f"/api/approvals/{approval_id}/decision", json=body, headers=headers)
            refused += answer.status_code >= 300
        return refused

    return decide


@contextmanager
def served(url: str, checkout: str, wanted: bool) -> Iterator[int | None]:
    """The checkout's `flowyard serve --no-worker` on a free port of loopback, when wanted."""
    if not wanted:
        yield None
        return
    serve = subprocess.Popen(
        [sys.executable, "-m", "backend.cli", "serve", "--port", "0", "--no-worker"],
        env={"FLOWYARD_LOG_LEVEL": "WARNING", **os.environ, "DATABASE_URL": named(url, "bench-api")},
        stdout=subprocess.PIPE,
        text=True,
        cwd=checkout,
    )
    assert serve.stdout is not None
    try:
        while "serving" not in (line := serve.stdout.readline()):
            if not line:
                raise SystemExit("flowyard serve ended before it was serving")
        yield int(line.strip().rsplit(":", 1)[1])
    finally:
        serve.terminate()
        serve.wait()
        serve.stdout.close()


def feed(url: str, flow_id: int, rate: int, stop: Any, fed: Any) -> None:
    """Park `rate` runs a second as due start waits, a hundredth of them every 10 ms on a fixed schedule."""
    batch, started, ticks = max(1, rate // 100), time.perf_counter(), 0
    with psycopg.connect(named(url, "bench-feeder"), autocommit=True) as conn:
        while not stop.is_set():
            conn.execute(PARK_RUNS, (flow_id, batch))
            ticks += 1
            time.sleep(max(0.0, started + ticks * 0.01 - time.perf_counter()))
    fed.value = ticks * batch / (time.perf_counter() - started)


class Feeder:
    """A background stream of resumes asked, in a process of its own, from now until `end`."""

    def __init__(self, url: str, flow_id: int, rate: int) -> None:
        context = multiprocessing.get_context("spawn")
        self.stop, self.fed = context.Event(), context.Value("d", 0.0)
        self.process = context.Process(target=feed, args=(url, flow_id, rate, self.stop, self.fed))
        self.process.start()
        time.sleep(1)  # the stream is flowing before the first decision is measured

    def end(self) -> float:
        self.stop.set()
        self.process.join()
        return float(self.fed.value)
