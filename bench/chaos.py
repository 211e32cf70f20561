"""The kill bench: runs drained by workers that are SIGKILLed at random, with or without a poison run.

Run: `.venv/bin/python bench/chaos.py [--runs 300] [--workers 4] [--lease 2] [--poison] [--checkout PATH]`
(DATABASE_URL, or the embedded server). It makes a database of its own (`flowyard_bench_chaos`), starts
`--runs` runs of a flow that calls a local HTTP receiver (answering after 0 to 300 ms) and writes a log
line, and drains them with `--workers` worker processes (concurrency 10, lease `--lease` s) while a random
worker is SIGKILLed every 0.2 to 1.5 s and started again (a kill waits until every worker of the crew is
serving: on a small machine kills faster than workers start would leave none serving). `--poison`: one
more run kills every worker that walks it (`flowyard worker --fault-poison-run`). `--checkout PATH`: the
workers (and the migrations) of another checkout, to compare with an earlier commit.

Every claim and every claim given back after its lease is recorded by a trigger of this database only,
with the worker that held it, so it prints: the kills (by the bench, by the poison), the claims lost with
each kill, the claims lost by workers that were never killed (a live worker must never lose one), and the
runs by status, `claim_abandoned` stops apart. Nothing is asserted: the figures are for the record
(docs/crashes.md). The database is left for a look (`bench_claims`); the next run drops it.
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
import subprocess
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import psycopg

from backend.flows.store import create_flow
from bench.common import fresh_database

DATABASE = "flowyard_bench_chaos"
SETTLED = ["succeeded", "failed", "stopped", "cancelled"]

# The bench's own record of claims, in its own database: not the product's schema.
RECORDING = """
CREATE TABLE bench_claims (wait_id bigint, run_id bigint, worker text, attempts integer, given_back boolean,
                           at timestamptz DEFAULT clock_timestamp());
