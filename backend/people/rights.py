"""Changing rights after a user exists: grant, revoke, remove a user, list and revoke tokens.

Every change runs in a transaction that first declares its actor (`flowyard.actor`): the triggers of
migration 0008 write each change of a grant, a user or a token to `rights_trail`, which refuses UPDATE,
DELETE and TRUNCATE. A removed user's grants, groups, tokens and sessions go with it, and each
revocation is on the trail too.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg import AsyncConnection

from backend.people.accounts import QUERIES, USE_SERVER, AccountRefused, Grant, apply_grant, declare_actor
from backend.store.queries import every, scalar


@dataclass(frozen=True, slots=True)
class UserEntry:
    name: str
    created_at: datetime
    rights: list[str]
    groups: list[str]


@dataclass(frozen=True, slots=True)
class TokenEntry:
    id: int
    user: str
    created_at: datetime
    expires_at: datetime | None
    last_used_at: datetime | None
    revoked_at: datetime | None


@dataclass(frozen=True, slots=True)
class TrailEntry:
    id: int
    at: datetime
    actor: str
    change: str
    user: str
    right: str | None
    flow_id: int | None
    server: str | None
    token_id: int | None
    value: str | None  # a policy's new value (`policy_set`: `right` is the policy's name)
    delegate: str | None = None  # to whom `user` delegated (`delegated`, `delegation_ended`)


async def _require_user(conn: AsyncConnection[Any], name: str) -> None:
    if not await scalar(conn, QUERIES["user_exists"], {"name": name}):
        raise AccountRefused(code="user_unknown", name=name[:64])


async def grant(conn: AsyncConnection[Any], name: str, grants: list[Grant], actor: str | None) -> None:
    async with conn.transaction():
        await declare_actor(conn, actor)
        await _require_user(conn, name)
        for each in grants:
            await apply_grant(conn, name, each)


async def revoke(conn: AsyncConnection[Any], name: str, grant: Grant, actor: str | None) -> bool:
    """Take a right away; False when the user did not hold it (nothing changes)."""
    async with conn.transaction():
        await declare_actor(conn, actor)
        await _require_user(conn, name)
        if grant.right == USE_SERVER:
            cur = await conn.execute(QUERIES["revoke_server"], {"name": name, "server": grant.server})
        else:
            params = {"name": name, "right": grant.right, "flow_id": grant.flow_id}
            cur = await conn.execute(QUERIES["revoke_grant"], params)
        return await cur.fetchone() is not None


async def remove_user(conn: AsyncConnection[Any], name: str, actor: str | None) -> bool:
    async with conn.transaction():
        await declare_actor(conn, actor)
        return await (await conn.execute(QUERIES["remove_user"], {"name": name})).fetchone() is not None


async def list_users(
    conn: AsyncConnection[Any], after: str | None = None, limit: int = 200, *, only: str | None = None
) -> list[UserEntry]:
    params = {"after": after, "limit": limit, "only": only}
    return await every(conn, UserEntry, QUERIES["list_users"], params)


async def user_entry(conn: AsyncConnection[Any], name: str) -> UserEntry:
    found = await list_users(conn, None, 1, only=name)
    if not found:
        raise AccountRefused(code="user_unknown", name=name[:64])
    return found[0]


async def list_tokens(
    conn: AsyncConnection[Any], user: str | None = None, after_id: int | None = None, limit: int = 200
) -> list[TokenEntry]:
    params = {"user": user, "after_id": after_id, "limit": limit}
    return await every(conn, TokenEntry, QUERIES["list_tokens"], params)


async def revoke_token(conn: AsyncConnection[Any], token_id: int, actor: str | None) -> bool:
    """Revoke a token by its id; False when there is no such live token."""
    async with conn.transaction():
        await declare_actor(conn, actor)
        return await (await conn.execute(QUERIES["revoke_token"], {"id": token_id})).fetchone() is not None


async def rights_trail(
    conn: AsyncConnection[Any],
    user: str | None = None,
    mark: int | None = None,
    limit: int = 200,
    *,
    newest: bool = False,
) -> list[TrailEntry]:
    """Oldest first after the id `mark`, or (`newest`) newest first before it: the People page's view."""
    query = QUERIES["rights_trail_newest" if newest else "rights_trail"]
    params = {"user": user, "after_id": mark, "before_id": mark, "limit": limit}
    return await every(conn, TrailEntry, query, params)
