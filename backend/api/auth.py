"""Who is asking: a bearer token (programs) or a session cookie with a CSRF token on writes (the editor).

Every request is authenticated except /healthz and webhook calls, which carry a secret of their own.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from psycopg import AsyncConnection
from starlette.requests import Request

from backend.api.errors import ApiError
from backend.people.accounts import QUERIES as PEOPLE
from backend.people.accounts import user_of_token

SESSION_COOKIE = "flowyard_session"
CSRF_HEADER = "x-csrf-token"
SESSION_LIFETIME = timedelta(hours=12)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True, slots=True)
class User:
    name: str
    locale: str | None
    # The session's CSRF token (None for a bearer token): /api/me hands it back, so an editor tab opened
    # after the login can write without logging in again.
    csrf: str | None = None
    time_zone: str | None = None  # an IANA name; None until set (the reader reads UTC)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


async def authenticate(conn: AsyncConnection[Any], request: Request) -> User:
    """The user behind the request, or 401; a cookie-authenticated write without its CSRF token is 403."""
    header = request.headers.get("authorization")
    if header is not None:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(401, code="auth_token_invalid")
        name = await user_of_token(conn, token.strip())
        if name is None:
            raise ApiError(401, code="auth_token_invalid")
        cur = await conn.execute(PEOPLE["user_locale"], {"name": name})
        row = await cur.fetchone()
        return User(name, row[0] if row else None, None, row[1] if row else None)
    session = request.cookies.get(SESSION_COOKIE)
    if session:
        cur = await conn.execute(PEOPLE["session_user"], {"id_hash": _digest(session)})
        row = await cur.fetchone()
        if row is None:
            raise ApiError(401, code="auth_session_expired")
        name, csrf, locale, time_zone = row
        if request.method not in SAFE_METHODS:
            sent = request.headers.get(CSRF_HEADER, "")
            if not secrets.compare_digest(sent.encode(), str(csrf).encode()):
                raise ApiError(403, code="csrf_token_invalid")
        return User(name, locale, str(csrf), time_zone)
    raise ApiError(401, code="auth_required")


async def open_session(conn: AsyncConnection[Any], name: str) -> tuple[str, str]:
    """A new session for `name`: (the cookie's value, the CSRF token). Only digests are stored."""
    session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    await conn.execute(
        PEOPLE["insert_session"],
        {"id_hash": _digest(session), "name": name, "csrf": csrf, "lifetime": SESSION_LIFETIME},
    )
    return session, csrf


async def close_session(conn: AsyncConnection[Any], request: Request) -> None:
    session = request.cookies.get(SESSION_COOKIE)
    if session:
        await conn.execute(PEOPLE["delete_session"], {"id_hash": _digest(session)})