CREATE FUNCTION bench_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.status = 'waiting' AND NEW.status = 'claimed' THEN
        INSERT INTO bench_claims (wait_id, run_id, worker, attempts, given_back)
        VALUES (NEW.id, NEW.run_id, NEW.claimed_by, NEW.attempts, false);
    ELSIF OLD.status = 'claimed' AND NEW.status = 'waiting' AND NEW.claimed_by IS NULL
          AND NEW.attempts = OLD.attempts AND NEW.wake_at = OLD.wake_at
          AND NEW.last_error IS NOT DISTINCT FROM OLD.last_error THEN
        INSERT INTO bench_claims (wait_id, run_id, worker, attempts, given_back)
        VALUES (OLD.id, OLD.run_id, OLD.claimed_by, OLD.attempts, true);
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER bench_record BEFORE UPDATE ON waits FOR EACH ROW EXECUTE FUNCTION bench_record();
"""


def flow(hit: str) -> dict[str, Any]:
    return {
        "format": "flowyard.flow/1",
        "name": "chaos",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "call", "type": "http", "config": {"method": "POST", "url": hit, "body": {"n": 1}}},
            {"id": "note", "type": "log", "config": {"message": "done"}},
        ],
        "wires": [{"from": "start", "to": "call"}, {"from": "call", "to": "note"}],
    }


def receiver() -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            time.sleep(random.uniform(0, 0.3))  # a server that takes its time: walks overlap the kills
            try:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b'{"ok": true}')
            except OSError:
                pass  # its worker was killed while it waited: the answer has nobody to go to

        def log_message(self, format: str, *args: Any) -> None:
            pass

    http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    http.daemon_threads = True
    threading.Thread(target=http.serve_forever, daemon=True).start()
    return http


class Crew:
    def __init__(self, args: argparse.Namespace, url: str, poison: int | None, logs: Path) -> None:
        self.args, self.logs = args, logs
        self.env = dict(
            os.environ, DATABASE_URL=url, FLOWYARD_ACTIONS_ALLOW="127.0.0.1", FLOWYARD_LOG_LEVEL="WARNING"
        )
        self.extra = ["--fault-poison-run", str(poison)] if poison is not None else []
        self.alive: list[subprocess.Popen[bytes]] = []
        self.killed: set[int] = set()  # pids the bench killed
        self.poisoned: set[int] = set()  # pids that died by themselves (the poison)
        self.started = 0

    def start(self) -> None:
        self.started += 1
        log = (self.logs / f"worker-{self.started}.log").open("wb")
        command = [sys.executable, "-m", "backend.cli", "worker", "--concurrency", "10"]
        self.alive.append(
            subprocess.Popen(
                [*command, "--lease", str(self.args.lease), *self.extra],
                env=self.env,
                cwd=self.args.checkout,
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        )
        log.close()

    def replace_dead(self) -> None:
        for process in list(self.alive):
            if process.poll() is not None:
                self.alive.remove(process)
                if process.pid not in self.killed:
                    self.poisoned.add(process.pid)
                self.start()

    def kill_one(self, url: str) -> bool:
        """A random worker, once every worker of the crew is serving (it said so in the workers table):
        killing workers still importing would lose no claim and measure nothing, and on a small machine
        kills faster than workers start leave no worker serving at all. False: not yet."""
        with psycopg.connect(url, autocommit=True) as conn:
            names = [row[0] for row in conn.execute("SELECT name FROM workers").fetchall()]
        serving = {int(name.split("/")[1]) for name in names}
        ready = [process for process in self.alive if process.pid in serving and process.poll() is None]
        if len(ready) < self.args.workers:
            return False
        victim = random.choice(ready)
        self.killed.add(victim.pid)
        victim.send_signal(signal.SIGKILL)
        victim.wait()
        return True

    def stop(self) -> None:
        for process in self.alive:
            process.send_signal(signal.SIGTERM)
        for process in self.alive:
            process.wait(timeout=120)


def unsettled(url: str, ids: list[int]) -> int:
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT count(*) FROM runs WHERE id = ANY(%s) AND status <> ALL(%s)", (ids, SETTLED)
        ).fetchone()
    return int(row[0]) if row else -1


async def save(url: str, document: dict[str, Any]) -> int:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        return await create_flow(conn, document, by="bench")


def prepare(args: argparse.Namespace, hit: str) -> tuple[str, list[int], int | None]:
    if args.checkout is None:
        url = fresh_database(DATABASE)
    else:
        url = fresh_database(DATABASE, migrate_it=False)
        subprocess.run(
            [sys.executable, "-m", "backend.cli", "migrate"],
            env=dict(os.environ, DATABASE_URL=url),
            cwd=args.checkout,
            check=True,
            capture_output=True,
        )
    flow_id = asyncio.run(save(url, flow(hit)))
    with psycopg.connect(url) as conn:
        conn.execute(RECORDING)
        count = args.runs + (1 if args.poison else 0)
        ids = [
            row[0]
            for row in conn.execute(
                "INSERT INTO runs (flow_id, version, status, trigger_kind)"
                " SELECT %s, 1, 'waiting', 'manual' FROM generate_series(1, %s) RETURNING id",
                (flow_id, count),
            )
        ]
        conn.execute(
            "INSERT INTO waits (run_id, kind, wake_at) SELECT unnest(%s::bigint[]), 'start', now()", (ids,)
        )
    return url, ids, ids[0] if args.poison else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=300)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--lease", type=float, default=2.0)
    parser.add_argument("--poison", action="store_true", help="one more run, that kills its worker")
    parser.add_argument("--checkout", type=Path, default=None, help="the workers of another checkout")
    parser.add_argument("--logs", type=Path, default=None, help="keep the workers' logs in this folder")
    args = parser.parse_args()
    http = receiver()
    url, ids, poison = prepare(args, f"http://127.0.0.1:{http.server_address[1]}/hit")
    began = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="flowyard-chaos-") as folder:
        crew = Crew(args, url, poison, args.logs or Path(folder))
        for _ in range(args.workers):
            crew.start()
        try:
            next_kill = time.monotonic() + random.uniform(0.2, 1.5)
            while unsettled(url, ids) and time.monotonic() - began < 600:
                crew.replace_dead()
                if time.monotonic() >= next_kill and crew.kill_one(url):
                    crew.replace_dead()
                    next_kill = time.monotonic() + random.uniform(0.2, 1.5)
                time.sleep(0.05)  # the bench's own pace between looks
        finally:
            crew.stop()
    report(url, ids, poison, crew, time.monotonic() - began)


def report(url: str, ids: list[int], poison: int | None, crew: Crew, took: float) -> None:
    with psycopg.connect(url) as conn:
        rows = conn.execute("SELECT worker, given_back FROM bench_claims").fetchall()
        lost_alive = [
            (name, claimed, given_back)
            for name, claimed, given_back in conn.execute(
                "SELECT g.worker, c.at, g.at FROM bench_claims AS g JOIN bench_claims AS c"
                " ON c.wait_id = g.wait_id AND c.attempts = g.attempts AND c.worker = g.worker"
                " AND NOT c.given_back WHERE g.given_back ORDER BY g.at"
            ).fetchall()
            if name and int(name.split("/")[1]) not in crew.killed | crew.poisoned
        ]
        statuses = conn.execute("SELECT id, status, error FROM runs WHERE id = ANY(%s)", (ids,)).fetchall()
    pid = {name: int(name.split("/")[1]) for name, _ in rows if name}
    claims = sum(1 for _, given_back in rows if not given_back)
    lost = Counter(
        "killed" if pid[name] in crew.killed else "poison" if pid[name] in crew.poisoned else "alive"
        for name, given_back in rows
        if given_back
    )
    others = [(status, error) for run, status, error in statuses if run != poison]
    print(f"chaos: {len(ids)} runs, {crew.started} workers started, {took:.0f} s")
    print(f"kills: {len(crew.killed)} by the bench, {len(crew.poisoned)} by the poison run")
    print(f"claims: {claims}; given back after their lease: {sum(lost.values())}")
    kills = len(crew.killed) + len(crew.poisoned)
    per_kill = (lost["killed"] + lost["poison"]) / kills if kills else 0.0
    print(f"claims lost per kill: {per_kill:.1f}; claims lost by workers never killed: {lost['alive']}")
    for name, claimed, given_back in lost_alive:
        print(f"  lost by {name}: claimed at {claimed:%H:%M:%S.%f}, given back at {given_back:%H:%M:%S.%f}")
    print(f"runs (the poison apart): {dict(Counter(status for status, _ in others))}")
    abandoned = sum(1 for status, error in others if status == "stopped" and error == "claim_abandoned")
    print(f"runs stopped with claim_abandoned (the poison apart): {abandoned}")
    if poison is not None:
        print(f"the poison run: {next((s, e) for run, s, e in statuses if run == poison)}")


if __name__ == "__main__":
    main()
