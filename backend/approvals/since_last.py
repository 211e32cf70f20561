"""`flowyard audit verify --since-last`: only what was added since each chain's last verified point.

A full `audit verify` reads every record and every row: a year of decisions, each time. An auditor who
verified yesterday wants today's records checked. Each chain's last verified record is kept
(`audit_verified`, migration 0029), and `--since-last`:

- holds the record at that point to the hash it had when it was verified (`chain_verified_changed` when
  it is gone or differs: the chain was rewritten or cut under it; the chain is not read further);
- checks the links of the records after it, starting from that hash, and their rows as they are now, a
  page at a time, moving the point on after each page that holds: an interrupted verify resumes there;
- checks the chain's rows decided, cast or changed since its rows were last checked for a record (an hour
  earlier than that, for a transaction that was open across that moment);
- holds every signed head to the record at its position, as a full verify does.

A chain never verified is read from its first record. What it does not see is a change to a record or a
row before the point: a full verify is for that (it trusts no point, and moves each intact chain's point
to its end). The points are in the database, so someone who can rewrite a chain can move them too: the
signed heads, checked in both, and a full verify hold against that.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from psycopg import AsyncConnection

from backend.approvals.breaks import Break
from backend.approvals.chain import (
    GENESIS,
    PAGE,
    Differing,
    Links,
    Unrecorded,
    Verdict,
    against_signed,
    hashes_at,
    head_breaks,
    heads,
    held,
    records_to_heads,
    row_breaks,
    unrecorded_breaks,
)
from backend.store.queries import every, load, scalar

if TYPE_CHECKING:
    from backend.approvals.signing import Signed

QUERIES = load("backend.approvals", "verified.sql")
_PAGE = PAGE  # records a page: a test makes it small to interrupt a verify between pages
# decided_at and cast_at are when their transaction began, and it commits later: the rows' check reaches
# back this far before the last one, so that a row committed just after it is not missed.
_LATE_COMMIT = timedelta(hours=1)


@dataclass(frozen=True, slots=True)
class _Point:
    chain: str
    seq: int
    hash: str
    rows_checked_at: datetime | None


async def database_now(conn: AsyncConnection[Any]) -> datetime:
    """The database's clock: a verify's moment is compared with times the database wrote."""
    now: datetime = await scalar(conn, QUERIES["verified_now"])
    return now


async def verify_since_last(
    conn: AsyncConnection[Any],
    flow_id: int | None = None,
    retention: timedelta | None = None,
    signed: tuple[list[Signed], list[Break]] | None = None,
) -> Verdict:
    """The chains (of one flow's, with `flow_id`) checked from their last verified points on, the points
    moved on as they hold (`conn` in autocommit: each move is kept at once): after each whole page of a
    long chain, and for every chain at the end in one statement (a commit per chain cost more than the
    reading when little was added). `verdict.records` counts the records read after the points."""
    started = await database_now(conn)
    chain = None if flow_id is None else f"flow:{flow_id}"
    verdict = Verdict()
    verdict.heads = await heads(conn, chain)
    points = {p.chain: p for p in await every(conn, _Point, QUERIES["verified_points"], {"chain": chain})}
    held = await hashes_at(conn, sorted((p.chain, p.seq) for p in points.values()))
    moved: dict[str, tuple[int, str]] = {}  # records verified to here, rows not (a break after them)
    done: dict[str, tuple[int, str]] = {}  # records and rows verified
    unread: set[str] = set()  # chains rewritten under their point: not read, so not held to signed heads
    for name in sorted(verdict.heads.keys() | points.keys()):
        point = points.get(name)
        if point is not None and held.get((name, point.seq)) != point.hash:
            verdict.breaks.append(Break(code="chain_verified_changed", chain=name, seq=point.seq))
            unread.add(name)
            continue
        reached, rows_hold = await _since(conn, name, point, verdict, retention)
        if reached is not None:
            (done if rows_hold else moved)[name] = reached
    if moved:
        await reach(conn, moved, None)
    if done:
        await reach(conn, done, started)
    if signed is not None:
        lines, invalid = signed
        lines = [replace(one, heads={c: h for c, h in one.heads.items() if c not in unread}) for one in lines]
        verdict.breaks.extend(await against_signed(conn, chain, lines, invalid, verdict))
    return verdict


async def _since(
    conn: AsyncConnection[Any],
    name: str,
    point: _Point | None,
    verdict: Verdict,
    retention: timedelta | None,
) -> tuple[tuple[int, str] | None, bool]:
    """One chain from its point on: its records a page at a time, then its rows written since. Where its
    point may move to (None: nowhere new), and whether its rows hold too."""
    links = Links()
    after = 0
    if point is not None:
        links.last[name] = (point.seq, point.hash)
        after = point.seq
    holds = True
    good: tuple[int, str] | None = None  # the last record of the pages that held
    head: dict[str, str] = {}
    async for page in records_to_heads(held(conn), name, head, after, _PAGE):
        for record in page:
            links.add(record)
        rows = {"chain": name, "first": page[0].seq, "last": page[-1].seq}
        differing = await every(conn, Differing, QUERIES["verified_rows_differing"], rows)
        breaks = [*links.breaks, *row_breaks(differing, retention, verdict)]
        links.breaks.clear()
        verdict.records += len(page)
        verdict.breaks.extend(breaks)
        holds = holds and not breaks
        if holds:
            good = (page[-1].seq, page[-1].hash)
            if len(page) == _PAGE:  # a long chain: what an interrupted verify resumes from
                await reach(conn, {name: good}, None)
    last = links.last.get(name, (0, GENESIS))
    verdict.reached[name] = last
    verdict.heads[name] = head.get(name, GENESIS)
    broken = head_breaks(links, head)
    verdict.breaks.extend(broken)
    holds = holds and not broken
    since = None if point is None or point.rows_checked_at is None else point.rows_checked_at - _LATE_COMMIT
    params = {"chain": name, "flow": _flow_of(name), "since": since}
    unrecorded = unrecorded_breaks(await every(conn, Unrecorded, QUERIES["verified_rows_unrecorded"], params))
    verdict.breaks.extend(unrecorded)
    if holds and not unrecorded and last[0] > 0:
        return last, True
    return good, False


async def reach(
    conn: AsyncConnection[Any], points: dict[str, tuple[int, str]], rows_checked_at: datetime | None
) -> None:
    """Record `points` as the chains' last verified records; with `rows_checked_at`, their rows too."""
    params = {
        "chains": list(points),
        "seqs": [seq for seq, _ in points.values()],
        "hashes": [hash_ for _, hash_ in points.values()],
        "at": rows_checked_at,
    }
    await conn.execute(QUERIES["verified_points_reached"], params)


async def remember(conn: AsyncConnection[Any], verdict: Verdict, started: datetime) -> None:
    """After a full verify that began at `started`: each chain it found intact is verified to its end."""
    broken = {found.chain for found in verdict.breaks}
    intact = {name: last for name, last in verdict.reached.items() if name not in broken and last[0] > 0}
    if intact:
        await reach(conn, intact, started)


def _flow_of(chain: str) -> int | None:
    """The flow a chain is of; None for `global` (rights changes that name no flow).

    Examples:
        >>> _flow_of("flow:12"), _flow_of("global")
        (12, None)
    """
    number = chain.removeprefix("flow:")
    return int(number) if chain != number and number.isdigit() else None
