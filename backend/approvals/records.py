"""An approval row as the inbox, the run page and the audit show it, with its votes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any

from psycopg import AsyncConnection

from backend.store.queries import every, load

QUERIES = load("backend.approvals", "queries.sql")


@dataclass(frozen=True, slots=True)
class Vote:
    """One person's vote on an approval; `on_behalf_of` is the approver a delegate stood in for."""

    id: int
    voter: str
    on_behalf_of: str | None
    vote: str
    comment: str | None
    cast_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "cast_at": self.cast_at.isoformat()}


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
    on_timeout: str | None
    requested_at: datetime
    outcome: str | None
    decided_by: str | None
    decided_at: datetime | None
    comment: str | None
    started_by: str | None = None
    quorum: int = 1
    reject_rule: str = "any"
    allow_self_approval: bool = False
    author: str | None = None
    on_behalf_of: str | None = None
    votes: tuple[Vote, ...] = field(default=())

    @classmethod
    def from_row(cls, row: tuple[Any, ...]) -> Approval:
        return cls(*row)

    def with_votes(self, votes: tuple[Vote, ...]) -> Approval:
        return replace(self, votes=votes)

    def to_json(self) -> dict[str, Any]:
        """JSON with times in UTC, ISO 8601."""
        data = asdict(self)
        for key in ("deadline_at", "requested_at", "decided_at"):
            if data[key] is not None:
                data[key] = data[key].isoformat()
        data["votes"] = [vote.to_json() for vote in self.votes]
        return data


@dataclass(frozen=True, slots=True)
class RunApproval:
    """An approval as the run page lists it: who may decide, the deadline, who decided what."""

    id: int
    visit: int
    node: str
    title: str
    approvers: list[str]
    deadline_at: datetime | None
    on_timeout: str | None
    requested_at: datetime
    outcome: str | None
    decided_by: str | None
    decided_at: datetime | None
    comment: str | None


async def approvals_of_run(conn: AsyncConnection[Any], run_id: int) -> list[RunApproval]:
    """A run's approvals, decided or not, by visit."""
    return await every(conn, RunApproval, QUERIES["approvals_of_run"], {"run_id": run_id})
