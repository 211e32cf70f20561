"""A soak: the API, three workers and a steady mix of runs for a given time, with faults on purpose.

Run: `.venv/bin/python bench/soak.py [--minutes 10] [--rate 2]`. It starts a PostgreSQL of its own (the
embedded server, in a temporary folder: it restarts it once, half way, so it never touches a shared
server), `flowyard serve --no-worker` and three `flowyard worker` processes, and a local HTTP receiver.
Then, `--rate` times a second, it starts a run of one of three flows through the API:

- `http`: an http action against the receiver, then a log line;
- `delay`: a durable delay of two seconds, then a log line;
- `approval`: an approval that a client decides through the API as soon as it shows in the inbox, then
  an http action.
- `parallel` (issue 24): a `parallel` whose branches wait side by side, an approval (decided as above) in
  one and the two-second delay in the other, then the http action once both have ended.

Every minute it kills a random worker with SIGKILL and starts a new one. At the end it stops starting
runs, waits for every run to end, and prints throughput, latency percentiles, memory over time and the
invariants: no run lost or doubled, each approval decided once, every effect sent under one key, no wait
left, table rows per run steady. Nothing is asserted: the figures are for the record.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import asyncio
import os
import random
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import psycopg

from backend.flows.store import create_flow
from backend.people.accounts import Grant, add_user, create_token
from backend.store.database import ensure_database, with_database
from backend.store.migrations import migrate
from bench.common import free_port

TRIGGER = {"id": "start", "type": "trigger", "config": {"kind": "manual"}}
NOTE = {"id": "note", "type": "log", "config": {"message": "done"}}


def flows(hit: str) -> dict[str, dict[str, Any]]:
    call = {"id": "call", "type": "http", "config": {"method": "POST", "url": hit, "body": {"n": 1}}}
    # The soak's client starts and decides with one token: four eyes is off here, on purpose.
    ask = {
        "id": "ask",
        "type": "approval",
        "config": {"title": "Go?", "approvers": ["group:finance"], "allow_self_approval": True},
    }
    pause = {"id": "pause", "type": "delay", "config": {"duration": "PT2S"}}

    def doc(name: str, *nodes: dict[str, Any], wires: list[dict[str, str]]) -> dict[str, Any]:
        return {"format": "flowyard.flow/1", "name": name, "nodes": [TRIGGER, *nodes], "wires": wires}

    return {
        "http": doc(
            "http", call, NOTE, wires=[{"from": "start", "to": "call"}, {"from": "call", "to": "note"}]
        ),
        "delay": doc(
            "delay", pause, NOTE, wires=[{"from": "start", "to": "pause"}, {"from": "pause", "to": "note"}]
        ),
        "approval": doc(
            "approval",
            ask,
            call,
            wires=[{"from": "start", "to": "ask"}, {"from": "ask", "port": "approve", "to": "call"}],
        ),
        "parallel": doc(
            "parallel",
            {"id": "both", "type": "parallel", "config": {"wait": "all"}},
            ask,
            pause,
            call,
            wires=[
                {"from": "start", "to": "both"},
                {"from": "both", "port": "branches", "to": "ask"},
                {"from": "both", "port": "branches", "to": "pause"},
                {"from": "both", "port": "done", "to": "call"},
            ],
        ),
    }


class Receiver:
    """The http actions' destination: counts every request by its Idempotency-Key."""

    def __init__(self) -> None:
        self.keys: Counter[str] = Counter()
        lock, keys = threading.Lock(), self.keys

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with lock:
                    keys[self.headers.get("Idempotency-Key", "")] += 1
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"ok": true}')

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.http.daemon_threads = True
        self.port = self.http.server_address[1]
        threading.Thread(target=self.http.serve_forever, daemon=True).start()


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


