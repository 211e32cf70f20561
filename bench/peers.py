"""Flowyard's workers beside the fastest PostgreSQL job queues, drained side by side in one run.

Run: `.venv/bin/python bench/peers.py [--items 5000] [--rounds 3] [--workers 1 4]` (DATABASE_URL, or the
embedded server). It asserts nothing: it prints one line per drain, then a table of medians and the ratios
the throughput issue asks for.

- The peers, pgqueuer (asyncpg, its defaults: ten jobs per dequeue, completions flushed in batches) and
  procrastinate (its defaults: one job per fetch, one worker per process), drain N no-op jobs. They are
  not project dependencies: they live in a venv of their own, `$FLOWYARD_PEERS_HOME/venv` (default
  /tmp/flowyard-peers), made and filled with pip on the first run.
- Flowyard drains N runs of a two-node flow (trigger -> log), parked as due start waits, and N runs of
  the invoice flow (trigger -> short delay -> approval whose short deadline takes the approve exit ->
  log: three resumes per run), each process running one `Worker` at the CLI's concurrency.
- `--checkout PATH` measures another copy of the project as well (e.g. `git archive` of an older commit),
  on this venv: before and after in the same run, on the same server.

Every drain gets a fresh database on the same server, its own schema with its defaults, N items enqueued
in one statement and ANALYZE before the clock starts. W processes are released together by a barrier;
the clock stops when a poller (10 ms) first sees nothing unfinished, i.e. the last completion committed.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The repository, in place of this folder: bench/queue.py would otherwise shadow the stdlib's queue.
sys.path[0] = str(REPO)

import argparse
import asyncio
import json
import multiprocessing
import os
import re
import resource
import statistics
import subprocess
import time
import venv
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import psycopg

PEERS_HOME = Path(os.environ.get("FLOWYARD_PEERS_HOME", "/tmp/flowyard-peers"))
# The versions the figures were measured with.
PEER_PACKAGES = (
    "pgqueuer==1.6.0",
    "asyncpg==0.32.0",
    "procrastinate==3.10.0",
    "psycopg[binary,pool]==3.3.9",
    "dbos==3.4.0",
)
POLL_S = 0.01
RESULT = re.compile(r"^(\S+) items=(\d+) workers=(\d+) seconds=([\d.]+) per_s=([\d.]+)")
CPU = re.compile(r" clients_ms=([\d.]+) server_ms=([\d.]+)$")
TICKS_PER_S = os.sysconf("SC_CLK_TCK")

TWO_NODES = {
    "format": "flowyard.flow/1",
    "name": "noop",
    "nodes": [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
        {"id": "note", "type": "log", "config": {"message": "n={{trigger.n}}"}},
    ],
    "wires": [{"from": "start", "to": "note"}],
}
INVOICE = {
    "format": "flowyard.flow/1",
    "name": "invoice",
    "nodes": [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
        {"id": "settle", "type": "delay", "config": {"duration": "PT0.01S"}},
        {
            "id": "sign",
            "type": "approval",
            "config": {
                "title": "Invoice {{trigger.n}}",
                "approvers": ["group:finance"],
                "deadline": "PT0.01S",
                "on_timeout": "approve",
            },
        },
        {"id": "paid", "type": "log", "config": {"message": "invoice {{trigger.n}} approved"}},
        {"id": "held", "type": "log", "config": {"message": "invoice {{trigger.n}} rejected"}},
    ],
    "wires": [
        {"from": "start", "to": "settle"},
        {"from": "settle", "to": "sign"},
        {"from": "sign", "port": "approve", "to": "paid"},
        {"from": "sign", "port": "reject", "to": "held"},
    ],
}


# ---- one timed drain (runs in the peers' venv for the peers, in the project's venv for Flowyard) ----


def with_database(url: str, name: str) -> str:
    return urlsplit(url)._replace(path="/" + name).geturl()


def busy_fraction(before: list[int], after: list[int]) -> float:
    """How busy the machine's CPUs were between two /proc/stat readings (idle and iowait are not busy)."""
    delta = [b - a for a, b in zip(before, after, strict=True)]
    total = sum(delta)
    return (total - delta[3] - delta[4]) / max(total, 1)


