"""Users, groups, rights and tokens.

Tokens are 32 random bytes, shown once and stored as a SHA-256 digest: a token is already high-entropy,
so a slow hash buys nothing, and a lookup by digest is one index probe per request. Passwords, chosen by
people, are hashed with argon2.

Examples:
    >>> token = new_token()
    >>> token.startswith("fy_") and len(token) > 40
    True
    >>> token_digest(token) == token_digest(token) != token_digest(new_token())
    True
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg import AsyncConnection
from psycopg.rows import class_row, scalar_row

from backend.digests import secret_digest
from backend.errors import CodedError
from backend.people.hashing import hash_now
from backend.store.queries import load, scalar

QUERIES = load("backend.people", "queries.sql")
RIGHTS = ("edit", "run", "decide", "audit", "admin", "send_events")
# A right of its own, always on one server (`use_server:NAME`), kept apart from the flow rights.
USE_SERVER = "use_server"
SERVER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,199}")
# The same rule as the users table's CHECK, and as a `user:<name>` principal in an approval's approvers.
USER_NAME = re.compile(r"[A-Za-z0-9_.@-]{1,64}")
# Names that stand for the terminal in the trails (`saved by cli`): a user by that name would pass for it,
# and inherit what the terminal may do (using every server).
RESERVED_NAMES = frozenset({"cli"})
# A token lives ten years at most: an expiry is a promise that it ends, so it must end within reason.
MAX_TOKEN_LIFETIME = timedelta(days=3660)
# The same rule as the users table's CHECK: one plain address, nothing a mail header could split on.
EMAIL = re.compile(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+")
MAX_EMAIL = 254


class AccountRefused(CodedError, ValueError):
    """A change of users, rights or tokens refused: the reason code and its sentence's parameters."""

    status = 422  # a refusal of what was asked


@dataclass(frozen=True, slots=True)
class Grant:
    right: str
    flow_id: int | None
    server: str | None = None

    @classmethod
    def parse(cls, text: str) -> Grant:
        """`decide` (everywhere), `decide:12` (on flow 12), or `use_server:web-1` (that server's commands).

        Examples:
            >>> Grant.parse("decide:12")
            Grant(right='decide', flow_id=12, server=None)
            >>> Grant.parse("use_server:web-1")
            Grant(right='use_server', flow_id=None, server='web-1')
            >>> Grant.parse("sign")
            Traceback (most recent call last):
            ...
            backend.people.accounts.AccountRefused: right_unknown
        """
        right, _, place = text.partition(":")
        if right == USE_SERVER:
            if not SERVER_NAME.fullmatch(place):
                raise AccountRefused(code="grant_server_invalid", server=place[:200])
            return cls(right, None, place)
        if right not in RIGHTS:
            raise AccountRefused(code="right_unknown", right=right[:64])
        if place and not re.fullmatch(r"[0-9]{1,18}", place):
            raise AccountRefused(code="grant_flow_invalid", flow=place[:64])
        return cls(right, int(place) if place else None)

    def __str__(self) -> str:
        """As the CLI and the API write it: the form `parse` reads."""
        if self.server is not None:
            return f"{self.right}:{self.server}"
        return self.right if self.flow_id is None else f"{self.right}:{self.flow_id}"


async def declare_actor(conn: AsyncConnection[Any], actor: str | None) -> None:
    """Name who changes rights in the open transaction: the rights trail's triggers write it down."""
    await conn.execute(QUERIES["declare_actor"], {"actor": actor or ""})


async def apply_grant(conn: AsyncConnection[Any], name: str, grant: Grant) -> None:
    """Write one grant (no change when it is held already); the caller's transaction declares the actor."""
    if grant.right == USE_SERVER:
        await conn.execute(QUERIES["grant_server"], {"name": name, "server": grant.server})
        return
    try:
        async with conn.transaction():  # a savepoint: the refusal leaves the caller's transaction usable
            await conn.execute(
                QUERIES["grant"], {"name": name, "right": grant.right, "flow_id": grant.flow_id}
            )
    except psycopg.errors.ForeignKeyViolation:
        raise AccountRefused(code="grant_flow_unknown", flow=grant.flow_id) from None


def new_token() -> str:
    return "fy_" + secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return secret_digest(token)


def hash_password(password: str) -> str:
    return hash_now(password)


async def add_user(
    conn: AsyncConnection[Any],
    name: str,
    *,
    grants: list[Grant] = [],  # noqa: B006 - read only
    groups: list[str] = [],  # noqa: B006 - read only
    password: str | None = None,
    password_hash: str | None = None,
    locale: str | None = None,
    actor: str | None = None,
    email: str | None = None,
) -> None:
    """Create a user with rights and groups, in one transaction; refused when the name is taken."""
    if not USER_NAME.fullmatch(name):
        raise AccountRefused(code="user_name_invalid", name=name[:64])
    if name in RESERVED_NAMES:
        raise AccountRefused(code="user_name_reserved", name=name)
    check_email(email)
    async with conn.transaction():
        await declare_actor(conn, actor)
        cur = await conn.execute(
            QUERIES["insert_user"],
            {
                "name": name,
                "password_hash": hash_password(password) if password else password_hash,
                "locale": locale,
                "email": email,
            },
        )
        if await cur.fetchone() is None:
            holder = await scalar(conn, QUERIES["name_taken_by"], {"name": name})
            if holder is not None and holder != name:
                raise AccountRefused(code="user_name_taken", name=name, user=holder)
            raise AccountRefused(code="user_exists", name=name)
        for group in groups:
            await conn.execute(QUERIES["add_to_group"], {"group": group, "name": name})
        for grant in grants:
            await apply_grant(conn, name, grant)


