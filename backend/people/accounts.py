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

import hashlib
import re
import secrets
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from psycopg import AsyncConnection

from backend.store.queries import load

QUERIES = load("backend.people", "queries.sql")
RIGHTS = ("edit", "run", "decide", "audit", "admin")
# The same rule as the users table's CHECK, and as a `user:<name>` principal in an approval's approvers.
USER_NAME = re.compile(r"[A-Za-z0-9_.@-]{1,64}")
# The same rule as the users table's CHECK: one plain address, nothing a mail header could split on.
EMAIL = re.compile(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+")
MAX_EMAIL = 254
_hasher = PasswordHasher()


class AccountRefused(ValueError):
    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class Grant:
    right: str
    flow_id: int | None

    @classmethod
    def parse(cls, text: str) -> Grant:
        """`decide` (everywhere) or `decide:12` (on flow 12).

        Examples:
            >>> Grant.parse("decide:12")
            Grant(right='decide', flow_id=12)
            >>> Grant.parse("sign")
            Traceback (most recent call last):
            ...
            backend.people.accounts.AccountRefused: right_unknown
        """
        right, _, flow = text.partition(":")
        if right not in RIGHTS:
            raise AccountRefused(code="right_unknown", right=right)
        if flow and not re.fullmatch(r"[0-9]{1,18}", flow):
            raise AccountRefused(code="grant_flow_invalid", flow=flow)
        return cls(right, int(flow) if flow else None)


def new_token() -> str:
    return "fy_" + secrets.token_urlsafe(32)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hash_password(password: str) -> str:
    return _hasher.hash(password)


async def add_user(
    conn: AsyncConnection[Any],
    name: str,
    *,
    grants: list[Grant] = [],  # noqa: B006 - read only
    groups: list[str] = [],  # noqa: B006 - read only
    password: str | None = None,
    locale: str | None = None,
    email: str | None = None,
) -> None:
    """Create a user with rights and groups, in one transaction; refused when the name is taken."""
    if not USER_NAME.fullmatch(name):
        raise AccountRefused(code="user_name_invalid", name=name)
    check_email(email)
    async with conn.transaction():
        cur = await conn.execute(
            QUERIES["insert_user"],
            {
                "name": name,
                "password_hash": hash_password(password) if password else None,
                "locale": locale,
                "email": email,
            },
        )
        if await cur.fetchone() is None:
            raise AccountRefused(code="user_exists", name=name)
        for group in groups:
            await conn.execute(QUERIES["add_to_group"], {"group": group, "name": name})
        for grant in grants:
            await conn.execute(
                QUERIES["grant"], {"name": name, "right": grant.right, "flow_id": grant.flow_id}
            )


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


async def create_token(conn: AsyncConnection[Any], name: str) -> str:
    """A new token for `name`; the only time the token itself exists outside its holder's hands."""
    token = new_token()
    async with conn.transaction():
        cur = await conn.execute(QUERIES["password_of"], {"name": name})
        if await cur.fetchone() is None:
            raise AccountRefused(code="user_unknown", name=name)
        await conn.execute(QUERIES["insert_token"], {"name": name, "token_hash": token_digest(token)})
    return token


async def user_of_token(conn: AsyncConnection[Any], token: str) -> str | None:
    cur = await conn.execute(QUERIES["user_of_token"], {"token_hash": token_digest(token)})
    row = await cur.fetchone()
    return str(row[0]) if row else None


async def check_password(conn: AsyncConnection[Any], name: str, password: str) -> bool:
    cur = await conn.execute(QUERIES["password_of"], {"name": name})
    row = await cur.fetchone()
    if row is None or row[0] is None:
        _hasher.hash(password)  # the same work whether or not the user exists
        return False
    try:
        _hasher.verify(row[0], password)
    except (VerificationError, InvalidHashError):
        return False
    if _hasher.check_needs_rehash(row[0]):
        await conn.execute(QUERIES["set_password"], {"name": name, "password_hash": hash_password(password)})
    return True


async def has_right(conn: AsyncConnection[Any], name: str, right: str, flow_id: int | None) -> bool:
    cur = await conn.execute(QUERIES["has_right"], {"name": name, "right": right, "flow_id": flow_id})
    row = await cur.fetchone()
    return bool(row and row[0])


async def principals_of(conn: AsyncConnection[Any], name: str) -> set[str]:
    """`user:<name>` and `group:<g>` for each group: what an approval's `approvers` are matched against."""
    cur = await conn.execute(QUERIES["groups_of"], {"name": name})
    return {f"user:{name}", *(f"group:{row[0]}" for row in await cur.fetchall())}
