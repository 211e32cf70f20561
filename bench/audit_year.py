"""The auditor's year (issue 38): a busy company's decisions in bulk, then what an auditor does with them.

Run: `.venv/bin/python bench/audit_year.py [--decisions 200000] [--year]` (DATABASE_URL, or the embedded
server). `--year` is the issue's full size: 5,000,000 decided approvals over 365 days across 500 flows
and 2,000 deciders, each with its run, four journal lines, a vote, and their chain records (hashes as
the database computes them, so `verify` checks real links). It makes its own database
(`flowyard_bench_audit_year`) and prints:

- the database's size per decision, and how long the fill took (with the deciders as users, their grants
  and delegations: a few thousand rights changes, chained as the program chains them);
- the audit search, p50 and p95 over `--samples` searches per filter a person can set on the page (none,
  flow, decider, outcome, a week, a rare text, a common text, a Japanese text), first page and the page
  after it (keyset), against the target p95 under 100 ms;
- the CSV export of up to 100,000 decisions, streamed as the API streams it (its code path without HTTP):
  rows per second (target 50,000) and how much the process's peak memory grew while it wrote them;
- the chains' export (GET /api/audit/chain's code path without HTTP): megabytes a second and the
  process's peak memory growth;
- `verify` over every chain: records per second (target 50,000); then `verify --since-last` from no
  verified point (page by page), and again with nothing added (what a daily verify costs);
- the runs' sweep of the oldest ended month, row by row as the workers sweep (a waiting run of that month
  stays): how long it took, its batches, the locks it held as a second connection saw them (the journal
  is not partitioned: a run's lines go with it, under row locks), and the database's size after.

Nothing is asserted: the machine is shared and noisy. The load average is printed beside the figures.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

import argparse
import asyncio
import os
import random
import resource
import statistics
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

import psycopg
from psycopg.rows import class_row, dict_row
from psycopg_pool import AsyncConnectionPool

from backend.approvals.audit import AuditFilter, csv_header, csv_lines, every_page, search
from backend.approvals.chain import GENESIS, link, verify
from backend.approvals.chain_commands import export_pieces
from backend.approvals.since_last import verify_since_last
from backend.i18n.zones import zone
from backend.queue.sweep import BATCH, sweep_ended_runs
from backend.settings import Settings
from backend.store.database import database_url, with_database
from bench.common import drop_database, fresh_database

BENCH_DB = "flowyard_bench_audit_year"
START = datetime(2025, 12, 1, tzinfo=UTC)
DAY_S = 86_400

FILL_RUNS = (
    "INSERT INTO runs (flow_id, version, status, trigger_kind, started_by, created_at, ended_at)"
    " SELECT 1 + g %% %(flows)s, 1, 'succeeded', 'manual', 'u' || g %% %(deciders)s,"
    " at, at + interval '3 hours'"
    " FROM generate_series(1, %(count)s) AS g, LATERAL (SELECT %(start)s::timestamptz"
    " + (g::float8 / %(count)s * %(days)s) * interval '1 day' AS at) AS t"
)
FILL_JOURNAL = (
    "INSERT INTO journal (run_id, seq, at, code, node, visit, data)"
    " SELECT r.id, s, r.created_at + s * interval '1 second',"
    " (ARRAY['run_started', 'approval_requested', 'approval_decided', 'run_succeeded'])[s],"
    " 'ask', 2, '{}'::jsonb"
    " FROM runs AS r, generate_series(1, 4) AS s"
)
FILL_APPROVALS = (
    "INSERT INTO approvals (run_id, flow_id, version, node, visit, title, explanation, approvers,"
    " requested_at, outcome, decided_by, decided_at, comment)"
    " SELECT r.id, r.flow_id, 1, 'ask', 2,"
    " 'Pay invoice ' || r.id || ' of supplier ' || r.id %% 997,"
    " CASE WHEN r.id %% 7 = 0 THEN '請求書 ' || r.id || ' の支払い' ELSE 'Amount over the limit' END,"
    " '{group:finance}', r.created_at,"
    " CASE WHEN r.id %% 9 = 0 THEN 'rejected' ELSE 'approved' END,"
    " 'u' || r.id %% %(deciders)s, r.created_at + interval '2 hours',"
    " CASE WHEN r.id %% 5 = 0 THEN 'checked against the contract' END"
    " FROM runs AS r"
)
FILL_VOTES = (
    "INSERT INTO approval_votes (approval_id, flow_id, voter, vote, cast_at)"
    " SELECT id, flow_id, decided_by, CASE WHEN outcome = 'approved' THEN 'approve' ELSE 'reject' END,"
    " decided_at - interval '1 second' FROM approvals"
)
# The chain in the order the triggers would have written it: per flow, each vote, then its decision. The
# decision's content is made outside the UNION: with the content functions inlined (migration 0030), a
# whole row of the outer query inside one of its branches fails in PostgreSQL 15 and 16 ("variable not
# found in subplan target list").
CHAIN_ROWS = (
    "SELECT 'flow:' || a.flow_id AS chain, rec.kind, rec.ref,"
    " CASE WHEN rec.kind = 'decision' THEN audit_decision_content(a) ELSE rec.content END AS content"
    " FROM approvals AS a,"
    " LATERAL (SELECT 'vote' AS kind, v.id AS ref, audit_vote_content(v) AS content, 0 AS o"
    "          FROM approval_votes AS v WHERE v.approval_id = a.id"
    "          UNION ALL SELECT 'decision', a.id, NULL, 1) AS rec"
    " ORDER BY a.flow_id, a.id, rec.o"
)


TRIGGERED = ("runs", "journal", "approvals", "approval_votes")
BACK_A_HUNDREDTH = (
    "UPDATE audit_verified AS v SET seq = c.seq, hash = c.hash FROM audit_chain AS c"
    " WHERE c.chain = v.chain AND c.seq = greatest(1, v.seq - v.seq / 100)"
)


def fill(url: str, count: int, flows: int, deciders: int, days: int) -> None:
    params = {"count": count, "flows": flows, "deciders": deciders, "days": days, "start": START}
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "INSERT INTO flows (name, latest_version) SELECT 'flow ' || g, 1 FROM generate_series(1, %s) g",
            (flows,),
        )
        conn.execute(
            "INSERT INTO flow_versions (flow_id, version, document)"
            ' SELECT id, 1, \'{"format": "flowyard.flow/1"}\'::jsonb FROM flows'
        )
        # The triggers chain one record at a time and tell the pages of each run: the chain is computed
        # below instead, and no page listens.
        for table in TRIGGERED:
            conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        try:
            for statement in (FILL_RUNS, FILL_JOURNAL, FILL_APPROVALS, FILL_VOTES):
                conn.execute(statement, params)
            _chain(conn)
        finally:
            for table in TRIGGERED:
                conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        _rights(conn, params)
        conn.execute("VACUUM ANALYZE")


# The deciders as users, each granted `decide` on a flow, and one in ten delegating to the next for two
# weeks: their rights changes written and chained by the triggers, as the program writes them (a few
# thousand: each appends to its chain's head in turn, so in statements of 500).
FILL_USERS = (
    "INSERT INTO users (name) SELECT 'u' || g FROM generate_series(%(first)s::int, %(last)s::int) AS g"
)
FILL_GRANTS = (
    'INSERT INTO grants (user_name, "right", flow_id)'
    " SELECT 'u' || g, 'decide', 1 + g %% %(flows)s FROM generate_series(%(first)s::int, %(last)s::int) AS g"
)
FILL_DELEGATIONS = (
    "INSERT INTO delegations (from_user, to_user, starts_at, ends_at, created_by)"
    " SELECT 'u' || g, 'u' || (g + 1), %(start)s::timestamptz + g * interval '1 hour',"
    " %(start)s::timestamptz + g * interval '1 hour' + interval '14 days', 'u0'"
    " FROM generate_series(%(first)s::int, %(last)s::int, 10) AS g WHERE g + 1 < %(deciders)s"
)


def _rights(conn: psycopg.Connection[Any], params: dict[str, Any]) -> None:
    for first in range(0, params["deciders"], 500):
        batch = {**params, "first": first, "last": min(params["deciders"], first + 500) - 1}
        for statement in (FILL_USERS, FILL_GRANTS, FILL_DELEGATIONS):
            conn.execute(statement, batch)


class ChainRow(NamedTuple):
    """A row of CHAIN_ROWS, by name."""

    chain: str
    kind: str
    ref: int
    content: str


def _chain(conn: psycopg.Connection[Any]) -> None:
    """Every record's hash computed here as `audit_chain_append` would, and copied in."""
    heads: dict[str, tuple[int, str]] = {}
    with (
        psycopg.connect(conn.info.dsn) as reading,  # a named cursor lives in a transaction
        reading.cursor(name="chain_rows", row_factory=class_row(ChainRow)) as rows,
        psycopg.connect(conn.info.dsn, autocommit=True) as out,
        out.cursor().copy(
            "COPY audit_chain (chain, seq, kind, ref_id, content, prev_hash, hash) FROM STDIN"
        ) as copy,
    ):
        rows.itersize = 20_000
        rows.execute(CHAIN_ROWS)
        for row in rows:
            seq, prev = heads.get(row.chain, (0, GENESIS))
            hash_ = link(prev, row.content)
            copy.write_row((row.chain, seq + 1, row.kind, row.ref, row.content, prev, hash_))
            heads[row.chain] = (seq + 1, hash_)
    with conn.cursor().copy("COPY audit_chain_heads (chain, seq, hash) FROM STDIN") as copy:
        for chain, (seq, hash_) in heads.items():
            copy.write_row((chain, seq, hash_))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def searches(url: str, samples: int, flows: int, deciders: int, days: int) -> None:
    rng = random.Random(7)
    filters: dict[str, Any] = {
        "none": lambda: AuditFilter(),
        "flow": lambda: AuditFilter(flow_id=rng.randint(1, flows)),
        "decider": lambda: AuditFilter(decider=f"u{rng.randrange(deciders)}"),
        "outcome": lambda: AuditFilter(outcome="rejected"),
        "a week": lambda: _week(rng, days),
        "rare text": lambda: AuditFilter(text=f"invoice {rng.randint(1, 1000)} "),
        "common text": lambda: AuditFilter(text="contract"),
        "Japanese text": lambda: AuditFilter(text="請求書"),
    }
    print(f"audit search, {samples} searches per filter (first page, then the next; target p95 < 100 ms):")
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        for name, make in filters.items():
            first, second = [], []
            for _ in range(samples):
                where = make()
                started = time.perf_counter()
                page = await search(conn, where, limit=100)
                first.append((time.perf_counter() - started) * 1000)
                if page.next_cursor is not None:
                    started = time.perf_counter()
                    await search(conn, where, cursor=page.next_cursor, limit=100)
                    second.append((time.perf_counter() - started) * 1000)
            after = f"; next page p50 {statistics.median(second):7.1f} ms" if second else ""
            print(
                f"  {name:<14} p50 {statistics.median(first):7.1f} ms  p95 {percentile(first, 0.95):7.1f} ms"
                f"{after}"
            )


