"""An approval row as the inbox, the run page and the audit show it, with its votes; read by name (the
statements' columns are the fields), one reader for every list of them."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any, Literal, LiteralString

from psycopg import AsyncConnection
from psycopg.rows import class_row

from backend.outcomes import FinalOutcome
from backend.store.queries import every, load

QUERIES = load("backend.approvals", "queries.sql")

# What an approval ended as (the table's CHECK): a decision, a deadline's, or closed with its run or branch.
# Named in backend/outcomes.py, which the queue reads too (it resumes from them).
Outcome = FinalOutcome
VoteKind = Literal["approve", "reject"]
OnTimeout = Literal["approve", "reject", "skip"]
RejectRule = Literal["any", "quorum"]
# The outcomes someone or a deadline decided (decisions_of_runs); the others closed an approval undecided.
DECIDED: tuple[Outcome, ...] = ("approved", "rejected", "timed_out_approved", "timed_out_rejected", "skipped")


@dataclass(frozen=True, slots=True)
class Vote:
    """One person's vote on an approval; `on_behalf_of` is the approver a delegate stood in for."""

    approval_id: int
    id: int
    voter: str
    on_behalf_of: str | None
    vote: VoteKind
    comment: str | None
    cast_at: datetime

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["approval_id"]  # the vote is shown inside its approval
        return {**data, "cast_at": self.cast_at.isoformat()}


@dataclass(frozen=True, slots=True)
class Approval:
    id: int
    run_id: int
    flow_id: int
    version: int
    node: str
    visit: int
    title: str
    explanation: str
    approvers: list[str]
    deadline_at: datetime | None
    on_timeout: OnTimeout | None
    requested_at: datetime
    outcome: Outcome | None
    decided_by: str | None
    decided_at: datetime | None
    comment: str | None
    started_by: str | None
    quorum: int
    reject_rule: RejectRule
    allow_self_approval: bool
    author: str | None
    on_behalf_of: str | None
    # What the approvers were shown (backend/walker/shown.py), as it was when the approval was requested.
    shown: list[dict[str, Any]] = field(default_factory=list)
    votes: tuple[Vote, ...] = field(default=())

    @property
    def digest(self) -> str:
        """What this approval asks, as one value: a decision that names another was made on something else."""
        return digest(self.id, self.run_id, self.title, self.explanation, self.shown)

    def to_json(self) -> dict[str, Any]:
        """JSON with times in UTC, ISO 8601."""
        data = asdict(self)
        for key in ("deadline_at", "requested_at", "decided_at"):
            if data[key] is not None:
                data[key] = data[key].isoformat()
        data["votes"] = [vote.to_json() for vote in self.votes]
        data["digest"] = self.digest
        return data


def digest(approval_id: int, run_id: int, title: str, explanation: str, shown: list[dict[str, Any]]) -> str:
    """The lower-case hex SHA-256 of the canonical JSON (keys sorted, no spaces, UTF-8 as is) of what an
    approval asks: its id, its run, its title, its explanation and what it shows. The page sends the
    digest it showed with a decision (`seen`); the content never changes, so neither does the digest.

    Examples:
        >>> shown = [{"label": None, "path": "trigger", "value": {"amount": 98000}}]
        >>> digest(7, 3, "Pay A-7?", "", shown)[:16]
        'c8688e8b56b4f6d2'
    """
    document = {
        "id": approval_id,
        "run_id": run_id,
        "title": title,
        "explanation": explanation,
        "shown": shown,
    }
    text = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


async def read_with_votes(
    conn: AsyncConnection[Any], query: LiteralString, params: dict[str, Any]
) -> list[Approval]:
    """The approvals `query` lists (its columns those of `Approval`), each with its votes in the order
    they were cast: two statements, whatever the number of approvals."""
    approvals = await every(conn, Approval, query, params)
    if not approvals:
        return approvals
    votes: dict[int, list[Vote]] = {}
    for vote in await every(conn, Vote, QUERIES["votes_of_approvals"], {"ids": [a.id for a in approvals]}):
        votes.setdefault(vote.approval_id, []).append(vote)
    return [replace(a, votes=tuple(votes.get(a.id, ()))) for a in approvals]


async def approvals_of_run(conn: AsyncConnection[Any], run_id: int) -> list[Approval]:
    """A run's approvals, decided or not, by visit, without their votes (the run page shows none)."""
    return await every(conn, Approval, QUERIES["approvals_of_run"], {"run_id": run_id})


@dataclass(frozen=True, slots=True)
class RunDecision:
    """A run's latest decision, shown beside its status: a run whose invoice was rejected did not only
    succeed."""

    run_id: int
    approval: int
    node: str
    title: str
    outcome: Outcome
    decided_by: str | None
    decided_at: datetime

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        del data["run_id"]  # shown inside its run
        return {**data, "decided_at": self.decided_at.isoformat()}


async def decisions_of_runs(conn: AsyncConnection[Any], run_ids: list[int]) -> dict[int, RunDecision]:
    """The latest decision of each of these runs that has one, by run: one indexed statement."""
    if not run_ids:
        return {}
    found = await every(conn, RunDecision, QUERIES["decisions_of_runs"], {"run_ids": run_ids})
    return {decision.run_id: decision for decision in found}


async def read_one_with_votes(
    conn: AsyncConnection[Any], query: LiteralString, approval_id: int
) -> Approval | None:
    """The approval `query` reads by `id`, with its votes: the two statements sent together, one round
    trip (a decision reads its approval before and after)."""
    async with conn.pipeline():
        found = conn.cursor(row_factory=class_row(Approval))
        await found.execute(query, {"id": approval_id})
        cast = conn.cursor(row_factory=class_row(Vote))
        await cast.execute(QUERIES["votes_of_approvals"], {"ids": [approval_id]})
        approval = await found.fetchone()
        votes = await cast.fetchall()
    return None if approval is None else replace(approval, votes=tuple(votes))
