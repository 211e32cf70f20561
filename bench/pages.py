"""The pages' API under load (inbox, run page, runs list, audit, the event stream), beside the base figures.

Run: `.venv/bin/python bench/api.py [--requests 2000] [--clients 16]` (DATABASE_URL, or the embedded
server). It makes its own database (`flowyard_bench_api`), starts `flowyard serve --no-worker` on a free
port, and drives it with 16 concurrent httpx clients:

- GET /api/runs/{id} of a run whose journal has 500 lines (each line's message translated);
- POST /api/approvals/{id}/decision, each on an approval of its own (first decisions, the costly path);
- GET /healthz, as the floor of what one request costs here;
- at 100,000 approvals (98% decided over a year) and 20,000 runs: the inbox, a run page's data, the runs
  list, and the audit search (all, one flow, a text);
- the runs' event stream: from the POST that starts a run to its event on an open stream (start-to-
  visible; the page then reads the list, which the runs-list line measures).

Nothing is asserted: the machine is shared and noisy.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import time

import psycopg

from backend.flows.store import create_flow
from backend.people.accounts import Grant, add_user, create_token
from bench.common import free_port, fresh_database

BENCH_DB = "flowyard_bench_api"
FLOW = {
    "format": "flowyard.flow/1",
    "name": "bench",
    "nodes": [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
        {"id": "ask", "type": "approval", "config": {"title": "ok?", "approvers": []}},
    ],
    "wires": [{"from": "start", "to": "ask"}],
}


async def prepare(url: str, approvals: int) -> tuple[str, int, list[int]]:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        flow_id = await create_flow(conn, FLOW, by="bench")
        await add_user(conn, "bench", grants=[Grant(r, None) for r in ("edit", "run", "decide", "audit")])
        token = await create_token(conn, "bench")
        cur = await conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind, journal_seq)"
            " VALUES (%s, 1, 'succeeded', 'manual', 500) RETURNING id",
            (flow_id,),
        )
        row = await cur.fetchone()
        assert row is not None
        run_id = row[0]
        await conn.execute(
            "INSERT INTO journal (run_id, seq, code, node, visit, data)"
            " SELECT %s, g, 'node_visited', 'n' || g, g, jsonb_build_object('type', 'log', 'port', 'out')"
            " FROM generate_series(1, 500) AS g",
            (run_id,),
        )
        cur = await conn.execute(
            "INSERT INTO approvals (run_id, flow_id, version, node, visit, title, explanation, approvers,"
            " requested_at) SELECT %s, %s, 1, 'ask', g, 'ok?', '', '{}', now()"
            " FROM generate_series(1, %s) AS g RETURNING id",
            (run_id, flow_id, approvals),
        )
        ids = [r[0] for r in await cur.fetchall()]
    return token, run_id, ids


class Connection:
    """A keep-alive HTTP/1.1 connection that does the least a client can: the load generator must cost
    less than the server it measures (httpx in this process topped out at about a third of the server)."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, token: str) -> None:
        self.reader, self.writer, self.token = reader, writer, token

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {self.token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        )
        self.writer.write(head.encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readline()
        length = 0
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return int(status_line.split()[1]), await self.reader.readexactly(length)


Request = tuple[str, str, bytes]


async def load(port: int, token: str, clients: int, requests: list[Request]) -> tuple[float, list[float]]:
    queue = list(reversed(requests))
    latencies: list[float] = []

    async def client() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        connection = Connection(reader, writer, token)
        while queue:
            method, path, body = queue.pop()
            started = time.perf_counter()
            status, answer = await connection.request(method, path, body)
            latencies.append((time.perf_counter() - started) * 1000)
            assert status < 300, answer
        writer.close()
        await writer.wait_closed()

    started = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(clients)))
    return len(requests) / (time.perf_counter() - started), latencies