def _week(rng: random.Random, days: int) -> AuditFilter:
    since = START + timedelta(days=rng.randint(0, max(0, days - 7)))
    return AuditFilter(since=since, until=since + timedelta(days=7))


def _pool(url: str) -> AsyncConnectionPool[Any]:
    """A small pool of autocommit connections, as the API's: open it with `async with`."""
    return AsyncConnectionPool(url, min_size=1, max_size=2, open=False, kwargs={"autocommit": True})


async def export(url: str, rows_wanted: int) -> None:
    """The API's streamed export without HTTP: every page of the filter, each written as CSV and let go.
    Beside the rows a second, the process's CPU seconds, read from writing: on a loaded machine the wall
    clock measures the load, the CPU what the export costs."""
    async with _pool(url) as pool:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started, cpu_started, writing = time.perf_counter(), time.process_time(), 0.0
        written, exported = len(csv_header("de")), 0
        async for rows in every_page(pool, AuditFilter()):
            rows = rows[: rows_wanted - exported]
            writing -= time.process_time()
            written += len(csv_lines(rows, "de", zone("Europe/Berlin")).encode())
            writing += time.process_time()
            exported += len(rows)
            if exported >= rows_wanted:
                break
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print(
        f"CSV export of {exported:,} decisions, streamed: {exported / elapsed:,.0f} rows/s"
        f" (target 50,000), {written / 1e6:.1f} MB of CSV; {exported / cpu:,.0f} rows a second of the"
        f" process's CPU ({cpu - writing:.2f} s reading the pages, {writing:.2f} s writing and encoding"
        f" the CSV); the process's peak memory grew {grown / 1e3:.0f} MB (one page of a thousand"
        " decisions is held at a time)"
    )


