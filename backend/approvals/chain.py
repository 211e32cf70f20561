"""The chained trail: each decision, vote and rights change is a record of its flow's chain carrying the
previous record's hash and its own (migration 0012 writes them, by triggers). Verifying proves that
nothing was changed, removed or inserted, even by someone who bypassed the immutability triggers:

- a record's hash is `sha256(prev_hash + "\\n" + content)`, and each record names the one before it, so
  a record removed, inserted or edited breaks the links from there on;
- each record's content is made again from its row as the row is now: a row changed by hand no longer
  matches, a row deleted is gone;
- a decision, vote or rights change with no record was written past the chain's trigger.

What the chain cannot prove alone is that the whole of it was not rewritten from some point on by
someone who recomputed every hash after; the heads `verify` prints (and the export carries) are what to
keep elsewhere and compare against (docs/approvals.md).

Examples:
    >>> first = Record("flow:1", 1, "vote", 7, '{"vote": 7}', GENESIS, link(GENESIS, '{"vote": 7}'))
    >>> second = Record("flow:1", 2, "vote", 8, '{"vote": 8}', first.hash, link(first.hash, '{"vote": 8}'))
    >>> def breaks(*records):
    ...     links = Links()
    ...     for record in records:
    ...         links.add(record)
    ...     return [b.code for b in links.breaks]
    >>> breaks(first, second)
    []
    >>> breaks(second)
    ['chain_record_missing']
    >>> edited = Record("flow:1", 1, "vote", 7, '{"vote": 9}', GENESIS, first.hash)
    >>> breaks(edited, second)
    ['chain_hash_mismatch']
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from psycopg import AsyncConnection

from backend.approvals.breaks import Break, RecordKind
from backend.approvals.signing import Signed, check_signed
from backend.store.queries import every, load, named_row

QUERIES = load("backend.approvals", "chain.sql")
GENESIS = "0" * 64
PAGE = 5000


def link(prev_hash: str, content: str) -> str:
    """A record's hash: what the database's `audit_chain_append` computes, for an offline check."""
    return hashlib.sha256(f"{prev_hash}\n{content}".encode()).hexdigest()


class Record(NamedTuple):
    """One record of a chain. A NamedTuple, not a dataclass: a full verify makes ten million of them
    (`named_row`), and a tuple is made at a third of the cost."""

    chain: str
    seq: int
    kind: RecordKind
    ref_id: int
    content: str
    prev_hash: str
    hash: str

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


@dataclass(frozen=True, slots=True)
class _At:
    """A record's place and hash: a chain's head, or a record a signed head names."""

    chain: str
    seq: int
    hash: str


@dataclass(frozen=True, slots=True)
class Differing:
    """A record whose row is no longer what it recorded (chain_rows_differing): changed, or gone."""

    chain: str
    seq: int
    kind: RecordKind
    ref_id: int
    gone: bool
    at: datetime


@dataclass(frozen=True, slots=True)
class Unrecorded:
    """A row no record covers (chain_rows_unrecorded)."""

    kind: RecordKind
    ref_id: int
    chain: str


@dataclass(slots=True)
class Verdict:
    records: int = 0
    heads: dict[str, str] = field(default_factory=dict)
    breaks: list[Break] = field(default_factory=list)
    swept: int = 0  # records whose rows the approvals' retention sweep removed, as it may
    signed: int = 0  # lines of the signed heads file held against the chains (signing.py)
    signed_at: str | None = None  # the last one's moment
    reached: dict[str, tuple[int, str]] = field(default_factory=dict)  # each chain's last record checked

    @property
    def intact(self) -> bool:
        return not self.breaks


class Links:
    """The link check, a record at a time, so a chain of any length is read in pages."""

    def __init__(self) -> None:
        self.last: dict[str, tuple[int, str]] = {}
        self.breaks: list[Break] = []

    def add(self, record: Record) -> None:
        seq, prev = self.last.get(record.chain, (0, GENESIS))
        chain, at, kind, ref = record.chain, record.seq, record.kind, record.ref_id
        if record.seq != seq + 1:
            self.breaks.append(Break(code="chain_record_missing", chain=chain, seq=at, kind=kind, ref_id=ref))
        elif record.prev_hash != prev:
            self.breaks.append(Break(code="chain_link_broken", chain=chain, seq=at, kind=kind, ref_id=ref))
        if record.hash != link(record.prev_hash, record.content):
            self.breaks.append(Break(code="chain_hash_mismatch", chain=chain, seq=at, kind=kind, ref_id=ref))
        self.last[record.chain] = (record.seq, record.hash)


def head_breaks(links: Links, heads: dict[str, str]) -> list[Break]:
    """Each chain whose last record `links` saw is not the head given, or that has records and no head
    (its head's row removed: the chain would otherwise be read and held to nothing)."""
    return [
        Break(code="chain_head_mismatch", chain=chain)
        for chain in sorted(heads.keys() | links.last.keys())
        if links.last.get(chain, (0, GENESIS))[1] != heads.get(chain)
    ]


# Where each statement of a long read gets its connection: a verify holds one throughout (`held`), a
# download takes one from the pool for each page and gives it back while the page is sent.
Connect = Callable[[], AbstractAsyncContextManager[AsyncConnection[Any]]]


def held(conn: AsyncConnection[Any]) -> Connect:
    """`conn`, for every statement."""

    @asynccontextmanager
    async def same() -> AsyncIterator[AsyncConnection[Any]]:
        yield conn

    return same


async def records_to_heads(
    connect: Connect,
    chain: str | None,
    heads: dict[str, str],
    after: int = 0,
    limit: int | None = None,
) -> AsyncIterator[list[Record]]:
    """The records of `chain` (or of every chain; of one chain, those after seq `after`) a page of `limit`
    at a time, then those its head has reached meanwhile; `heads` is filled with the heads they end at.

    A verify of a year reads for minutes while people decide, and a decision moves its chain's head in the
    transaction that appends its record. So the heads are read once, after the records: no head is then
    behind a record read, unless that record was written without its head (by hand: a break). Each chain
    whose head is past its last record read is read once more, up to that head and no further: a decision
    made meanwhile is read with the rest, a tail removed under its head reads nothing, and the reading
    ends whatever keeps arriving. `head_breaks` finds what disagrees; since_last.py reads one chain so.
    """
    last: dict[str, int] = {}
    async for page in record_pages(connect, chain, (chain, after), limit=limit):
        for record in page:
            last[record.chain] = record.seq
        yield page
    async with connect() as conn:
        now = await head_positions(conn, chain)
    for name, (seq, _) in sorted(now.items()):
        read_to = last.get(name, after if name == chain else 0)
        if seq > read_to:
            async for page in record_pages(connect, name, (name, read_to), until=seq, limit=limit):
                yield page
    heads.update((name, hash_) for name, (_, hash_) in now.items())


async def record_pages(
    connect: Connect,
    chain: str | None,
    after: tuple[str | None, int | None] = (None, None),
    *,
    until: int | None = None,
    limit: int | None = None,
) -> AsyncIterator[list[Record]]:
    """The records of `chain` (or of every chain) in order after (chain, seq) `after` (up to seq `until`),
    a page at a time: a year of them is read without being held."""
    size = limit or PAGE
    while True:
        async with connect() as conn:
            page = await record_page(conn, chain, *after, limit=size, until=until)
        if page:
            yield page
        if len(page) < size:
            return
        after = (page[-1].chain, page[-1].seq)


async def record_page(
    conn: AsyncConnection[Any],
    chain: str | None,
    after_chain: str | None,
    after_seq: int | None,
    limit: int | None = None,
    until: int | None = None,
) -> list[Record]:
    """Up to `limit` (a page) records of `chain` (or of every chain) after (`after_chain`, `after_seq`)
    and up to seq `until`, in order."""
    cur = conn.cursor(row_factory=named_row(Record))
    params = {
        "chain": chain,
        "after_chain": after_chain,
        "after_seq": after_seq,
        "until": until,
        "limit": limit or PAGE,
    }
    return await (await cur.execute(QUERIES["chain_records"], params)).fetchall()


async def heads(conn: AsyncConnection[Any], chain: str | None) -> dict[str, str]:
    """Each chain's head (of `chain` only, when given) as it is now: its last record's hash."""
    return {name: hash_ for name, (_, hash_) in (await head_positions(conn, chain)).items()}


async def head_positions(conn: AsyncConnection[Any], chain: str | None) -> dict[str, tuple[int, str]]:
    """Each chain's head (of `chain` only, when given) as it is now: its last record's seq and hash."""
    found = await every(conn, _At, QUERIES["chain_heads"], {"chain": chain})
    return {head.chain: (head.seq, head.hash) for head in found}


async def verify(
    conn: AsyncConnection[Any],
    flow_id: int | None = None,
    retention: timedelta | None = None,
    signed: tuple[list[Signed], list[Break]] | None = None,
) -> Verdict:
    """Check the chains (of one flow's, with `flow_id`) against themselves, their heads and the rows,
    and against the signed heads (`signed`: the file's lines that hold, and its breaks; signing.py).

    A record whose row is gone is a break unless `retention` is the approvals' retention and the record
    is older than it: the sweep deletes such rows, and their records keep what they were.
    """
    chain = None if flow_id is None else f"flow:{flow_id}"
    verdict = Verdict()
    links = Links()
    async for page in records_to_heads(held(conn), chain, verdict.heads):
        for record in page:
            links.add(record)
        verdict.records += len(page)
    verdict.reached = links.last
    verdict.breaks = links.breaks + head_breaks(links, verdict.heads)
    if signed is not None:
        verdict.breaks.extend(await against_signed(conn, chain, *signed, verdict))
    differing = await every(conn, Differing, QUERIES["chain_rows_differing"], {"chain": chain})
    verdict.breaks.extend(row_breaks(differing, retention, verdict))
    unrecorded = await every(conn, Unrecorded, QUERIES["chain_rows_unrecorded"], {"chain": chain})
    verdict.breaks.extend(unrecorded_breaks(unrecorded))
    return verdict


def row_breaks(differing: Iterable[Differing], retention: timedelta | None, verdict: Verdict) -> list[Break]:
    """A break for each record whose row changed or is gone, save the rows the retention sweep removed
    (counted in `verdict.swept`)."""
    now = datetime.now().astimezone()
    breaks = []
    for row in differing:
        if row.gone and row.kind != "rights" and retention is not None and row.at < now - retention:
            verdict.swept += 1
            continue
        code = "chain_row_removed" if row.gone else "chain_row_changed"
        breaks.append(Break(code=code, chain=row.chain, seq=row.seq, kind=row.kind, ref_id=row.ref_id))
    return breaks


def unrecorded_breaks(unrecorded: Iterable[Unrecorded]) -> list[Break]:
    return [
        Break(code="chain_row_unrecorded", chain=row.chain, kind=row.kind, ref_id=row.ref_id)
        for row in unrecorded
    ]


async def against_signed(
    conn: AsyncConnection[Any], chain: str | None, lines: list[Signed], invalid: list[Break], verdict: Verdict
) -> list[Break]:
    """The signed heads (of `chain` only, when given) the chains contradict, after the file's own invalid
    lines: each signed position's record looked up, each chain's end as `verdict.reached` says."""

    if chain is not None:
        lines = [replace(line, heads={c: h for c, h in line.heads.items() if c == chain}) for line in lines]
    wanted = sorted({(c, seq) for line in lines for c, (seq, _) in line.heads.items()})
    hashes = await hashes_at(conn, wanted)
    last = {name: seq for name, (seq, _) in verdict.reached.items()}
    verdict.signed = len(lines)
    verdict.signed_at = lines[-1].signed_at if lines else None
    return [*invalid, *check_signed(lines, hashes, last)]


async def hashes_at(
    conn: AsyncConnection[Any], positions: list[tuple[str, int]]
) -> dict[tuple[str, int], str]:
    """The hash of the record at each (chain, seq) given that has one."""
    found: dict[tuple[str, int], str] = {}
    for start in range(0, len(positions), PAGE):
        part = positions[start : start + PAGE]
        params = {"chains": [c for c, _ in part], "seqs": [seq for _, seq in part]}
        for at in await every(conn, _At, QUERIES["chain_hashes_at"], params):
            found[(at.chain, at.seq)] = at.hash
    return found