def _proc_stat(pid: int) -> list[str]:
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rpartition(")")[2].split()  # the fields after the command's name


def server_cpu_seconds(conn: psycopg.Connection[Any]) -> float:
    """CPU seconds the PostgreSQL server (on this machine) has spent so far: its postmaster's own and that
    of every process it has reaped (cutime, cstime: backends that ended, whole), plus every process still
    running under it. Read at a drain's start and end, the difference is what the server spent meanwhile
    for every client it had, backends that came and went included (so run it on a server no one else is
    using; other load on the machine changes CPU time little). A backend reaped while its siblings are
    read would be counted in neither place or in both: the reading is taken again until the postmaster's
    reaped total is the same before and after it."""
    backend = _fetch(conn, "SELECT pg_backend_pid()")
    postmaster = int(_proc_stat(backend)[1])
    while True:
        before = _proc_stat(postmaster)
        children = 0
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    child = _proc_stat(int(entry))
                except OSError:  # gone meanwhile
                    continue
                if int(child[1]) == postmaster:
                    children += int(child[11]) + int(child[12])
        after = _proc_stat(postmaster)
        if after[13:15] == before[13:15]:  # no child reaped meanwhile
            return (sum(int(f) for f in after[11:15]) + children) / TICKS_PER_S


class Spent:
    """The CPU seconds a drain's client processes spend from their release to their end, each adding its
    own (`time.process_time`: every thread of the process, user and system) to one shared number."""

    def __init__(self, shared: Any) -> None:
        self.shared = shared
        self.started = time.process_time()

    def done(self) -> None:
        with self.shared.get_lock():
            self.shared.value += time.process_time() - self.started


@dataclass(frozen=True)
class Drained:
    """One drain: its wall time, and the CPU its client processes and the PostgreSQL server spent."""

    seconds: float
    clients_cpu_s: float
    server_cpu_s: float


def cpu_counters() -> list[int]:
    with open("/proc/stat") as stat:
        return [int(field) for field in stat.readline().split()[1:9]]


def timed_drain(
    url: str, workers: int, target: Callable[..., None], args: tuple[Any, ...], busy_sql: str
) -> Drained:
    """Release `workers` processes of target(url, barrier, spent, *args) at once; time until busy_sql is
    false, and the CPU spent meanwhile."""
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ANALYZE")
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(workers + 1)
    spent = context.Value("d", 0.0)
    processes = [context.Process(target=target, args=(url, barrier, spent, *args)) for _ in range(workers)]
    for process in processes:
        process.start()
    try:
        with psycopg.connect(url, autocommit=True) as conn:
            barrier.wait(timeout=120)
            started, cpu, server = time.perf_counter(), cpu_counters(), server_cpu_seconds(conn)
            while _fetch(conn, busy_sql):
                if not any(process.is_alive() for process in processes) and _fetch(conn, busy_sql):
                    raise SystemExit("every worker process exited with items unfinished")
                time.sleep(POLL_S)
            seconds = time.perf_counter() - started
            server = server_cpu_seconds(conn) - server
            print(f"# machine CPU busy {busy_fraction(cpu, cpu_counters()):.0%}", flush=True)
        for process in processes:
            process.join(timeout=120)
    finally:
        for process in processes:
            if process.is_alive():
                process.terminate()
                process.join()
    return Drained(seconds, spent.value, server)


def _fetch(conn: psycopg.Connection[Any], sql: str) -> Any:
    row = conn.execute(sql.encode()).fetchone()  # a query built at run time: bytes, not a LiteralString
    assert row is not None
    return row[0]