async def chain_export(url: str) -> None:
    """Every chain's export as GET /api/audit/chain sends it (`export_pieces` on a pool, without HTTP): how
    fast it is written, and how much the process's peak memory grew (a page is held at a time)."""
    async with _pool(url) as pool:
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started, written, pieces = time.perf_counter(), 0, 0
        async for piece in export_pieces(pool.connection, None):
            written += len(piece.encode())
            pieces += 1
        elapsed = time.perf_counter() - started
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print(
        f"chain export of every chain, streamed: {written / 1e6:,.0f} MB in {pieces - 1:,} pages in"
        f" {elapsed:.1f} s ({written / 1e6 / elapsed:.1f} MB/s); the process's peak memory grew"
        f" {grown / 1e3:.0f} MB"
    )


async def verifying(url: str) -> None:
    """A full verify, then `--since-last` from no point (page by page, moving the points: what an
    interrupted verify resumes), then `--since-last` again with nothing added."""
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute("DELETE FROM audit_verified")
        for name, check in (
            ("verify over every chain", verify),
            ("verify --since-last, no point yet", verify_since_last),
            ("verify --since-last, nothing added", verify_since_last),
            ("verify --since-last, the last 1% of each chain new", verify_since_last),
        ):
            if name.endswith("new"):  # each point moved back by a hundredth of its chain: as if added since
                await conn.execute(BACK_A_HUNDREDTH)
            before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            started = time.perf_counter()
            verdict = await check(conn)
            elapsed = time.perf_counter() - started
            grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
            print(
                f"{name}: {verdict.records:,} records in {elapsed:.2f} s,"
                f" {verdict.records / elapsed:,.0f} records/s (target 50,000), intact: {verdict.intact}"
                f" ({len(verdict.breaks)} breaks); the process's peak memory grew {grown / 1e3:.0f} MB"
            )


