"""The flows and their versions: every statement on the `flows` and `flow_versions` tables is run here,
behind typed functions whose rows are dataclasses (the columns aliased to their fields). Every save is a
new version, so a paused run's version never changes under it; a rename or a new description is no
version (`rename_flow`): the flow's row holds its name and description, each version the ones it was
saved with."""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any

from psycopg import AsyncConnection
from psycopg.rows import class_row, scalar_row
from psycopg.types.json import Jsonb

from backend.actions.command_rights import check_commands
from backend.digests import secret_digest
from backend.flows.schedules import schedule_of, trigger_kind
from backend.queue.schedules import sync_schedule
from backend.queue.store import RunStatus, TriggerKind
from backend.store.queries import load

QUERIES = load("backend.flows", "queries.sql")


async def create_flow(conn: AsyncConnection[Any], document: dict[str, Any], *, by: str | None) -> int:
    """A new flow with `document` as its version 1; the flow's id. The document must be valid."""
    async with conn.transaction():
        cur = conn.cursor(row_factory=scalar_row)
        await cur.execute(QUERIES["insert_flow"], {"name": document["name"], "by": by})
        flow_id = await cur.fetchone()
        assert isinstance(flow_id, int), "an INSERT ... RETURNING returns its row"
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
        cur = conn.cursor(row_factory=scalar_row)
        await cur.execute(
            QUERIES["add_version"],
            {
                "flow_id": flow_id,
                "name": document["name"],
                "description": document.get("description"),
                "document": Jsonb(document),
                "by": by,
            },
        )
        version = await cur.fetchone()
        if version is None:
            raise LookupError(f"no flow {flow_id}")
        await sync_schedule(conn, flow_id, schedule_of(document))
    return int(version)


@dataclass(frozen=True, slots=True)
class FlowRow:
    """A flow as lists and the flow page show it; `document` (its newest) only when one flow is read."""

    id: int
    name: str
    version: int
    created_at: datetime
    created_by: str | None
    webhook: bool  # whether a webhook secret is set
    document: dict[str, Any] | None = None
    description: str | None = None

    def current_document(self) -> dict[str, Any] | None:
        """The newest document as the flow is now: a rename or a description changed since that version
        was saved shows in it, so the next save carries them (the version itself keeps its own).

        Examples:
            >>> from datetime import datetime
            >>> row = FlowRow(1, "Pay", 1, datetime(2026, 1, 1), None, False, {"name": "Old",
            ...     "description": "was", "nodes": []}, None)
            >>> row.current_document()
            {'name': 'Pay', 'nodes': []}
        """
        if self.document is None:
            return None
        current = {**self.document, "name": self.name}
        current.pop("description", None)
        if self.description is not None:
            current["description"] = self.description
        return current


class Keep(Enum):
    """What `rename_flow` is given for a description it must leave as it is."""

    KEEP = "keep"


KEEP = Keep.KEEP


class FlowNameTaken(Exception):
    """Another flow already has the name asked for (compared case folded): `flow_name_taken`."""


@dataclass(frozen=True, slots=True)
class FlowNames:
    """A flow's name and description, as its row holds them, and its newest version."""

    name: str
    description: str | None
    version: int = 0


async def rename_flow(
    conn: AsyncConnection[Any], flow_id: int, *, name: str | None, description: str | Keep | None
) -> FlowNames | None:
    """Give the flow a new name and/or description without a new version; what it holds then, or None
    when there is no such flow. `name` None keeps the name; `description` KEEP keeps it, None
    removes it. `FlowNameTaken` when another flow has the name, case folded; then nothing changes."""
    async with conn.transaction():
        cur = conn.cursor(row_factory=class_row(FlowNames))
        await cur.execute(QUERIES["flow_names_for_update"], {"flow_id": flow_id})
        now = await cur.fetchone()
        if now is None:
            return None
        if name is not None and name != now.name:
            held = conn.cursor(row_factory=scalar_row)
            await held.execute(QUERIES["lock_flow_name"], {"name": name})
            await held.execute(QUERIES["flow_name_holder"], {"name": name, "flow_id": flow_id})
            if await held.fetchone() is not None:
                raise FlowNameTaken(name)
        await cur.execute(
            QUERIES["rename_flow"],
            {
                "flow_id": flow_id,
                "name": now.name if name is None else name,
                "description": now.description if description is KEEP else description,
            },
        )
        return await cur.fetchone()