def _pgqueuer_worker(url: str, barrier: Any, shared: Any) -> None:
    async def go() -> None:
        import asyncpg  # type: ignore[import-not-found]
        from pgqueuer import AsyncpgDriver, Queries, QueueManager  # type: ignore[import-not-found]
        from pgqueuer.domain.types import QueueExecutionMode  # type: ignore[import-not-found]

        manager = QueueManager(Queries(AsyncpgDriver(await asyncpg.connect(url))))

        @manager.entrypoint("noop")  # type: ignore[untyped-decorator]
        async def noop(job: Any) -> None:
            return None

        await asyncio.to_thread(barrier.wait)
        spent = Spent(shared)
        await manager.run(mode=QueueExecutionMode.drain)
        spent.done()

    asyncio.run(go())


def drain_pgqueuer(url: str, items: int, workers: int) -> Drained:
    async def setup() -> None:
        import asyncpg
        from pgqueuer import AsyncpgDriver, Queries

        conn = await asyncpg.connect(url)
        try:
            queries = Queries(AsyncpgDriver(conn))
            await queries.install()
            await queries.enqueue(["noop"] * items, [None] * items, [0] * items)
        finally:
            await conn.close()

    asyncio.run(setup())
    return timed_drain(url, workers, _pgqueuer_worker, (), "SELECT EXISTS (SELECT FROM pgqueuer)")


def _procrastinate_app(url: str) -> Any:
    import procrastinate  # type: ignore[import-not-found]

    return procrastinate.App(connector=procrastinate.PsycopgConnector(conninfo=url))


def _procrastinate_worker(url: str, barrier: Any, shared: Any) -> None:
    import logging

    logging.getLogger("procrastinate").setLevel(logging.ERROR)

    async def go() -> None:
        app = _procrastinate_app(url)

        @app.task(name="noop")  # type: ignore[untyped-decorator]
        async def noop() -> None:
            return None

        async with app.open_async():
            await asyncio.to_thread(barrier.wait)
            spent = Spent(shared)
            await app.run_worker_async(wait=False, install_signal_handlers=False)
            spent.done()

    asyncio.run(go())


def drain_procrastinate(url: str, items: int, workers: int) -> Drained:
    async def setup() -> None:
        app = _procrastinate_app(url)
        noop = app.task(name="noop")(lambda: None)
        async with app.open_async():
            await app.schema_manager.apply_schema_async()
            await noop.batch_defer_async(*[{}] * items)

    asyncio.run(setup())
    busy = "SELECT EXISTS (SELECT FROM procrastinate_jobs WHERE status IN ('todo', 'doing'))"
    return timed_drain(url, workers, _procrastinate_worker, (), busy)


def _flowyard_worker(url: str, barrier: Any, shared: Any, checkout: str, concurrency: int) -> None:
    sys.path.insert(0, checkout)
    from psycopg_pool import AsyncConnectionPool

    from backend.approvals.queue_port import ApprovalsPort
    from backend.queue.worker import Worker

    async def go() -> None:
        pool: AsyncConnectionPool[Any] = AsyncConnectionPool(
            url, min_size=1, max_size=concurrency + 3, kwargs={"autocommit": True}, open=False
        )
        await pool.open()
        worker = Worker(
            pool,
            concurrency=concurrency,
            lease=timedelta(seconds=30),
            retention=None,
            approvals=ApprovalsPort(),
        )
        stop = asyncio.Event()

        async def watch() -> None:  # a worker process stops once no run is left to resume
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                while await (await conn.execute("SELECT EXISTS (SELECT FROM waits)")).fetchone() != (False,):
                    await asyncio.sleep(0.05)
            stop.set()

        await asyncio.to_thread(barrier.wait)
        spent = Spent(shared)
        watcher = asyncio.create_task(watch())
        await worker.run(stop)
        await watcher
        spent.done()
        await pool.close()

    asyncio.run(go())
    # The memory target: a worker's resident set stays under 150 MB however many runs it drains.
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"# worker process peak RSS {peak_mb:.0f} MB", flush=True)