async def prepare_scale(url: str, flow_id: int) -> int:
    """100,000 approvals and 20,000 runs beside the rest; a waiting run with a journal and an effect."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind, started_by, journal_seq, created_at)"
            " SELECT %s, 1, 'succeeded', 'manual', 'bench', 0, now() - g * interval '20 minutes'"
            " FROM generate_series(1, 20000) AS g",
            (flow_id,),
        )
        await conn.execute(
            "INSERT INTO approvals (run_id, flow_id, version, node, visit, title, explanation, approvers,"
            " requested_at, outcome, decided_by, decided_at, comment, started_by)"
            " SELECT 1000000 + g, %s, 1, 'ask', 1, 'Pay invoice ' || g || '?', 'Over the limit', '{}',"
            " now() - g * interval '5 minutes',"
            " CASE WHEN g %% 50 = 0 THEN NULL ELSE 'approved' END,"
            " CASE WHEN g %% 50 = 0 THEN NULL ELSE 'u' || g %% 20 END,"
            " CASE WHEN g %% 50 = 0 THEN NULL ELSE now() - g * interval '4 minutes' END,"
            " CASE WHEN g %% 50 = 0 THEN NULL ELSE 'ok ' || g END, 'bench'"
            " FROM generate_series(1, 100000) AS g",
            (flow_id,),
        )
        cur = await conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind, started_by, journal_seq)"
            " VALUES (%s, 1, 'waiting', 'manual', 'bench', 40) RETURNING id",
            (flow_id,),
        )
        row = await cur.fetchone()
        assert row is not None
        await conn.execute(
            "INSERT INTO journal (run_id, seq, code, node, visit, data)"
            " SELECT %s, g, 'node_visited', 'n' || g %% 5, g,"
            " jsonb_build_object('type', 'log', 'port', 'out') FROM generate_series(1, 40) AS g",
            (row[0],),
        )
        await conn.execute(
            "INSERT INTO effects (run_id, visit, node, type, key, digest, request, attempts, outcome,"
            " output, completed_at)"
            " VALUES (%s, 7, 'pay', 'http', 'fy-bench', 'd', '{}', 1, 'out', '{\"status\": 200}', now())",
            (row[0],),
        )
        await conn.execute("VACUUM ANALYZE")
        return int(row[0])


async def stream_latency(port: int, token: str, flow_id: int, rounds: int) -> list[float]:
    """Milliseconds from sending the POST that starts a run to its event arriving on an open stream."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"GET /api/runs/stream HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n\r\n".encode()
    )
    await writer.drain()
    while b"event: ready" not in await reader.readline():
        pass
    starter_reader, starter_writer = await asyncio.open_connection("127.0.0.1", port)
    starter = Connection(starter_reader, starter_writer, token)
    latencies = []
    for _ in range(rounds):
        started = time.perf_counter()
        status, body = await starter.request("POST", f"/api/flows/{flow_id}/runs", b'{"input": {}}')
        assert status == 201, body
        run_id = json.loads(body)["run"]
        while True:
            line = await reader.readline()
            if line.startswith(b"data:") and json.loads(line[5:]).get("run") == run_id:
                break
        latencies.append((time.perf_counter() - started) * 1000)
    for w in (writer, starter_writer):
        w.close()
    return latencies


def report(name: str, rate: float, latencies: list[float]) -> None:
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[max(0, int(len(latencies) * 0.99) - 1)]
    print(f"{name:<44} {rate:>8.0f} req/s   p50 {p50:>6.1f} ms   p99 {p99:>6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=16)
    args = parser.parse_args()

    url = fresh_database(BENCH_DB)
    token, run_id, approval_ids = asyncio.run(prepare(url, args.requests))
    flow_row = psycopg.connect(url).execute("SELECT id FROM flows").fetchone()
    assert flow_row is not None
    flow_id = int(flow_row[0])

    port = free_port()
    serve = subprocess.Popen(
        [sys.executable, "-m", "backend.cli", "serve", "--port", str(port), "--no-worker"],
        env=dict(os.environ, DATABASE_URL=url),
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert serve.stdout is not None
        serve.stdout.readline()
        print(
            f"{args.clients} concurrent clients, {args.requests} requests of each kind, loopback, one server"
        )
        health: list[Request] = [("GET", "/healthz", b"")] * args.requests
        report("GET /healthz (the floor)", *asyncio.run(load(port, token, args.clients, health)))
        runs: list[Request] = [("GET", f"/api/runs/{run_id}", b"")] * args.requests
        report("GET /api/runs/{id}, 500-line journal", *asyncio.run(load(port, token, args.clients, runs)))
        decisions: list[Request] = [
            ("POST", f"/api/approvals/{a}/decision", b'{"outcome": "approve"}') for a in approval_ids
        ]
        report("POST /api/approvals/{id}/decision", *asyncio.run(load(port, token, args.clients, decisions)))

        waiting = asyncio.run(prepare_scale(url, flow_id))
        print("at 100,000 approvals (2% open) and 20,000 runs:")
        pages: dict[str, str] = {
            "GET /api/approvals (inbox, 50)": "/api/approvals?limit=50",
            "GET /api/runs/{id} (a run page's data)": f"/api/runs/{waiting}",
            "GET /api/runs (runs list, 50)": "/api/runs?limit=50",
            "GET /api/audit (100)": "/api/audit?limit=100",
            "GET /api/audit?flow=&outcome= (100)": f"/api/audit?flow={flow_id}&outcome=approved&limit=100",
            "GET /api/audit?text=invoice%2099 (100)": "/api/audit?text=invoice%2099&limit=100",
        }
        for name, path in pages.items():
            reads: list[Request] = [("GET", path, b"")] * args.requests
            report(name, *asyncio.run(load(port, token, args.clients, reads)))
        # Latency without queueing behind 15 other clients: what one person waits for.
        print("the same, one client at a time (p50 = what one reader waits):")
        for name, path in pages.items():
            single: list[Request] = [("GET", path, b"")] * min(args.requests, 200)
            report(name, *asyncio.run(load(port, token, 1, single)))
        latencies = sorted(asyncio.run(stream_latency(port, token, flow_id, 50)))
        name = "SSE start-to-visible (POST -> event), 50 runs"
        print(f"{name:<44} p50 {statistics.median(latencies):>6.1f} ms   max {latencies[-1]:>6.1f} ms")
    finally:
        serve.terminate()
        serve.wait()
        assert serve.stdout is not None
        serve.stdout.close()


if __name__ == "__main__":
    main()
