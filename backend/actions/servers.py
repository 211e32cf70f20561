"""Registered servers (a name and an agent URL) and their command templates, managed by admins.

A server's agent token lives in the secret store as `server:<name>`, sealed like every secret: the
worker must present it, so it cannot be hashed. `Server` has no token field, listings never open one,
and only `agent()`, which the command action calls, does (into an `Agent` whose repr hides it).

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
import psycopg
from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.actions.failures import ActionFailure
from backend.actions.queries import QUERIES
from backend.actions.secret_store import SecretStore, server_secret
from backend.actions.templates import TemplateSpec, check_template
from backend.store.queries import every, one, scalar

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
    server: str
    name: str
    argv: list[str]
    params: dict[str, Any]
    created_at: datetime
    created_by: str | None


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise ActionFailure(code="server_name_invalid", name=name[:200])
    return name


def check_url(url: str) -> str:
    try:
        parsed = httpx.URL(url)
    except httpx.InvalidURL:
        raise ActionFailure(code="action_url_invalid", url=url) from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise ActionFailure(code="action_url_invalid", url=url)
    return url


async def save_server(
    conn: AsyncConnection[Any], store: SecretStore, name: str, url: str, token: str, by: str | None
) -> bool:
    """Register a server, or give a registered one a new URL and token, in one transaction; True when new."""
    if not token:
        raise ActionFailure(
            code="action_config_invalid", field="token", detail="empty", problem="problem_empty"
        )
    params = {"name": check_name(name), "agent_url": check_url(url), "by": by}
    async with conn.transaction():
        created = await scalar(conn, QUERIES["save_server"], params)
        await store.put(conn, server_secret(name), token, by)
    return bool(created)


async def list_servers(conn: AsyncConnection[Any]) -> list[Server]:
    return await every(conn, Server, QUERIES["list_servers"])


async def remove_server(conn: AsyncConnection[Any], name: str) -> bool:
    """Forget a server with its templates and its token."""
    return await (await conn.execute(QUERIES["remove_server"], {"name": name})).fetchone() is not None


async def agent(conn: AsyncConnection[Any], store: SecretStore, name: str) -> Agent | None:
    agent_url = await scalar(conn, QUERIES["server_agent"], {"name": name})
    if agent_url is None:
        return None
    token = (await store.reveal(conn, {server_secret(name)}))[server_secret(name)]
    return Agent(name, str(agent_url), token)


async def save_template(
    conn: AsyncConnection[Any], server: str, name: str, argv: Any, params: Any, by: str | None
) -> bool:
    """Store a server's template, or replace one's argv and parameters; True when it is new."""
    spec = check_template(argv, params)
    values = {
        "server": server,
        "name": check_name(name),
        "argv": Jsonb(spec.argv),
        "params": Jsonb(spec.params),
        "by": by,
    }
    try:
        created = await scalar(conn, QUERIES["save_template"], values)
    except psycopg.errors.ForeignKeyViolation:
        raise ActionFailure(code="action_server_missing", server=server) from None
    return bool(created)


async def list_templates(conn: AsyncConnection[Any], server: str | None = None) -> list[Template]:
    return await every(conn, Template, QUERIES["list_templates"], {"server": server})


async def remove_template(conn: AsyncConnection[Any], server: str, name: str) -> bool:
    params = {"server": server, "name": name}
    return await (await conn.execute(QUERIES["remove_template"], params)).fetchone() is not None


async def template(conn: AsyncConnection[Any], server: str, name: str) -> TemplateSpec | None:
    spec = await one(conn, TemplateSpec, QUERIES["template"], {"server": server, "name": name})
    return None if spec is None else TemplateSpec(list(spec.argv), dict(spec.params))


async def may_use_server(conn: AsyncConnection[Any], user: str, server: str) -> bool:
    return bool(await scalar(conn, QUERIES["may_use_server"], {"user": user, "server": server}))


async def version_author(conn: AsyncConnection[Any], run_id: int) -> str | None:
    """Who saved the flow version a run walks."""
    author = await scalar(conn, QUERIES["flow_version_author"], {"run_id": run_id})
    return None if author is None else str(author)
