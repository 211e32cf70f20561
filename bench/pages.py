"""The pages' API under load: inbox, run page, runs list, audit and the event stream (bench/api.py has the
base figures: /healthz, a run's journal, decisions).

Run: `.venv/bin/python bench/pages.py [--requests 2000] [--clients 16]` (DATABASE_URL, or the embedded
server). It makes its own database (`flowyard_bench_pages_<pid>`, dropped after), starts `flowyard serve
--no-worker` on a free port, and drives it with concurrent clients (bench/api.py's load generator):

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
import time

import psycopg

from bench.api import Connection, Request, load, prepare, report
from bench.common import drop_database, fresh_database, serving

BENCH_DB = f"flowyard_bench_pages_{os.getpid()}"


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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=16)
    args = parser.parse_args()

    url = fresh_database(BENCH_DB)
    token, _run_id, _approvals = asyncio.run(prepare(url, 1))
    flow_row = psycopg.connect(url).execute("SELECT id FROM flows").fetchone()
    assert flow_row is not None
    flow_id = int(flow_row[0])

    try:
        with serving(url) as port:
            waiting = asyncio.run(prepare_scale(url, flow_id))
            print(f"{args.clients} concurrent clients, {args.requests} requests of each kind, loopback;")
            print("100,000 approvals (2% open) and 20,000 runs:")
            pages: dict[str, str] = {
                "GET /api/approvals (inbox, 50)": "/api/approvals?limit=50",
                "GET /api/runs/{id} (a run page's data)": f"/api/runs/{waiting}",
                "GET /api/runs (runs list, 50)": "/api/runs?limit=50",
                "GET /api/audit (100)": "/api/audit?limit=100",
                "GET /api/audit?flow=&outcome= (100)": (
                    f"/api/audit?flow={flow_id}&outcome=approved&limit=100"
                ),
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
        drop_database(BENCH_DB)


if __name__ == "__main__":
    main()
