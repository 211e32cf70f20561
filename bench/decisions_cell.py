"""One measurement of bench/decisions.py, in a process of its own: the checkout it measures is imported
here, never by the parent, so that `--checkout` puts another copy of the project beside this one.

Run by bench/decisions.py as `python bench/decisions_cell.py --checkout PATH --url URL ...`; it prints
`#` lines and one result line the parent reads:
  decisions mode=M senders=S workers=W items=N seconds=T per_s=R
  counts mode=M senders=S workers=W items=N decide=D worker=K claims=C   (with --count: per decision)
  latency workers=W load=L samples=N p50_ms=A p99_ms=B                   (with --latency)
"""

from __future__ import annotations

import sys
from pathlib import Path

# This folder, in place of the repository: bench/queue.py would otherwise shadow the stdlib's queue.
sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import asyncio
import multiprocessing
import os
import time
from typing import Any

import psycopg

from bench.decisions_log import ServerLog, statement_counts
from bench.decisions_parts import (
    BUSY,
    FLOW,
    PARKED,
    SENDER_NAME,
    fresh_database,
    parked_runs,
    percentile,
    sender_processes,
    served,
    work,
)
from bench.processes import ended, held

POLL_S = 0.01


def setup(checkout: str, url: str, items: int, users: int, extra_flow: dict[str, Any] | None = None) -> int:
    """Migrate, save the approval flow, add `users` deciders (group finance, the decide right) and park
    `items` runs of it as due start waits; the id of `extra_flow` when one is given (else 0)."""
    sys.path.insert(0, checkout)
    from backend.flows.store import create_flow
    from backend.people.accounts import Grant, add_user
    from backend.store.migrations import migrate

    with psycopg.connect(url) as conn:
        migrate(conn)

    async def save() -> tuple[int, int]:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            for number in range(users):
                await add_user(
                    conn,
                    f"{SENDER_NAME}{number}",
                    grants=[Grant.parse("decide")],
                    groups=["finance"],
                    password=SENDER_NAME,
                )
            flow = await create_flow(conn, FLOW, by="bench")
            other = await create_flow(conn, extra_flow, by="bench") if extra_flow else 0
            return flow, other

    flow_id, other_id = asyncio.run(save())
    parked_runs(url, flow_id, items)
    return other_id


class Workers:
    """W worker processes, each one Worker at the CLI's concurrency, released together once all started;
    they stop when told to (`stop`), never on their own: the latency pass keeps them while idle."""

    def __init__(self, url: str, count: int, checkout: str) -> None:
        context = multiprocessing.get_context("spawn")
        self.ready = context.Barrier(count + 1)
        self.stop = context.Event()
        self.processes = [
            context.Process(target=work, args=(url, self.ready, self.stop, checkout)) for _ in range(count)
        ]
        for process in self.processes:
            process.start()
        self.ready.wait(timeout=120)

    def alive(self) -> bool:
        return all(process.is_alive() for process in self.processes)

    def end(self) -> None:
        ended(self.stop, self.processes)


def wait_parked(conn: psycopg.Connection[Any], items: int, workers: Workers) -> None:
    started = time.perf_counter()
    while (parked := conn.execute(PARKED).fetchone()) != (items,):
        if not workers.alive():
            raise SystemExit(f"a worker process exited with {parked} of {items} parked")
        time.sleep(0.05)
    conn.execute("ANALYZE")
    print(f"# parking {items} runs at their approval took {time.perf_counter() - started:.1f} s", flush=True)
    threads, rss = held(process.pid for process in workers.processes)
    print(f"# {items} waiting runs: their workers hold {threads} threads and {rss:.0f} MB", flush=True)


