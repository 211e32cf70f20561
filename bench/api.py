"""The API under load, on loopback: requests per second and latency percentiles, printed for the record.

Run: `.venv/bin/python bench/api.py [--requests 2000] [--clients 16] [--rounds 1] [--before DIR]
[--pressure-only]` (DATABASE_URL, or the embedded server). It makes its own database
(`flowyard_bench_api_<pid>`, dropped after), starts `flowyard serve --no-worker` on a free port, and drives
it with 16 concurrent keep-alive clients:

- GET /api/runs/{id} of a run whose journal has 500 lines (the default page of it, each line's message
  translated);
- POST /api/approvals/{id}/decision, each on an approval of its own, each of a run of its own (first
  decisions, the costly path);
- GET /healthz, as the floor of what one request costs here;
- GET /healthz again, one request at a time, while 30 logins, 30 webhook senders that send a byte of
  their body and then nothing, and one validation of a 900-node flow are in flight: its percentiles
  (the target is p99 under 100 ms) say whether anything holds the event loop or the pool.

With `--before DIR` (a checkout of another build, e.g. `git worktree add DIR main`), that build's server
is measured beside this one, on a database its own migrations made, the rounds interleaved; the table at
the end gives each build's medians as req/s and as ratios to its own /healthz floor.

Nothing is asserted: the machine is shared and noisy.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import asyncio
import itertools
import json
import os
import statistics
import subprocess
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import psycopg

from backend.flows.store import create_flow
from backend.people.accounts import Grant, add_user, create_token
from bench.common import drop_database, fresh_database, serving

# Its own name per process: two people benchmarking against one server must not drop each other's.
BENCH_DB = f"flowyard_bench_api_{os.getpid()}"
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
    """A token, a run whose journal has 500 lines, and `approvals` open approvals, each of a run of its
    own (as an inbox holds them), none of the first run's: its page shows none of them."""
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
            "WITH waiting AS (INSERT INTO runs (flow_id, version, status, trigger_kind)"
            " SELECT %s, 1, 'waiting', 'manual' FROM generate_series(1, %s) RETURNING id)"
            " INSERT INTO approvals (run_id, flow_id, version, node, visit, title, explanation, approvers,"
            " requested_at) SELECT id, %s, 1, 'ask', 1, 'ok?', '', '{}', now() FROM waiting"
            " RETURNING id",
            (flow_id, approvals, flow_id),
        )
        ids = sorted(r[0] for r in await cur.fetchall())
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


def report(name: str, rate: float, latencies: list[float]) -> None:
    latencies.sort()
    p50 = statistics.median(latencies)
    p99 = latencies[max(0, int(len(latencies) * 0.99) - 1)]
    print(f"{name:<44} {rate:>8.0f} req/s   p50 {p50:>6.1f} ms   p99 {p99:>6.1f} ms")


def big_flow(nodes: int) -> dict[str, Any]:
    """A valid chain of log nodes behind a webhook trigger."""
    chain = [{"id": f"n{i}", "type": "log", "config": {"message": f"step {i}"}} for i in range(nodes)]
    ids = ["start", *(node["id"] for node in chain)]
    return {
        "format": "flowyard.flow/1",
        "name": "big",
        "nodes": [{"id": "start", "type": "trigger", "config": {"kind": "webhook"}}, *chain],
        "wires": [{"from": a, "to": b} for a, b in itertools.pairwise(ids)],
    }