def check_email(email: str | None) -> None:
    """Refuse an address the table would refuse, with a reason code instead of a driver error.

    Examples:
        >>> check_email("bea@example.com")
        >>> check_email("Bea <bea@example.com>")
        Traceback (most recent call last):
        ...
        backend.people.accounts.AccountRefused: user_email_invalid
    """
    if email is not None and (len(email) > MAX_EMAIL or not EMAIL.fullmatch(email)):
        raise AccountRefused(code="user_email_invalid", email=email[:MAX_EMAIL], limit=MAX_EMAIL)


async def set_email(conn: AsyncConnection[Any], name: str, email: str | None) -> None:
    """A user's new address (None: no mail); refused for an unknown user or an address that is none."""
    check_email(email)
    cur = await conn.execute(QUERIES["set_email"], {"name": name, "email": email})
    if await cur.fetchone() is None:
        raise AccountRefused(code="user_unknown", name=name)


async def create_token(
    conn: AsyncConnection[Any], name: str, *, expires_in: timedelta | None = None, actor: str | None = None
) -> str:
    """A new token for `name`; the only time the token itself exists outside its holder's hands."""
    if expires_in is not None and not timedelta(0) < expires_in <= MAX_TOKEN_LIFETIME:
        raise AccountRefused(code="token_expiry_invalid", limit=MAX_TOKEN_LIFETIME.days)
    token = new_token()
    async with conn.transaction():
        await declare_actor(conn, actor)
        cur = await conn.execute(QUERIES["password_of"], {"name": name})
        if await cur.fetchone() is None:
            raise AccountRefused(code="user_unknown", name=name)
        params = {"name": name, "token_hash": token_digest(token), "expires_in": expires_in}
        await conn.execute(QUERIES["insert_token"], params)
    return token


async def user_of_token(conn: AsyncConnection[Any], token: str) -> str | None:
    name = await scalar(conn, QUERIES["user_of_token"], {"token_hash": token_digest(token)})
    return str(name) if name is not None else None


async def has_right(conn: AsyncConnection[Any], name: str, right: str, flow_id: int | None) -> bool:
    return bool(await scalar(conn, QUERIES["has_right"], {"name": name, "right": right, "flow_id": flow_id}))


async def principals_of(conn: AsyncConnection[Any], name: str) -> set[str]:
    """`user:<name>` and `group:<g>` for each group: what an approval's `approvers` are matched against."""
    cur = conn.cursor(row_factory=scalar_row)
    await cur.execute(QUERIES["groups_of"], {"name": name})
    return {f"user:{name}", *(f"group:{group}" for group in await cur.fetchall())}


async def can_read(conn: AsyncConnection[Any], name: str, flow_id: int) -> bool:
    """Whether `name` holds any right on the flow, or everywhere: what reading the flow takes."""
    cur = conn.cursor(row_factory=scalar_row)
    await cur.execute(QUERIES["has_any_right"], {"name": name, "flow_id": flow_id})
    return bool(await cur.fetchone())


async def rights_of(conn: AsyncConnection[Any], name: str) -> list[Grant]:
    """A user's flow rights (`flow_id` None: everywhere), by right and flow."""
    cur = conn.cursor(row_factory=class_row(Grant))
    await cur.execute(QUERIES["rights_of"], {"name": name})
    return await cur.fetchall()


async def token_id_of(conn: AsyncConnection[Any], token: str) -> int | None:
    """The id of a token (by its digest); None for one that is not held."""
    cur = conn.cursor(row_factory=scalar_row)
    await cur.execute(QUERIES["token_id_of"], {"token_hash": token_digest(token)})
    found = await cur.fetchone()
    return int(found) if found is not None else None


@dataclass(frozen=True, slots=True)
class Person:
    """A user as the admin's People page shows them: never a token or a hash."""

    name: str
    email: str | None
    locale: str | None
    created_at: datetime
    groups: list[str]
    rights: list[str]  # `right` or `right:flow`
    tokens: int  # how many they hold


async def list_people(conn: AsyncConnection[Any], *, after: str | None, limit: int) -> list[Person]:
    """Users by name, a page after a name."""
    cur = conn.cursor(row_factory=class_row(Person))
    await cur.execute(QUERIES["list_people"], {"after": after, "limit": limit})
    return await cur.fetchall()


async def user_exists(conn: AsyncConnection[Any], name: str) -> bool:
    """Whether a user of that name has been added."""
    cur = await conn.execute(QUERIES["user_locale"], {"name": name})
    return await cur.fetchone() is not None


async def anyone(conn: AsyncConnection[Any]) -> bool:
    """Whether any user has been added yet: an empty database is told how to add its first administrator."""
    cur = conn.cursor(row_factory=scalar_row)
    await cur.execute(QUERIES["any_user"])
    return bool(await cur.fetchone())


@dataclass(frozen=True, slots=True)
class CaseDuplicate:
    """A user whose name differs only by case from an older user's (`kept_by`): both were made before
    names were one name in any capitals, and neither is merged into the other."""

    name: str
    kept_by: str


def case_duplicates(conn: psycopg.Connection[Any]) -> list[CaseDuplicate]:
    """The users `flowyard migrate` names until an admin removes them (or the older one)."""
    return conn.cursor(row_factory=class_row(CaseDuplicate)).execute(QUERIES["case_duplicates"]).fetchall()
