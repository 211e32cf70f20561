"""DBOS Transact beside bench/decisions.py: N workflows parked at `DBOS.recv("decision")`, then S senders
each sending an equal share of the N decisions (`DBOSClient.send`), timed from the release to the last
workflow's end. It runs in the peers' venv (bench/peers.py makes it), never the project's:
  $FLOWYARD_PEERS_HOME/venv/bin/python bench/decisions_dbos.py --url URL --items N --senders S --workers W

Setup, untimed: a fresh database; `dbos migrate`; N workflows enqueued on a DBOS queue in one transaction,
run by W worker processes launched with DBOS's defaults (no queue limits, 1 s queue poll, LISTEN/NOTIFY
for messages) up to their recv (parked: recv has written its durable timeout, an operation_outputs row
'DBOS.sleep'). A workflow blocked in recv holds a thread of its process. The one change from DBOS's
defaults: recv's timeout is a day, not 60 s. Senders are threads, each with a DBOSClient of its own, in
min(S, cores) processes. Result line: dbos senders=S workers=W items=N seconds=T per_s=R
"""

from __future__ import annotations

import sys
from pathlib import Path

# The repository, in place of this folder: bench/queue.py would otherwise shadow the stdlib's queue.
sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import logging
import multiprocessing
import os
import subprocess
import threading
import time
from typing import Any
from urllib.parse import urlsplit

import psycopg
from dbos import DBOS, DBOSClient  # type: ignore[import-not-found]

from bench.processes import ended, held

QUEUE = "bench_decisions"
BUSY = (
    f"SELECT EXISTS (SELECT FROM dbos.workflow_status WHERE queue_name = '{QUEUE}'"
    " AND status IN ('ENQUEUED', 'PENDING'))"
)
PARKED = (
    "SELECT count(*) FROM dbos.operation_outputs o JOIN dbos.workflow_status s USING (workflow_uuid)"
    f" WHERE s.queue_name = '{QUEUE}' AND o.function_name = 'DBOS.sleep'"
)
SETTLED = 0


@DBOS.step()  # type: ignore[untyped-decorator]
def settle(decision: str) -> None:
    global SETTLED
    SETTLED += 1


@DBOS.workflow()  # type: ignore[untyped-decorator]
def approval_workflow(n: int) -> None:
    decision = DBOS.recv("decision", timeout_seconds=86400)
    if decision is None:
        raise RuntimeError("no decision")
    settle(decision)


def alchemy(url: str) -> str:
    return url.replace("postgresql://", "postgresql+psycopg://", 1)


def prepare(url: str, items: int) -> None:
    import sqlalchemy as sa  # type: ignore[import-not-found]

    dbos = os.path.join(os.path.dirname(sys.executable), "dbos")
    subprocess.run([dbos, "migrate", "-s", alchemy(url)], check=True, capture_output=True)
    client = DBOSClient(system_database_url=alchemy(url))
    engine = sa.create_engine(alchemy(url))
    try:
        with engine.begin() as conn:
            for n in range(items):
                client.enqueue_in_transaction(
                    conn, {"queue_name": QUEUE, "workflow_name": "approval_workflow"}, n
                )
    finally:
        engine.dispose()
        client.destroy()


def work(url: str, ready: Any, stop: Any, settled: Any) -> None:
    DBOS(config={"name": "bench", "system_database_url": alchemy(url), "log_level": "WARNING"})
    logging.getLogger("dbos").setLevel(logging.WARNING)
    DBOS.launch()
    DBOS.register_queue(QUEUE)
    ready.wait()
    stop.wait()
    DBOS.destroy()
    with settled.get_lock():
        settled.value += SETTLED


def send(url: str, targets: list[list[str]], ready: Any) -> None:
    clients = [DBOSClient(system_database_url=alchemy(url)) for _ in targets]
    for client, share in zip(clients, targets, strict=True):
        if share:
            client.send(share[0], "warm-up", topic="warm-up")  # the client's pool connects before the clock

    def decide(client: Any, share: list[str]) -> None:
        for workflow in share:
            client.send(workflow, "approved", topic="decision")

    threads = [threading.Thread(target=decide, args=pair) for pair in zip(clients, targets, strict=True)]
    ready.wait()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for client in clients:
        client.destroy()


def drain(url: str, items: int, senders: int, workers: int) -> float:
    context = multiprocessing.get_context("spawn")
    ready, stop, settled = context.Barrier(workers + 1), context.Event(), context.Value("q", 0)
    processes = [context.Process(target=work, args=(url, ready, stop, settled)) for _ in range(workers)]
    for process in processes:
        process.start()
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            ready.wait(timeout=120)
            started = time.perf_counter()
            while (parked := conn.execute(PARKED).fetchone()) != (items,):
                if (
                    not all(process.is_alive() for process in processes)
                    or time.perf_counter() - started > 900
                ):
                    raise SystemExit(f"dbos: only {parked} of {items} parked")
                time.sleep(0.05)
            print(f"# dbos: parking {items} took {time.perf_counter() - started:.1f} s", flush=True)
            threads, rss = held(process.pid for process in processes)
            print(f"# dbos: {items} waiting hold {threads} threads and {rss:.0f} MB in {workers} processes")
            conn.execute("ANALYZE")
            ids = [
                row[0]
                for row in conn.execute("SELECT workflow_uuid FROM dbos.workflow_status ORDER BY created_at")
            ]
            count = min(senders, os.cpu_count() or 1)
            go = context.Barrier(count + 1)
            shares = [[ids[k::senders] for k in range(first, senders, count)] for first in range(count)]
            sending = [context.Process(target=send, args=(url, share, go)) for share in shares]
            for process in sending:
                process.start()
            go.wait(timeout=120)
            started = time.perf_counter()
            while conn.execute(BUSY).fetchone() == (True,):
                time.sleep(0.01)
            seconds = time.perf_counter() - started
        for process in sending:
            process.join(timeout=60)
    finally:
        ended(stop, processes)
    if settled.value != items:
        print(f"# WARNING: dbos settled {settled.value} of {items}", flush=True)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="the server, as a postgresql:// URL")
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--senders", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    name = f"bench_decisions_dbos_{os.getpid()}"
    with psycopg.connect(args.url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = urlsplit(args.url)._replace(path="/" + name).geturl()
    try:
        prepare(url, args.items)
        seconds = drain(url, args.items, args.senders, args.workers)
    finally:
        with psycopg.connect(args.url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(
        f"dbos senders={args.senders} workers={args.workers} items={args.items}"
        f" seconds={seconds:.3f} per_s={args.items / seconds:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
