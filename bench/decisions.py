"""Concurrent deciders: decisions resumed per second with S senders and W workers, through the approvals
service and through the HTTP API, beside DBOS and this machine's flush floor, printed in one run.

Run: `.venv/bin/python bench/decisions.py [--items 2000] [--senders 1 4 16] [--workers 1 4] [--rounds 1]
[--quick] [--checkout PATH ...]` (DATABASE_URL, or the embedded server). It asserts nothing.

- Flush time: the mean of 300 single-row committed INSERTs into a logged table; 1/flush is the floor of
  decisions per second for one sender that commits once per decision.
- Each cell (bench/decisions_cell.py, a process of its own that imports the checkout it measures): a fresh
  database; N runs of trigger -> approval (group:finance) -> log parked at their approval by W worker
  processes (untimed); then S senders, asyncio tasks each on its own connection, spread over min(S, cores)
  processes, each deciding an equal share: `service` calls ApprovalDecisions().decide per decision; `api`
  posts /api/approvals/{id}/decision to the checkout's `flowyard serve --no-worker`, each sender logged
  in with a session of its own, its CSRF token and the digest it read (`seen`) sent as the page sends
  them. The clock runs from the release to the last run's end (a poller, every 10 ms).
- Statements and claims per decision: a second, untimed pass of each cell on fewer runs with
  log_statement=all on its database only (the embedded server cannot load pg_stat_statements), read from
  the server's log between two marker statements; `decide` counts the senders' or the API server's
  statements, `worker` the workers' (claims among them: the claim statement of backend/queue/queries.sql).
- Decide-to-resume: runs.ended_at minus approvals.decided_at, one decision at a time with a pause, alone
  and then beside a stream of two-node runs fed as due start waits at --background per second.
- DBOS: bench/decisions_dbos.py in the peers' venv (bench/peers.py makes it), same N, S and W.
- `--checkout PATH`: another copy of the project, run on this venv and measured in the same run,
  interleaved, so that before and after print side by side.
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[0] = str(REPO)

import argparse
import re
import statistics
import subprocess
import time

import psycopg

from bench.decisions_parts import fresh_database
from bench.peers import peers_python, server_url

CELL = REPO / "bench" / "decisions_cell.py"
DBOS = REPO / "bench" / "decisions_dbos.py"
FIELDS = re.compile(r"(\w+)=(\S+)")


def load_average() -> str:
    return subprocess.run(["uptime"], check=True, capture_output=True, text=True).stdout.strip()


def flush_ms(server: str, inserts: int = 300) -> float:
    """The mean time of a committed single-row INSERT into a logged table: one WAL flush each."""
    with (
        fresh_database(server, "bench_decisions_flush", log_statements=False) as url,
        psycopg.connect(url, autocommit=True) as conn,
    ):
        conn.execute("CREATE TABLE flushes (id bigserial PRIMARY KEY, at timestamptz DEFAULT now())")
        for _ in range(10):  # a warm connection and plan
            conn.execute("INSERT INTO flushes DEFAULT VALUES")
        started = time.perf_counter()
        for _ in range(inserts):
            conn.execute("INSERT INTO flushes DEFAULT VALUES")
        return (time.perf_counter() - started) * 1000 / inserts


def run(command: list[str]) -> list[dict[str, str]]:
    """Run one measurement; echo its `#` lines; its result lines as dicts (the first word as `kind`)."""
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    results = []
    for line in done.stdout.splitlines():
        if line.startswith("#"):
            print(f"  {line}", flush=True)
        elif line.strip():
            results.append({"kind": line.split()[0], **dict(FIELDS.findall(line))})
    if done.returncode:
        print(f"  # WARNING: {' '.join(command[1:6])}... exited with {done.returncode}", flush=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=2000, help="decisions per cell")
    parser.add_argument("--senders", type=int, nargs="+", default=[1, 4, 16])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 4])
    parser.add_argument("--modes", nargs="+", choices=("service", "api"), default=["service", "api"])
    parser.add_argument("--rounds", type=int, default=1, help="timed passes of each cell (medians)")
    parser.add_argument("--count-items", type=int, default=300, help="runs in each counting pass (0: none)")
    parser.add_argument(
        "--latency", type=int, default=100, help="decide-to-resume samples per load (0: none)"
    )
    parser.add_argument("--background", type=int, default=1000, help="other resumes asked per second")
    parser.add_argument("--no-dbos", dest="dbos", action="store_false")
    parser.add_argument(
        "--quick", action="store_true", help="a smoke run: 40 decisions, 20 counted and sampled"
    )
    parser.add_argument("--checkout", type=Path, action="append", default=[], help="another copy to measure")
    args = parser.parse_args()
    if args.quick:
        args.items, args.count_items, args.latency = 40, min(args.count_items, 20), min(args.latency, 20)

    print(f"# load at the start: {load_average()}", flush=True)
    url = server_url()
    builds = {"this": REPO, **{path.resolve().name: path.resolve() for path in args.checkout}}
    flush = flush_ms(url)
    print(f"flush: {flush:.2f} ms per committed single-row INSERT; floor {1000 / flush:.0f} decisions/s")
    peer = str(peers_python()) if args.dbos else ""

    rates: dict[tuple[str, str, int, int], list[float]] = {}
    for round_ in range(args.rounds):
        for workers in args.workers:
            for senders in args.senders:
                cells = [(b, m) for b in builds for m in args.modes]
                for build, mode in cells if round_ % 2 == 0 else cells[::-1]:
                    print(f"{build} {mode} S={senders} W={workers} (round {round_ + 1})", flush=True)
                    command = cell(builds[build], url, mode, senders, workers, args.items)
                    for result in run(command):
                        rates.setdefault((build, mode, senders, workers), []).append(float(result["per_s"]))
                if args.dbos:
                    print(f"dbos S={senders} W={workers} (round {round_ + 1})", flush=True)
                    command = [peer, str(DBOS), "--url", url, "--items", str(args.items)]
                    for result in run([*command, "--senders", str(senders), "--workers", str(workers)]):
                        rates.setdefault(("dbos", "", senders, workers), []).append(float(result["per_s"]))

    counts: dict[tuple[str, str, int, int], dict[str, str]] = {}
    for workers in args.workers if args.count_items else []:
        for senders in args.senders:
            for build in builds:
                for mode in args.modes:
                    command = [*cell(builds[build], url, mode, senders, workers, args.count_items), "--count"]
                    for result in run(command):
                        counts[(build, mode, senders, workers)] = result

    latencies = []
    for workers in args.workers if args.latency else []:
        for build in builds:
            command = cell(builds[build], url, "service", 1, workers, 0)
            latencies += [
                (build, r)
                for r in run([*command, "--latency", str(args.latency), "--background", str(args.background)])
            ]

    report(args, builds, flush, rates, counts, latencies)
    print(f"# load at the end: {load_average()}", flush=True)


def cell(checkout: Path, url: str, mode: str, senders: int, workers: int, items: int) -> list[str]:
    return [
        sys.executable, str(CELL), "--checkout", str(checkout), "--url", url, "--mode", mode,
        "--senders", str(senders), "--workers", str(workers), "--items", str(items),
    ]  # fmt: skip


def report(
    args: argparse.Namespace,
    builds: dict[str, Path],
    flush: float,
    rates: dict[tuple[str, str, int, int], list[float]],
    counts: dict[tuple[str, str, int, int], dict[str, str]],
    latencies: list[tuple[str, dict[str, str]]],
) -> None:
    median = {key: statistics.median(values) for key, values in rates.items()}
    nan = float("nan")
    floor = 1000 / flush
    print(
        f"\ndecisions resumed per second, N={args.items}, medians of {args.rounds} round(s);"
        f" flush floor {floor:.0f}/s"
    )
    print("statements per decision: decide side + workers' side; claims: the workers' claim statements")
    rows = [(b, m) for b in builds for m in args.modes] + ([("dbos", "")] if args.dbos else [])
    head = "".join(f"{f'S={s} W={w}':>28}" for w in args.workers for s in args.senders)
    print(f"{'':<16}{head}")
    for build, mode in rows:
        cells = []
        for workers in args.workers:
            for senders in args.senders:
                rate = median.get((build, mode, senders, workers), nan)
                count = counts.get((build, mode, senders, workers))
                spent = f" {count['decide']}+{count['worker']} st {count['claims']} cl" if count else ""
                cells.append(f"{rate:>7.0f}/s{spent}")
        print(f"{build + ' ' + mode:<16}" + "".join(f"{c:>28}" for c in cells))

    print("\nratios")
    for build, mode in rows[:-1] if args.dbos else rows:
        for workers in args.workers:
            one = median.get((build, mode, 1, workers), nan)
            line = [f"S=1 at {one / floor:.2f}x the flush floor"]
            for senders in args.senders:
                ours = median.get((build, mode, senders, workers), nan)
                dbos = median.get(("dbos", "", senders, workers), nan)
                w1 = median.get((build, mode, senders, args.workers[0]), nan)
                line.append(
                    f"S={senders}: {ours / one:.1f}x S=1, {ours / w1:.2f}x W={args.workers[0]},"
                    f" {ours / dbos:.1f}x DBOS"
                )
            print(f"{build} {mode} W={workers}: " + "; ".join(line))

    for build, result in latencies:
        print(
            f"decide-to-resume {build} W={result['workers']} other resumes asked {result['load']}:"
            f" p50 {result['p50_ms']} ms, p99 {result['p99_ms']} ms ({result['samples']} decisions)"
        )


if __name__ == "__main__":
    main()
