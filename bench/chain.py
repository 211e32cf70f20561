"""The chained trail: what chaining costs a decision, and how fast `verify` reads a trail.

Run: `.venv/bin/python bench/chain.py [--decisions 20000] [--flows 50]` (DATABASE_URL, or the embedded
server). It makes its own database (`flowyard_bench_chain`) and prints:

- inserts of decided approvals per second with the chain's trigger, and without it (the trigger disabled,
  as a superuser can), so the difference is what chaining costs each decision;
- records verified per second by `verify` (links, hashes, every row made again and compared).

Nothing is asserted: the machine is shared and noisy.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import asyncio
import time

import psycopg

from backend.approvals.chain import verify
from bench.common import drop_database, fresh_database

BENCH_DB = "flowyard_bench_chain"
INSERT = (
    "INSERT INTO approvals (run_id, flow_id, version, node, visit, title, explanation, approvers,"
    " requested_at, outcome, decided_by, decided_at)"
    " SELECT g, 1 + g %% %(flows)s::int, 1, 'ask', 1, 't' || g, '', '{user:ann}', now(),"
    " 'approved', 'ann', now()"
    " FROM generate_series(%(first)s::int, %(last)s::int) AS g"
)


def timed_insert(url: str, first: int, count: int, flows: int, chained: bool) -> float:
    with psycopg.connect(url, autocommit=True) as conn:
        if not chained:
            conn.execute("ALTER TABLE approvals DISABLE TRIGGER approvals_chained")
        start = time.perf_counter()
        conn.execute(INSERT, {"flows": flows, "first": first, "last": first + count - 1})
        took = time.perf_counter() - start
        if not chained:
            conn.execute("ALTER TABLE approvals ENABLE TRIGGER approvals_chained")
    return count / took


async def timed_verify(url: str) -> tuple[float, int, bool]:
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        start = time.perf_counter()
        verdict = await verify(conn)
        return verdict.records / (time.perf_counter() - start), verdict.records, verdict.intact


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--decisions", type=int, default=20000)
    parser.add_argument("--flows", type=int, default=50)
    args = parser.parse_args()
    url = fresh_database(BENCH_DB)
    try:
        chained = timed_insert(url, 1, args.decisions, args.flows, chained=True)
        rate, records, intact = asyncio.run(timed_verify(url))
        print(
            f"decisions inserted with the chain:    {chained:10.0f}/s"
            f" ({args.decisions} on {args.flows} chains)"
        )
        print(f"records verified:                     {rate:10.0f}/s ({records} records, intact={intact})")
        bare = timed_insert(url, args.decisions + 1, args.decisions, args.flows, chained=False)
        print(f"decisions inserted without the chain: {bare:10.0f}/s")
    finally:
        drop_database(BENCH_DB)


if __name__ == "__main__":
    main()