def drain_flowyard(url: str, items: int, workers: int, checkout: str, document: dict[str, Any]) -> Drained:
    sys.path.insert(0, checkout)
    from backend.flows.store import create_flow
    from backend.store.migrations import migrate

    with psycopg.connect(url) as conn:
        migrate(conn)

    async def save() -> int:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            return await create_flow(conn, document, by="bench")

    flow_id = asyncio.run(save())
    with psycopg.connect(url) as conn:
        conn.execute(
            "INSERT INTO runs (flow_id, version, status, trigger_kind, input)"
            " SELECT %s, 1, 'waiting', 'manual', jsonb_build_object('n', g) FROM generate_series(1, %s) AS g",
            (flow_id, items),
        )
        conn.execute("INSERT INTO waits (run_id, kind, wake_at) SELECT id, 'start', now() FROM runs")
    drained = timed_drain(url, workers, _flowyard_worker, (checkout, 10), "SELECT EXISTS (SELECT FROM waits)")
    with psycopg.connect(url) as conn:
        done = _fetch(conn, "SELECT count(*) FROM runs WHERE status = 'succeeded'")
    if done != items:
        print(f"# WARNING: {done} of {items} runs succeeded", flush=True)
    return drained


def one_drain(args: argparse.Namespace) -> None:
    server = args.url
    name = f"bench_peer_{os.getpid()}"
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = with_database(server, name)
    try:
        if args.drain == "pgqueuer":
            drained = drain_pgqueuer(url, args.items, args.workers)
        elif args.drain == "procrastinate":
            drained = drain_procrastinate(url, args.items, args.workers)
        else:
            document = INVOICE if args.drain.startswith("invoice") else TWO_NODES
            drained = drain_flowyard(url, args.items, args.workers, args.checkout, document)
    finally:
        with psycopg.connect(server, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    label, seconds = args.label or args.drain, drained.seconds
    per_item_ms = 1000 / args.items
    print(
        f"{label} items={args.items} workers={args.workers} seconds={seconds:.3f}"
        f" per_s={args.items / seconds:.1f} clients_ms={drained.clients_cpu_s * per_item_ms:.3f}"
        f" server_ms={drained.server_cpu_s * per_item_ms:.3f}",
        flush=True,
    )


# ---- the side-by-side run (the project's venv) ----


def peers_python() -> Path:
    """The peers' own venv, made and filled on first use; never the project's."""
    python = PEERS_HOME / "venv" / "bin" / "python"
    if not python.exists():
        venv.create(PEERS_HOME / "venv", with_pip=True)
    imports = "import pgqueuer, procrastinate, asyncpg, psycopg, dbos"
    probe = subprocess.run([python, "-c", imports], check=False)
    if probe.returncode != 0:
        pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *PEER_PACKAGES]
        subprocess.run(pip, check=True)
    return python


def server_url() -> str:
    """The server's URL; the embedded server's keyword form (`host=... dbname=...`) as a URL, which
    asyncpg and `with_database` need."""
    from urllib.parse import urlencode

    from psycopg.conninfo import conninfo_to_dict

    from backend.settings import Settings
    from backend.store.database import database_url

    url = database_url(Settings.from_environment())
    if "://" in url:
        return url
    parts = {key: str(value) for key, value in conninfo_to_dict(url).items()}
    user, name = parts.pop("user", "postgres"), parts.pop("dbname", "postgres")
    return f"postgresql://{user}@/{name}?{urlencode(parts)}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=5000)
    parser.add_argument("--invoice-items", type=int, help="runs of the invoice flow (default: --items)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--checkout", action="append", default=[], help="another copy to measure: LABEL=PATH")
    parser.add_argument("--only", nargs="+", help="drains to run, e.g. flowyard pgqueuer")
    parser.add_argument("--drain", help=argparse.SUPPRESS)
    parser.add_argument("--label", help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.drain:
        args.workers = args.workers[0]  # one drain: one W, one checkout
        args.checkout = args.checkout[0] if args.checkout else str(REPO)
        one_drain(args)
        return

    url = server_url()
    peer = str(peers_python())
    me = str(Path(__file__).resolve())
    drains: list[tuple[str, str, list[str]]] = [
        ("pgqueuer", peer, ["--drain", "pgqueuer"]),
        ("procrastinate", peer, ["--drain", "procrastinate"]),
        ("flowyard", sys.executable, ["--drain", "flowyard", "--checkout", str(REPO)]),
        ("invoice", sys.executable, ["--drain", "invoice", "--checkout", str(REPO)]),
    ]
    for spec in args.checkout:
        label, _, path = spec.partition("=")
        drains.append((f"flowyard@{label}", sys.executable, ["--drain", "flowyard", "--checkout", path]))
        drains.append((f"invoice@{label}", sys.executable, ["--drain", "invoice", "--checkout", path]))
    if args.only:
        drains = [d for d in drains if d[0] in args.only]
    results: dict[tuple[str, int], list[float]] = {}
    cpu: dict[tuple[str, int], list[tuple[float, float]]] = {}
    for _ in range(args.rounds):  # rounds interleaved: a noisy minute hits every peer alike
        for workers in args.workers:
            for label, python, extra in drains:
                command = [python, me, *extra, "--label", label, "--url", url]
                items = (
                    args.invoice_items if label.startswith("invoice") and args.invoice_items else args.items
                )
                command += ["--items", str(items), "--workers", str(workers)]
                out = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True).stdout
                print(out, end="", flush=True)
                for line in out.splitlines():
                    if match := RESULT.match(line):
                        results.setdefault((label, workers), []).append(float(match[5]))
                    if match := CPU.search(line):
                        cpu.setdefault((label, workers), []).append((float(match[1]), float(match[2])))
    report(results, args.workers, [d[0] for d in drains])
    report_cpu(cpu, args.workers, [d[0] for d in drains])


