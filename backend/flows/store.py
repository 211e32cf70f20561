"""Saving flows: every save is a new version, so a paused run's version never changes under it."""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.actions.command_rights import check_commands
from backend.flows.schedules import schedule_of
from backend.queue.schedules import sync_schedule
from backend.store.queries import load

QUERIES = load("backend.flows", "queries.sql")


async def create_flow(conn: AsyncConnection[Any], document: dict[str, Any], *, by: str | None) -> int:
    """A new flow with `document` as its version 1; the flow's id. The document must be valid."""
    async with conn.transaction():
        cur = await conn.execute(QUERIES["insert_flow"], {"name": document["name"], "by": by})
        row = await cur.fetchone()
        assert row is not None
        flow_id = int(row[0])
        await save_version(conn, flow_id, document, by=by)
    return flow_id


async def save_version(
    conn: AsyncConnection[Any], flow_id: int, document: dict[str, Any], *, by: str | None
) -> int:
    """Save `document` as the flow's next version; its number. The document must be valid.

    A schedule trigger takes effect with the version: its next fire is computed in the same transaction.
    Command nodes take `use_server` on their servers and registered templates: `CommandRefused`.
    """
    async with conn.transaction():
        await check_commands(conn, document, by)
        cur = await conn.execute(
            QUERIES["add_version"],
            {"flow_id": flow_id, "name": document["name"], "document": Jsonb(document), "by": by},
        )
        row = await cur.fetchone()
        if row is None:
            raise LookupError(f"no flow {flow_id}")
        await sync_schedule(conn, flow_id, schedule_of(document))
    return int(row[0])
