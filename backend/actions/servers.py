"""Registered servers (a name, an agent URL, a token) and command templates, managed by admins.

A token is stored as given: the worker must present it to the agent, so it cannot be hashed, and a key
to encrypt it with would live beside the database URL in the same process. What is kept is the rule
that it never comes back out: `Server` has no token field, listings do not select it, and only
`agent()`, which the command action calls, reads it (into an `Agent` whose repr hides it).

Examples:
    >>> check_name("web-1.prod")
    'web-1.prod'
    >>> repr(Agent("web-1", "https://web-1:7777/commands", "s3cr3t"))
    "Agent(name='web-1', url='https://web-1:7777/commands')"
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import httpx
from psycopg import AsyncConnection

from backend.actions.failures import ActionFailure
from backend.actions.queries import QUERIES

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$")


@dataclass(frozen=True, slots=True)
class Server:
    name: str
    agent_url: str
    created_at: datetime
    updated_at: datetime
    created_by: str | None


@dataclass(frozen=True, slots=True)
class Agent:
    name: str
    url: str
    token: str = field(repr=False)


@dataclass(frozen=True, slots=True)
class Template:
    name: str
    command: str
    created_at: datetime
    created_by: str | None


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise ActionFailure(code="server_name_invalid", name=name)
    return name


def check_url(url: str) -> str:
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        raise ActionFailure(code="action_url_invalid", url=url) from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ActionFailure(code="action_url_invalid", url=url)
    return url


async def save_server(conn: AsyncConnection[Any], name: str, url: str, token: str, by: str | None) -> bool:
    """Register a server, or give a registered one a new URL and token; True when it is new."""
    if not token:
        raise ActionFailure(code="action_config_invalid", field="token", detail="empty")
    params = {"name": check_name(name), "agent_url": check_url(url), "token": token, "by": by}
    row = await (await conn.execute(QUERIES["save_server"], params)).fetchone()
    return bool(row and row[0])


async def list_servers(conn: AsyncConnection[Any]) -> list[Server]:
    return [Server(*row) for row in await (await conn.execute(QUERIES["list_servers"])).fetchall()]


async def remove_server(conn: AsyncConnection[Any], name: str) -> bool:
    return await (await conn.execute(QUERIES["remove_server"], {"name": name})).fetchone() is not None


async def agent(conn: AsyncConnection[Any], name: str) -> Agent | None:
    row = await (await conn.execute(QUERIES["server_agent"], {"name": name})).fetchone()
    return None if row is None else Agent(name, row[0], row[1])


async def save_template(conn: AsyncConnection[Any], name: str, command: str, by: str | None) -> bool:
    """Store a command template, or replace the command of one; True when it is new."""
    if not command.strip():
        raise ActionFailure(code="action_config_invalid", field="command", detail="empty")
    params = {"name": check_name(name), "command": command, "by": by}
    row = await (await conn.execute(QUERIES["save_template"], params)).fetchone()
    return bool(row and row[0])


async def list_templates(conn: AsyncConnection[Any]) -> list[Template]:
    return [Template(*row) for row in await (await conn.execute(QUERIES["list_templates"])).fetchall()]


async def remove_template(conn: AsyncConnection[Any], name: str) -> bool:
    return await (await conn.execute(QUERIES["remove_template"], {"name": name})).fetchone() is not None


async def template_command(conn: AsyncConnection[Any], name: str) -> str | None:
    row = await (await conn.execute(QUERIES["template_command"], {"name": name})).fetchone()
    return None if row is None else str(row[0])