def throughput(args: argparse.Namespace, url: str, log: ServerLog | None) -> None:
    """Park N runs at their approval (untimed), release S senders, time until no wait is left."""
    setup(args.checkout, url, args.items, args.senders)
    workers = Workers(url, args.workers, args.checkout)
    with (
        served(url, args.checkout, args.mode == "api") as port,
        psycopg.connect(url, autocommit=True) as conn,
    ):
        conn.execute("SET application_name = 'bench-poll'")
        wait_parked(conn, args.items, workers)
        senders = sender_processes(url, args.mode, args.senders, port, args.checkout)
        senders.ready.wait(timeout=300)
        if log:
            log.mark(conn, "start")
        started = time.perf_counter()
        while conn.execute(BUSY).fetchone() == (True,):
            if not workers.alive():
                raise SystemExit("a worker process exited with runs unfinished")
            time.sleep(POLL_S)
        seconds = time.perf_counter() - started
        if log:
            roles: dict[int, str] = dict(
                conn.execute("SELECT pid, application_name FROM pg_stat_activity").fetchall()
            )
            log.mark(conn, "end")
        senders.end()
        errors = senders.errors.value
        done = conn.execute("SELECT count(*) FROM runs WHERE status = 'succeeded'").fetchone()
    workers.end()
    if errors or done != (args.items,):
        print(f"# WARNING: {errors} decisions refused; {done[0] if done else 0} of {args.items} succeeded")
    cell = f"mode={args.mode} senders={args.senders} workers={args.workers} items={args.items}"
    if log:
        decide, worker, claims, other = statement_counts(log.window(), roles)
        n = args.items
        print(f"# statements not of a sender, the API or a worker: {other}", flush=True)
        print(f"counts {cell} decide={decide / n:.2f} worker={worker / n:.2f} claims={claims / n:.2f}")
    else:
        print(f"decisions {cell} seconds={seconds:.3f} per_s={args.items / seconds:.1f}", flush=True)


def latency(args: argparse.Namespace, url: str) -> None:
    """Decide-to-resume, one decision at a time with a pause: alone, then beside a stream of other
    resumes (two-node runs parked as due start waits, fed at --background runs per second)."""
    from bench.decisions_parts import Feeder
    from bench.peers import TWO_NODES

    samples = args.latency
    background = setup(args.checkout, url, 2 * samples, 1, TWO_NODES)
    workers = Workers(url, args.workers, args.checkout)
    sys.path.insert(0, args.checkout)
    from backend.approvals.decisions import ApprovalDecisions

    async def decide(ids: list[int]) -> None:
        service = ApprovalDecisions()
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            for approval_id in ids:
                await service.decide(conn, approval_id, "approved", by=f"{SENDER_NAME}0", comment=None)
                await asyncio.sleep(args.pause)

    with psycopg.connect(url, autocommit=True) as conn:
        wait_parked(conn, 2 * samples, workers)
        ids = [row[0] for row in conn.execute("SELECT id FROM approvals ORDER BY id").fetchall()]
        for load, share in (("none", ids[:samples]), (f"{args.background}/s", ids[samples:])):
            feeder = Feeder(url, background, args.background) if load != "none" else None
            asyncio.run(decide(share))
            while conn.execute(
                "SELECT EXISTS (SELECT FROM approvals a JOIN runs r ON r.id = a.run_id"
                " WHERE a.id = ANY(%s) AND r.ended_at IS NULL)",
                (share,),
            ).fetchone() == (True,):
                time.sleep(POLL_S)
            if feeder:
                print(f"# background: {feeder.end():.0f} runs per second fed", flush=True)
            rows = conn.execute(
                "SELECT extract(epoch FROM r.ended_at - a.decided_at) * 1000 FROM approvals a"
                " JOIN runs r ON r.id = a.run_id WHERE a.id = ANY(%s)",
                (share,),
            ).fetchall()
            spans = sorted(float(row[0]) for row in rows)
            print(
                f"latency workers={args.workers} load={load} samples={len(spans)}"
                f" p50_ms={percentile(spans, 50):.1f} p99_ms={percentile(spans, 99):.1f}",
                flush=True,
            )
    workers.end()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", required=True)
    parser.add_argument("--url", required=True, help="the server (any database on it)")
    parser.add_argument("--mode", choices=("service", "api"), default="service")
    parser.add_argument("--senders", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--count", action="store_true", help="count statements from the server log")
    parser.add_argument("--latency", type=int, default=0, help="decide-to-resume samples per load")
    parser.add_argument("--pause", type=float, default=0.05)
    parser.add_argument("--background", type=int, default=1000)
    args = parser.parse_args()
    name = f"bench_decisions_{os.getpid()}"
    log = ServerLog(args.url, name) if args.count else None
    with fresh_database(args.url, name, log_statements=args.count) as url:
        if args.latency:
            latency(args, url)
        else:
            throughput(args, url, log)


if __name__ == "__main__":
    main()
