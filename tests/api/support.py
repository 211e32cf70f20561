"""An API client per user, over the real app and the module's database."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from starlette.testclient import TestClient

from backend.api.app import create_app
from backend.people.accounts import Grant, add_user, create_token
from backend.settings import Settings
from tests.server_logs import known_secret
from tests.support import AsyncConnection, Connected


def make_user(
    url: str, name: str, *grants: str, groups: tuple[str, ...] = (), password: str | None = None
) -> str:
    """A user with rights; their new token."""

    async def go(conn: AsyncConnection) -> str:
        await add_user(
            conn, name, grants=[Grant.parse(g) for g in grants], groups=list(groups), password=password
        )
        if password:
            known_secret(password)
        return known_secret(await create_token(conn, name))

    return Connected(url)(go)


@contextmanager
def app_client(url: str, **settings: Any) -> Iterator[TestClient]:
    """A client of the app on `url`, its settings the environment's but for the fields named."""
    given = replace(Settings.from_environment(), **settings)
    with TestClient(create_app(url, settings=given), raise_server_exceptions=True) as client:
        yield client


def auth(token: str, **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}", **headers}


def approval_and_delay_flow() -> dict[str, Any]:
    return {
        "format": "flowyard.flow/1",
        "name": "Pay approved invoices",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {
                "id": "ask",
                "type": "approval",
                "config": {
                    "title": "Pay {{trigger.invoice}}?",
                    "explanation": "Over the limit",
                    "approvers": ["group:finance"],
                    "deadline": "P2D",
                    "on_timeout": "reject",
                },
            },
            {"id": "cool", "type": "delay", "config": {"duration": "PT1H"}},
            {"id": "paid", "type": "log", "config": {"message": "paid {{trigger.invoice}}"}},
        ],
        "wires": [
            {"from": "start", "to": "ask"},
            {"from": "ask", "port": "approve", "to": "cool"},
            {"from": "cool", "to": "paid"},
        ],
    }


def csv_rows(answer: Any) -> list[list[str]]:
    """The rows of an export's CSV download, which starts with a UTF-8 byte-order mark (for Excel)."""
    body: bytes = answer.content
    assert body.startswith("\ufeff".encode()), "the CSV download starts with a byte-order mark"
    return list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
