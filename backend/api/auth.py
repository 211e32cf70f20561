"""Who is asking: a bearer token (programs) or a session cookie with a CSRF token on writes (the editor).

Every request is authenticated except /healthz and webhook calls, which carry a secret of their own.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

from psycopg import AsyncConnection
from starlette.requests import Request

from backend.api.errors import ApiError
from backend.people import sessions
from backend.people.accounts import user_of_token

SESSION_COOKIE = "flowyard_session"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True, slots=True)
class User:
    name: str
    locale: str | None
    # The session's CSRF token (None for a bearer token): /api/me hands it back, so an editor tab opened
    # after the login can write without logging in again.
    csrf: str | None = None
    time_zone: str | None = None  # an IANA name; None until set (the reader reads UTC)


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
        settings = await sessions.settings_of(conn, name)
        return User(name, settings.locale, None, settings.time_zone)
    session = request.cookies.get(SESSION_COOKIE)
    if session:
        found = await sessions.session_user(conn, session)
        if found is None:
            raise ApiError(401, code="auth_session_expired")
        if request.method not in SAFE_METHODS:
            sent = request.headers.get(CSRF_HEADER, "")
            if not secrets.compare_digest(sent.encode(), found.csrf.encode()):
                raise ApiError(403, code="csrf_token_invalid")
        return User(found.name, found.locale, found.csrf, found.time_zone)
    raise ApiError(401, code="auth_required")


async def close_session(conn: AsyncConnection[Any], request: Request) -> None:
    session = request.cookies.get(SESSION_COOKIE)
    if session:
        await sessions.close_session(conn, session)
