"""Delegation: a user's approvals go to another user for a period (out of office).

A delegate decides in their own name, "on behalf of" the approver (both names are on the vote, the
decision and the chained trail). A delegation passes no right: the delegate must hold the decide right on
the flow themselves, and the approver they stand in for must hold it too (`decide_approval`,
migration 0028).
Delegating and ending a delegation are rights changes, on the rights trail and its chain.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg.errors import ForeignKeyViolation

from backend.errors import CodedError
from backend.people.accounts import declare_actor
from backend.store.queries import every, load, one

QUERIES = load("backend.approvals", "queries.sql")
LONGEST = timedelta(days=366)


@dataclass(frozen=True, slots=True)
class Delegation:
    id: int
    from_user: str
    to_user: str
    starts_at: datetime
    ends_at: datetime
    revoked_at: datetime | None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "from": self.from_user,
            "to": self.to_user,
            "starts_at": self.starts_at.isoformat(),
            "ends_at": self.ends_at.isoformat(),
            "revoked_at": self.revoked_at.isoformat() if self.revoked_at else None,
        }


class DelegationRefused(CodedError, ValueError):
    """A delegation not made or not ended, with its reason code."""

    status = 422  # a refusal of what was asked


async def delegate(
    conn: AsyncConnection[Any], from_user: str, to_user: str, starts_at: datetime, ends_at: datetime
) -> Delegation:
    """Delegate `from_user`'s approvals to `to_user` from `starts_at` until `ends_at` (at most a year)."""
    if to_user == from_user:
        raise DelegationRefused(code="delegation_to_self")
    if starts_at.tzinfo is None or ends_at.tzinfo is None or ends_at <= starts_at:
        raise DelegationRefused(code="delegation_period_invalid")
    if ends_at - starts_at > LONGEST:
        raise DelegationRefused(code="delegation_too_long", days=LONGEST.days)
    async with conn.transaction():
        await declare_actor(conn, from_user)
        try:
            made = await one(
                conn,
                Delegation,
                QUERIES["insert_delegation"],
                {
                    "from_user": from_user,
                    "to_user": to_user,
                    "starts_at": starts_at,
                    "ends_at": ends_at,
                    "by": from_user,
                },
            )
        except ForeignKeyViolation:
            raise DelegationRefused(code="delegation_delegate_unknown", name=to_user) from None
    assert made is not None
    return made


async def delegations_of(conn: AsyncConnection[Any], name: str) -> list[Delegation]:
    """`name`'s delegations, given and received, that have not ended (at most 200: one per period)."""
    return await every(conn, Delegation, QUERIES["delegations_of"], {"name": name})


async def end_delegation(conn: AsyncConnection[Any], name: str, delegation_id: int) -> Delegation:
    async with conn.transaction():
        await declare_actor(conn, name)
        ended = await one(conn, Delegation, QUERIES["end_delegation"], {"id": delegation_id, "name": name})
    if ended is None:
        raise DelegationRefused(code="delegation_not_found", delegation=delegation_id)
    return ended
