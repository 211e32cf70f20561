"""What the runs, inbox and audit browser tests share: a server with a real SMTP server and an HTTP
receiver beside it, tokens for API calls, and the invoice flow of seed 004. Tests wait for what a page
shows with Playwright's expect(), which retries until it holds, and for mail with the mailbox's own wait
(woken by each arrival); nothing here polls with sleeps."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg
from psycopg import sql

from backend.people.accounts import create_token
from backend.people.commands import ACTOR as CLI_ACTOR
from backend.store.database import connect, with_database
from tests.actions.servers import Mailbox, RecordingServer, recording_server, smtp_server
from tests.browser.support import Server, serve
from tests.server_logs import known_secret
from tests.support import Connected


@dataclass
class Story:
    """The server, the mailbox approvers' mails land in, and the receiver the flow's http action calls."""

    server: Server
    mailbox: Mailbox
    receiver: RecordingServer

    tokens: dict[str, str] = field(default_factory=dict, repr=False, compare=False)  # live: never printed

    def token(self, name: str) -> str:
        """An API token of `name`'s, made once a module as `flowyard token create` makes one."""
        if name not in self.tokens:
            made = Connected(self.server.database_url).beside_a_loop(
                lambda conn: create_token(conn, name, actor=CLI_ACTOR)
            )
            self.tokens[name] = known_secret(made)
        return self.tokens[name]

    def api(self, token: str) -> httpx.Client:
        return httpx.Client(
            base_url=self.server.url, headers={"Authorization": f"Bearer {token}"}, timeout=30
        )

    def set_locale(self, name: str, locale: str) -> None:
        with psycopg.connect(self.server.database_url, autocommit=True) as conn:
            conn.execute("UPDATE users SET locale = %s WHERE name = %s", (locale, name))


@contextmanager
def story_server(
    pg_server_url: str, template_database: str, suffix: str, env: dict[str, str] | None = None
) -> Iterator[Story]:
    name = f"{template_database}_{suffix}"
    with connect(pg_server_url, autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(
            sql.SQL("CREATE DATABASE {} TEMPLATE {}").format(
                sql.Identifier(name), sql.Identifier(template_database)
            )
        )
    try:
        with smtp_server() as (mailbox, port), recording_server() as receiver:
            env = {
                "FLOWYARD_SMTP_HOST": "127.0.0.1",
                "FLOWYARD_SMTP_PORT": str(port),
                "FLOWYARD_ACTIONS_ALLOW": "127.0.0.1",
                **(env or {}),
            }
            with serve(with_database(pg_server_url, name), env) as server:
                yield Story(server, mailbox, receiver)
    finally:
        with connect(pg_server_url, autocommit=True) as conn:
            conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def invoice_flow(receiver_url: str, *, deadline: str = "P2D", on_timeout: str = "reject") -> dict[str, Any]:
    """Seed 004's invoice flow: ask finance, then pay through an http action, then log."""
    return {
        "format": "flowyard.flow/1",
        "name": "Invoice approval",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {
                "id": "ask",
                "type": "approval",
                "config": {
                    "title": "Pay invoice {{trigger.invoice}}?",
                    "explanation": "Amount {{trigger.amount}} EUR is over the limit",
                    "approvers": ["group:finance"],
                    "deadline": deadline,
                    "on_timeout": on_timeout,
                },
            },
            {
                "id": "pay",
                "type": "http",
                "config": {
                    "method": "POST",
                    "url": f"{receiver_url}/pay",
                    "body": {"invoice": "{{trigger.invoice}}"},
                },
            },
            {"id": "paid", "type": "log", "config": {"message": "paid {{trigger.invoice}}"}},
            {"id": "refused", "type": "log", "config": {"message": "refused {{trigger.invoice}}"}},
        ],
        "wires": [
            {"from": "start", "to": "ask"},
            {"from": "ask", "port": "approve", "to": "pay"},
            {"from": "ask", "port": "reject", "to": "refused"},
            {"from": "pay", "to": "paid"},
        ],
    }