async def sweep_month(url: str, days: int) -> None:
    """The ended runs of the oldest month, swept as the workers do, with a retention that reaches a day past
    the month's end (every run of a month ends within a day of it: three hours after its start); one of its
    runs made to wait again stays. A second connection samples the locks the sweeper holds meanwhile."""
    now = START + timedelta(days=days)
    month_end = datetime(START.year + START.month // 12, START.month % 12 + 1, 1, tzinfo=UTC)
    retention = now - month_end - timedelta(days=1)
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        waiting = await (await conn.execute(WAITING_RUN, {"at": START + timedelta(days=14)})).fetchone()
        assert waiting is not None
        locks: Counter[tuple[str, str]] = Counter()
        done = asyncio.Event()
        watching = asyncio.create_task(_watch(conn.info.dsn, conn.info.backend_pid, done, locks))
        started = time.perf_counter()
        swept = await sweep_ended_runs(conn, now, retention)
        elapsed = time.perf_counter() - started
        done.set()
        samples = await watching
        kept = await (await conn.execute("SELECT count(*) FROM runs WHERE id = %s", waiting)).fetchone()
        size = await (await conn.execute("SELECT pg_database_size(current_database())")).fetchone()
    assert kept is not None and size is not None
    batches = swept // BATCH + 1
    print(
        f"runs' sweep of the oldest month ({START:%Y-%m}): {swept:,} runs and their journals row by row in"
        f" {elapsed:.2f} s, {batches} batches of up to {BATCH:,} ({elapsed / batches * 1e3:.0f} ms a batch);"
        f" the waiting run kept: {kept[0] == 1}"
    )
    seen = ", ".join(
        f"{table} {mode} ({n} of {samples} samples)" for (table, mode), n in sorted(locks.items())
    )
    exclusive = any(table == "journal" and mode == "AccessExclusiveLock" for table, mode in locks)
    print(f"locks the sweeper held, seen from a second connection: {seen or 'none'}")
    print(f"the journal locked exclusively: {exclusive}")
    print(f"database after the sweep: {size[0] / 1e9:.2f} GB")


# A run of the middle of the month made to wait again, as a real one would: never swept.
WAITING_RUN = (
    "UPDATE runs SET status = 'waiting', ended_at = NULL"
    " WHERE id = (SELECT min(id) FROM runs WHERE created_at >= %(at)s) RETURNING id"
)
# The table-level locks a backend holds (a row's lock is in the row, not here: a DELETE holds its tables in
# RowExclusiveLock, which lets readers and writers of other rows through).
HELD_LOCKS = (
    "SELECT c.relname AS table, l.mode FROM pg_locks AS l JOIN pg_class AS c ON c.oid = l.relation"
    " WHERE l.pid = %(pid)s AND l.granted AND c.relkind IN ('r', 'p')"
)


async def _watch(dsn: str, pid: int, done: asyncio.Event, locks: Counter[tuple[str, str]]) -> int:
    """Sample `pid`'s locks as fast as the server answers until `done`, counting each (table, mode) seen;
    how many samples."""
    samples = 0
    async with await psycopg.AsyncConnection.connect(dsn, autocommit=True, row_factory=dict_row) as watcher:
        while not done.is_set():
            cur = await watcher.execute(HELD_LOCKS, {"pid": pid})
            locks.update((row["table"], row["mode"]) for row in await cur.fetchall())
            samples += 1
    return samples


MEASURES = ("search", "export", "verify", "sweep")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--decisions", type=int, default=200_000)
    parser.add_argument("--year", action="store_true", help="5,000,000 decisions (the issue's size)")
    parser.add_argument("--flows", type=int, default=500)
    parser.add_argument("--deciders", type=int, default=2000)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards")
    parser.add_argument("--reuse", action="store_true", help="measure the database a --keep run left")
    parser.add_argument("--database", default=BENCH_DB, help="its name (helpers sharing a server: one each)")
    parser.add_argument("--only", choices=sorted(MEASURES), action="append", help="these measures alone")
    args = parser.parse_args()
    count = 5_000_000 if args.year else args.decisions
    print(f"load average {os.getloadavg()[0]:.2f}; {count:,} decisions, {args.flows} flows, {args.days} days")
    url = (
        with_database(database_url(Settings.from_environment()), args.database)
        if args.reuse
        else fresh_database(args.database)
    )
    try:
        started = time.perf_counter()
        if not args.reuse:
            fill(url, count, args.flows, args.deciders, args.days)
        with psycopg.connect(url) as conn:
            size = conn.execute("SELECT pg_database_size(current_database())").fetchone()
        assert size is not None
        print(
            f"filled in {time.perf_counter() - started:.0f} s: database {size[0] / 1e9:.2f} GB,"
            f" {size[0] / count / 1e3:.1f} KB per decision (with its run, journal, vote and records)"
        )
        wanted = args.only or list(MEASURES)
        if "search" in wanted:
            asyncio.run(searches(url, args.samples, args.flows, args.deciders, args.days))
        if "export" in wanted:
            asyncio.run(export(url, 100_000))
            asyncio.run(chain_export(url))
        if "verify" in wanted:
            asyncio.run(verifying(url))
        if "sweep" in wanted:
            asyncio.run(sweep_month(url, args.days))
    finally:
        if not (args.keep or args.reuse):
            drop_database(args.database)


if __name__ == "__main__":
    main()