@dataclass(frozen=True, slots=True)
class FlowSummary:
    """What the editor's flow list shows beside a flow: its trigger, its newest save, its newest run."""

    id: int
    trigger_kind: TriggerKind | None
    changed_at: datetime | None
    changed_by: str | None
    last_run_status: RunStatus | None


@dataclass(frozen=True, slots=True)
class VersionRow:
    """One saved version; `document` only when one version is read."""

    version: int
    created_at: datetime
    created_by: str | None
    document: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Webhook:
    """What a webhook call is checked against: the secret's digest (None: no secret set) and the newest
    document, whose trigger must be a webhook."""

    digest: str | None
    document: dict[str, Any]

    def admits(self, secret: str) -> bool:
        """Whether `secret` is this flow's webhook secret and its newest version is triggered by webhook
        (compared in constant time)."""
        return (
            self.digest is not None
            and hmac.compare_digest(self.digest, secret_digest(secret))
            and trigger_kind(self.document) == "webhook"
        )


async def list_flows(
    conn: AsyncConnection[Any], *, user: str, before: int | None, limit: int
) -> list[FlowRow]:
    """The flows `user` may read (any right on the flow, or everywhere), newest first, after a cursor."""
    cur = conn.cursor(row_factory=class_row(FlowRow))
    await cur.execute(QUERIES["list_flows"], {"user": user, "before": before, "limit": limit})
    return await cur.fetchall()


async def get_flow(conn: AsyncConnection[Any], flow_id: int) -> FlowRow | None:
    """One flow with its newest document; None when there is no such flow (or it was never saved)."""
    cur = conn.cursor(row_factory=class_row(FlowRow))
    await cur.execute(QUERIES["get_flow"], {"flow_id": flow_id})
    return await cur.fetchone()


async def summaries(conn: AsyncConnection[Any], ids: list[int]) -> dict[int, FlowSummary]:
    """The editor's summary of each of the flows `ids`, by id (one statement for a whole page)."""
    cur = conn.cursor(row_factory=class_row(FlowSummary))
    await cur.execute(QUERIES["flow_summaries"], {"ids": ids})
    return {summary.id: summary for summary in await cur.fetchall()}


async def newest_version_for_update(conn: AsyncConnection[Any], flow_id: int) -> VersionRow | None:
    """The flow's newest version, who saved it and when; the flow's row stays locked until the caller's
    transaction ends, so that two saves from one base cannot both see themselves newest."""
    cur = conn.cursor(row_factory=class_row(VersionRow))
    await cur.execute(QUERIES["newest_version_for_update"], {"flow_id": flow_id})
    return await cur.fetchone()


async def versions_of(conn: AsyncConnection[Any], flow_id: int) -> list[VersionRow]:
    """A flow's versions, newest first, without their documents; [] when there is no such flow."""
    cur = conn.cursor(row_factory=class_row(VersionRow))
    await cur.execute(QUERIES["list_versions"], {"flow_id": flow_id})
    return await cur.fetchall()


async def version_of(conn: AsyncConnection[Any], flow_id: int, version: int) -> VersionRow | None:
    """One saved version with its document."""
    cur = conn.cursor(row_factory=class_row(VersionRow))
    await cur.execute(QUERIES["get_version"], {"flow_id": flow_id, "version": version})
    return await cur.fetchone()


async def new_webhook_secret(conn: AsyncConnection[Any], flow_id: int, *, by: str) -> str | None:
    """A new webhook secret for the flow (only its digest is kept, and who set it: the runs it starts
    count them as their starter for self-approval; the old secret stops working at once); None when there
    is no such flow."""
    secret = secrets.token_urlsafe(32)
    cur = await conn.execute(
        QUERIES["set_webhook_secret"], {"flow_id": flow_id, "digest": secret_digest(secret), "by": by}
    )
    return secret if await cur.fetchone() is not None else None


async def webhook_of(conn: AsyncConnection[Any], flow_id: int) -> Webhook | None:
    """The flow's webhook secret digest and newest document; None when there is no such flow."""
    cur = conn.cursor(row_factory=class_row(Webhook))
    await cur.execute(QUERIES["webhook_of"], {"flow_id": flow_id})
    return await cur.fetchone()