async def under_pressure(port: int, token: str, logins: int, senders: int) -> None:
    """/healthz latencies, one request at a time, while the issue's load is in flight."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    setup = Connection(reader, writer, token)
    status, body = await setup.request("POST", "/api/flows", json.dumps(big_flow(3)).encode())
    assert status == 201, body
    flow_id = json.loads(body)["id"]
    status, body = await setup.request("POST", f"/api/flows/{flow_id}/webhook")
    hook = json.loads(body)["path"]

    slow = []
    for _ in range(senders):
        _r, w = await asyncio.open_connection("127.0.0.1", port)
        w.write(
            f"POST {hook} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
            "Content-Length: 100\r\n\r\n{".encode()
        )
        await w.drain()
        slow.append(w)

    async def one(method: str, path: str, body: bytes) -> int:
        r, w = await asyncio.open_connection("127.0.0.1", port)
        status, _answer = await Connection(r, w, token).request(method, path, body)
        w.close()
        return status

    login = json.dumps({"name": "nobody", "password": "guess"}).encode()
    started = time.perf_counter()
    pressure = [asyncio.create_task(one("POST", "/api/session", login)) for _ in range(logins)]
    document = json.dumps(big_flow(900)).encode()
    pressure.append(asyncio.create_task(one("POST", "/api/flows/validate", document)))
    latencies: list[float] = []
    while not all(task.done() for task in pressure) or len(latencies) < 200:
        begun = time.perf_counter()
        status, _answer = await setup.request("GET", "/healthz")
        latencies.append((time.perf_counter() - begun) * 1000)
        assert status == 200, status
    lasted = time.perf_counter() - started
    statuses = sorted(task.result() for task in pressure)
    for w in slow:
        w.close()
    writer.close()
    latencies.sort()
    p = {q: latencies[max(0, int(len(latencies) * q / 100) - 1)] for q in (50, 95, 99)}
    print(
        f"under load ({logins} logins, {senders} slow webhook senders, one 900-node validation; "
        f"{lasted:.1f} s until all answered, statuses {dict(sorted(_count(statuses).items()))})"
    )
    print(
        f"{'GET /healthz, one at a time':<44} {len(latencies):>8} reqs    p50 {p[50]:>6.1f} ms   "
        f"p95 {p[95]:>6.1f} ms   p99 {p[99]:>6.1f} ms   max {latencies[-1]:>6.1f} ms"
    )


def _count(values: list[int]) -> dict[int, int]:
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return counts


@dataclass
class Build:
    """A checkout whose server is measured: this one, or another (`--before`), on a database of its own."""

    name: str
    home: Path
    database: str
    rates: dict[str, list[float]] = field(default_factory=dict)


def migrated(build: Build) -> str:
    """The build's database, made afresh and migrated by the build's own migrations."""
    url = fresh_database(build.database, migrate_it=False)
    subprocess.run(
        [sys.executable, "-m", "backend.cli", "migrate"],
        cwd=build.home,
        env={**os.environ, "DATABASE_URL": url, "FLOWYARD_LOG_LEVEL": "WARNING"},
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return url


KINDS = (
    "GET /healthz (the floor)",
    "GET /api/runs/{id}, 500-line journal",
    "POST /api/approvals/{id}/decision",
)


async def measure(build: Build, port: int, token: str, run_id: int, approvals: list[int], args: Any) -> None:
    """One round of the three figures against one build's server."""
    work: list[list[Request]] = [
        [("GET", "/healthz", b"")] * args.requests,
        [("GET", f"/api/runs/{run_id}", b"")] * args.requests,
        [("POST", f"/api/approvals/{a}/decision", b'{"outcome": "approve"}') for a in approvals],
    ]
    for kind, requests in zip(KINDS, work, strict=True):
        rate, latencies = await load(port, token, args.clients, requests)
        build.rates.setdefault(kind, []).append(rate)
        report(f"{build.name}: {kind}", rate, latencies)


def table(builds: list[Build]) -> None:
    """The medians of every build side by side, each as req/s and as a ratio to its own floor (the median
    of the rounds' ratios)."""
    print(f"\nmedians of {len(builds[0].rates[KINDS[0]])} rounds; load average {os.getloadavg()}")
    print(f"{'':<44}" + "".join(f"{b.name:>22}" for b in builds))
    for kind in KINDS:
        cells = []
        for build in builds:
            rate = statistics.median(build.rates[kind])
            # Each round's ratio to that round's floor, then their median: the floor swings several-fold
            # within minutes here, and a round's figures were measured under the same weather.
            ratios = [r / f for r, f in zip(build.rates[kind], build.rates[KINDS[0]], strict=True)]
            cells.append(f"{rate:>9.0f} req/s {statistics.median(ratios):>5.2f}x")
        print(f"{kind:<44}" + "".join(f"{cell:>22}" for cell in cells))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument(
        "--before",
        type=Path,
        help="another checkout (a build of main): measured beside this one, interleaved",
    )
    parser.add_argument("--pressure-only", action="store_true", help="only /healthz under the issue's load")
    args = parser.parse_args()

    here = Path(__file__).resolve().parents[1]
    builds = [Build("after", here, BENCH_DB)]
    if args.before:
        builds.insert(0, Build("before", args.before.resolve(), f"{BENCH_DB}_before"))
    with ExitStack() as stack:
        servers = []
        for build in builds:
            stack.callback(drop_database, build.database)
            url = migrated(build)
            prepared = asyncio.run(prepare(url, args.requests * args.rounds))
            servers.append((build, stack.enter_context(serving(url, cwd=build.home)), *prepared))
        for build, port, token, _run, _approvals in servers:
            print(f"{build.name} ({build.home}):")
            asyncio.run(under_pressure(port, token, logins=30, senders=30))
        if args.pressure_only:
            return
        print(
            f"{args.clients} concurrent clients, {args.requests} requests of each kind, loopback, "
            "one server a build"
        )
        for round_ in range(args.rounds):
            # Each build goes first in every other round: what the one before leaves the database doing
            # (its commits' flushes, autovacuum) then falls on both alike.
            for build, port, token, run_id, approvals in servers[:: 1 if round_ % 2 == 0 else -1]:
                mine = approvals[round_ * args.requests : (round_ + 1) * args.requests]
                asyncio.run(measure(build, port, token, run_id, mine, args))
        table(builds)


if __name__ == "__main__":
    main()
