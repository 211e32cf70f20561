"""Login sessions and a user's own settings: who a session cookie stands for, and the language and time
zone a user reads in. A session's id and its CSRF token are random; only the id's digest is stored.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import class_row

from backend.digests import secret_digest
from backend.people.accounts import QUERIES

SESSION_LIFETIME = timedelta(hours=12)


@dataclass(frozen=True, slots=True)
class SessionUser:
    """Who a live session belongs to, its CSRF token, and that user's language and time zone."""

    name: str
    csrf: str
    locale: str | None
    time_zone: str | None


@dataclass(frozen=True, slots=True)
class Settings:
    """A user's own settings; None until set (the reader reads the negotiated language, and UTC)."""

    locale: str | None
    time_zone: str | None


async def open_session(conn: AsyncConnection[Any], name: str) -> tuple[str, str]:
    """A new session for `name`: (the cookie's value, the CSRF token)."""
    session, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(24)
    await conn.execute(
        QUERIES["insert_session"],
        {"id_hash": secret_digest(session), "name": name, "csrf": csrf, "lifetime": SESSION_LIFETIME},
    )
    return session, csrf


async def session_user(conn: AsyncConnection[Any], session: str) -> SessionUser | None:
    """The user of a live session; None for an unknown or expired one."""
    cur = conn.cursor(row_factory=class_row(SessionUser))
    await cur.execute(QUERIES["session_user"], {"id_hash": secret_digest(session)})
    return await cur.fetchone()


async def close_session(conn: AsyncConnection[Any], session: str) -> None:
    await conn.execute(QUERIES["delete_session"], {"id_hash": secret_digest(session)})


async def settings_of(conn: AsyncConnection[Any], name: str) -> Settings:
    cur = conn.cursor(row_factory=class_row(Settings))
    await cur.execute(QUERIES["user_locale"], {"name": name})
    return await cur.fetchone() or Settings(None, None)


async def change_settings(
    conn: AsyncConnection[Any], name: str, *, locale: str | None = None, time_zone: str | None = None
) -> Settings:
    """Set what is given (None: left as it is) in one transaction; the settings after."""
    async with conn.transaction():
        if locale is not None:
            await conn.execute(QUERIES["set_locale"], {"name": name, "locale": locale})
        if time_zone is not None:
            await conn.execute(QUERIES["set_time_zone"], {"name": name, "time_zone": time_zone})
        return await settings_of(conn, name)