class Soak:
    def __init__(self, minutes: float, rate: float, folder: Path) -> None:
        self.minutes, self.rate, self.folder = minutes, rate, folder
        self.receiver = Receiver()
        self.env = dict(
            os.environ,
            FLOWYARD_ACTIONS_ALLOW="127.0.0.1",
            FLOWYARD_LOG_FORMAT="json",
            FLOWYARD_LOG_LEVEL="WARNING",
        )
        self.workers: list[subprocess.Popen[str]] = []
        self.started: dict[int, str] = {}  # run id -> flow kind
        self.decisions: Counter[int] = Counter()  # approval id -> decisions that got 200
        self.client_errors = Counter[str]()
        self.samples: list[tuple[float, float, list[float], int]] = []  # t, api MB, workers MB, ended runs
        self.kills = 0

    def db(self, action: str) -> str:
        """`flowyard db ACTION` on the soak's own data folder, in a process of its own: the embedded
        server's handle is cached per process, so a stop and start in this one would not restart it."""
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        done = subprocess.run(
            [sys.executable, "-m", "backend.cli", "db", action],
            env={**env, "FLOWYARD_DATA_DIR": str(self.folder)},
            capture_output=True,
            text=True,
            check=True,
        )
        return done.stdout.strip()

    def setup(self) -> None:
        server = self.db("url")
        ensure_database(server, "soak")
        self.url = with_database(server, "soak")
        self.env["DATABASE_URL"] = self.url
        with psycopg.connect(self.url) as conn:
            migrate(conn)
        self.flow_ids, self.author, self.approver = asyncio.run(self._people_and_flows())

    async def _people_and_flows(self) -> tuple[dict[str, int], str, str]:
        async with await psycopg.AsyncConnection.connect(self.url, autocommit=True) as conn:
            await add_user(conn, "author", grants=[Grant.parse("edit"), Grant.parse("run")])
            await add_user(conn, "approver", grants=[Grant.parse("decide")], groups=["finance"])
            hit = f"http://127.0.0.1:{self.receiver.port}/hit"
            ids = {kind: await create_flow(conn, doc, by="soak") for kind, doc in flows(hit).items()}
            return ids, await create_token(conn, "author"), await create_token(conn, "approver")

    def spawn(self, *args: str) -> subprocess.Popen[str]:
        log = open(self.folder / f"{args[0]}-{time.monotonic_ns()}.log", "w")  # noqa: SIM115
        process = subprocess.Popen(
            [sys.executable, "-m", "backend.cli", *args],
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )
        assert process.stdout is not None
        assert "serving" in process.stdout.readline()
        return process

    async def run(self) -> None:
        port = free_port()
        self.api = self.spawn("serve", "--port", str(port), "--no-worker")
        self.workers = [self.spawn("worker") for _ in range(3)]
        self.base = f"http://127.0.0.1:{port}"
        started = time.monotonic()
        end = started + self.minutes * 60
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as client:
            deciding = asyncio.create_task(self._decide_forever(client))
            chaos = asyncio.create_task(self._chaos(started, end))
            sampling = asyncio.create_task(self._sample(started))
            starts: set[asyncio.Task[None]] = set()
            while time.monotonic() < end:
                kind = random.choice(list(self.flow_ids))
                starts.add(task := asyncio.create_task(self._start(client, kind)))
                task.add_done_callback(starts.discard)
                await asyncio.sleep(1 / self.rate)
            chaos.cancel()
            self.drain_started = time.monotonic()
            await self._until_all_ended(deadline=time.monotonic() + 180)
            self.drained_in = time.monotonic() - self.drain_started
            deciding.cancel()
            sampling.cancel()
        self.elapsed = time.monotonic() - started

    async def _start(self, client: httpx.AsyncClient, kind: str) -> None:
        try:
            answer = await client.post(
                f"/api/flows/{self.flow_ids[kind]}/runs",
                json={"input": {}},
                headers={"Authorization": f"Bearer {self.author}"},
            )
        except httpx.HTTPError as exc:
            self.client_errors[f"start: {type(exc).__name__}"] += 1
            return
        if answer.status_code == 201:
            self.started[answer.json()["run"]] = kind
        else:
            self.client_errors[f"start: {answer.status_code}"] += 1

    async def _decide_forever(self, client: httpx.AsyncClient) -> None:
        headers = {"Authorization": f"Bearer {self.approver}"}
        while True:
            try:
                inbox = await client.get("/api/approvals", params={"limit": 100}, headers=headers)
                for approval in inbox.json().get("approvals", []) if inbox.status_code == 200 else []:
                    decided = await client.post(
                        f"/api/approvals/{approval['id']}/decision",
                        json={"outcome": "approve"},
                        headers=headers,
                    )
                    if decided.status_code == 200:
                        self.decisions[approval["id"]] += 1
                    else:
                        self.client_errors[f"decide: {decided.status_code}"] += 1
            except httpx.HTTPError as exc:
                self.client_errors[f"decide: {type(exc).__name__}"] += 1
            await asyncio.sleep(0.5)

    async def _chaos(self, started: float, end: float) -> None:
        """A random worker killed every minute; PostgreSQL restarted once, half way."""
        restart_at = started + (end - started) / 2
        restarted = False
        next_kill = started + 60
        while True:
            await asyncio.sleep(1)
            now = time.monotonic()
            if not restarted and now >= restart_at:
                restarted = True
                t0 = time.monotonic()
                await asyncio.to_thread(self.db, "stop")
                await asyncio.to_thread(self.db, "url")
                print(f"  restarted PostgreSQL at {now - started:.0f} s ({time.monotonic() - t0:.1f} s down)")
            if now >= next_kill:
                next_kill += 60
                victim = random.randrange(len(self.workers))
                self.workers[victim].send_signal(signal.SIGKILL)
                self.workers[victim].wait()
                self.workers[victim] = await asyncio.to_thread(self.spawn, "worker")
                self.kills += 1
                print(f"  killed worker {victim} at {now - started:.0f} s")

    async def _sample(self, started: float) -> None:
        while True:
            ended = await asyncio.to_thread(self._ended_count)
            workers = [rss_mb(w.pid) for w in self.workers if w.poll() is None]
            self.samples.append((time.monotonic() - started, rss_mb(self.api.pid), workers, ended))
            await asyncio.sleep(30)

    def _ended_count(self) -> int:
        try:
            with psycopg.connect(self.url, connect_timeout=5) as conn:
                row = conn.execute("SELECT count(*) FROM runs WHERE ended_at IS NOT NULL").fetchone()
                return int(row[0]) if row else -1
        except psycopg.Error:
            return -1

    async def _until_all_ended(self, deadline: float) -> None:
        while time.monotonic() < deadline:
            await asyncio.sleep(1)
            if not self.started:
                return
            with psycopg.connect(self.url) as conn:
                row = conn.execute(
                    "SELECT count(*) FROM runs WHERE id = ANY(%s) AND ended_at IS NULL", (list(self.started),)
                ).fetchone()
            if row == (0,):
                return

    def stop(self) -> None:
        for process in [self.api, *self.workers]:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in [self.api, *self.workers]:
            process.wait(timeout=120)
        self.db("stop")

    def report(self) -> None:
        with psycopg.connect(self.url) as conn:

            def one(sql: str, *params: Any) -> Any:
                row = conn.execute(sql, params).fetchone()
                return row[0] if row else None

            ids = list(self.started)
            runs = conn.execute(
                "SELECT id, status, extract(epoch FROM ended_at - created_at) FROM runs WHERE id = ANY(%s)",
                (ids,),
            ).fetchall()
            succeeded_lines: dict[int, int] = dict(
                conn.execute(
                    "SELECT run_id, count(*) FROM journal WHERE code = 'run_succeeded' AND run_id = ANY(%s)"
                    " GROUP BY run_id",
                    (ids,),
                ).fetchall()
            )
            keys = conn.execute("SELECT run_id, key FROM effects WHERE run_id = ANY(%s)", (ids,)).fetchall()
            approvals = conn.execute(
                "SELECT id, outcome FROM approvals WHERE run_id = ANY(%s)", (ids,)
            ).fetchall()
            tables = {
                name: one(f"SELECT count(*) FROM {name}")  # our own table names
                for name in ("runs", "journal", "waits", "effects", "approvals", "workers")
            }
        by_status = Counter(status for _, status, _ in runs)
        print(
            f"\nsoak: {self.minutes} min at {self.rate} runs/s, {self.kills} workers killed,"
            " PostgreSQL restarted once"
        )
        print(
            f"runs started: {len(ids)} ({dict(Counter(self.started.values()))}); by status: {dict(by_status)}"
        )
        print(
            f"throughput: {len(ids) / self.elapsed:.2f} runs/s ended over {self.elapsed:.0f} s"
            f" (drain {self.drained_in:.0f} s)"
        )
        for kind in ("http", "delay", "approval", "parallel"):
            took = sorted(float(t) for rid, _, t in runs if self.started[rid] == kind and t is not None)
            if took:
                q = statistics.quantiles(took, n=100, method="inclusive") if len(took) > 1 else [took[0]] * 99
                print(
                    f"latency {kind:8} start->end: p50 {q[49]:.2f} s  p90 {q[89]:.2f} s"
                    f"  p99 {q[98]:.2f} s  max {took[-1]:.2f} s"
                )
        print("memory (RSS MB) over time: t, api, workers, runs ended")
        for t, api_mb, workers_mb, ended in self.samples:
            print(
                f"  {t:6.0f} s  api {api_mb:6.1f}"
                f"  workers {' '.join(f'{m:6.1f}' for m in workers_mb)}  ended {ended}"
            )
        print(f"client errors (during the restart and kills): {dict(self.client_errors) or 'none'}")
        lost = [rid for rid in ids if rid not in {r[0] for r in runs}]
        unended = [rid for rid, status, _ in runs if status not in ("succeeded", "failed")]
        doubled = [rid for rid, n in succeeded_lines.items() if n != 1]
        per_run_keys = Counter(rid for rid, _ in keys)
        two_keys = [rid for rid, n in per_run_keys.items() if n != 1]
        expected_keys = sum(1 for kind in self.started.values() if kind != "delay")
        sent_keys = {key for _, key in keys}
        unsent = [key for key in sent_keys if self.receiver.keys[key] == 0]
        resent = sum(1 for key in sent_keys if self.receiver.keys[key] > 1)
        twice = [aid for aid, n in self.decisions.items() if n != 1]
        print("invariants:")
        print(f"  runs lost (started, not in the database): {len(lost)}")
        print(f"  runs not ended after the drain: {len(unended)}; failed: {by_status.get('failed', 0)}")
        print(f"  runs with other than one run_succeeded line: {len(doubled)}")
        print(
            f"  effects: {len(keys)} for {expected_keys} action visits;"
            f" runs with other than one key: {len(two_keys)}"
        )
        print(f"  effects never received: {len(unsent)}; received more than once under their key: {resent}")
        asking = sum(kind in ("approval", "parallel") for kind in self.started.values())
        print(
            f"  approvals: {len(approvals)} for {asking} runs; "
            f"decided {dict(Counter(o for _, o in approvals))}; decided twice by the client: {len(twice)}"
        )
        print(
            f"  tables at the end: {tables} (waits must be 0;"
            " workers: the live ones and the killed ones not forgotten yet)"
        )
        print(f"  journal lines per run: {tables['journal'] / max(tables['runs'], 1):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--rate", type=float, default=2, help="runs started per second")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="flowyard-soak-") as folder:
        soak = Soak(args.minutes, args.rate, Path(folder))
        soak.setup()
        try:
            asyncio.run(soak.run())
            soak.report()
        finally:
            soak.stop()


if __name__ == "__main__":
    main()