def report(results: dict[tuple[str, int], list[float]], workers: list[int], labels: list[str]) -> None:
    median = {key: statistics.median(values) for key, values in results.items()}
    print("\nmedians of items (jobs or runs) per second; runs of the invoice flow count once each")
    print(f"{'drain':<22}" + "".join(f"{f'W={w}':>10}" for w in workers))
    for label in labels:
        print(f"{label:<22}" + "".join(f"{median.get((label, w), float('nan')):>10.0f}" for w in workers))
    print("\nratios (targets: two-node >= 1.0x pgqueuer and >= 5x procrastinate; invoice >= 0.4x pgqueuer)")
    for label in labels:
        if not label.startswith(("flowyard", "invoice")):
            continue
        cells = []
        for w in workers:
            ours = median.get((label, w), float("nan"))
            cells.append(
                f"W={w}: {ours / median.get(('pgqueuer', w), float('nan')):.2f}x pgqueuer,"
                f" {ours / median.get(('procrastinate', w), float('nan')):.1f}x procrastinate"
            )
        print(f"{label:<22}" + "; ".join(cells))
    print(json.dumps({f"{label}/W={w}": round(v) for (label, w), v in median.items()}))


def report_cpu(
    cpu: dict[tuple[str, int], list[tuple[float, float]]], workers: list[int], labels: list[str]
) -> None:
    """Where the time goes: CPU milliseconds per item, in the drain's client processes (the workers) and in
    the PostgreSQL server. Both are CPU time, not wall time, so other load on the machine changes them
    little. The bound is what the machine's cores allow at that cost, were nothing else running and the
    drain bound by CPU alone (no waiting for the disk's flushes or for locks)."""
    print("\nCPU ms per item (medians): clients + server = total; (<= the rate the machine's cores allow)")
    print(f"{'drain':<22}" + "".join(f"{f'W={w}':>36}" for w in workers))
    cores = os.cpu_count() or 1
    for label in labels:
        cells = []
        for w in workers:
            pairs = cpu.get((label, w))
            if not pairs:
                cells.append(f"{'-':>36}")
                continue
            clients = statistics.median(p[0] for p in pairs)
            server = statistics.median(p[1] for p in pairs)
            bound = cores * 1000 / (clients + server) if clients + server else float("inf")
            cell = f"{clients:.2f} + {server:.2f} = {clients + server:.2f} (<= {bound:,.0f}/s)"
            cells.append(f"{cell:>36}")
        print(f"{label:<22}" + "".join(cells))


if __name__ == "__main__":
    main()
