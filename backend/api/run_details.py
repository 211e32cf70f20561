"""What the run page shows beside the journal: the pinned version's flow, visit counts, what the wait
waits for, the approvals, the actions' effects, and the variables with credentials masked.

Each part is one indexed statement by run; the response body of an action is never shown (it can be
large and can hold anything), only its status or reason code.
"""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection

from backend.actions.queries import QUERIES as ACTIONS
from backend.approvals.service import QUERIES as APPROVALS
from backend.i18n.catalogs import explain
from backend.queue.claims import MAX_ATTEMPTS
from backend.queue.queries import QUERIES
from backend.walker.redact import redact_values

DETAILS: dict[str, Any] = {
    "flow": {"type": ["object", "null"], "description": "the pinned version's document and the flow's name"},
    "visits": {"type": "object", "additionalProperties": {"type": "integer"}},
    "approvals": {"type": "array", "items": {"type": "object"}},
    "effects": {"type": "array", "items": {"type": "object"}},
    "variables": {"description": "a paused run's variables, credential-like keys masked; null once ended"},
}


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


async def run_details(conn: AsyncConnection[Any], run: tuple[Any, ...], locale: str = "en") -> dict[str, Any]:
    run_id, flow_id, version = run[0], run[1], run[2]
    by_run = {"run_id": run_id}
    cur = await conn.execute(QUERIES["pinned_document"], {"flow_id": flow_id, "version": version})
    pinned = await cur.fetchone()
    visits = {
        node: count for node, count in await (await conn.execute(QUERIES["visits_of_run"], by_run)).fetchall()
    }
    variables_row = await (await conn.execute(QUERIES["variables_of_run"], by_run)).fetchone()
    approvals = [
        {
            "id": row[0],
            "visit": row[1],
            "node": row[2],
            "title": row[3],
            "approvers": row[4],
            "deadline_at": _iso(row[5]),
            "on_timeout": row[6],
            "requested_at": _iso(row[7]),
            "outcome": row[8],
            "decided_by": row[9],
            "decided_at": _iso(row[10]),
            "comment": row[11],
        }
        for row in await (await conn.execute(APPROVALS["approvals_of_run"], by_run)).fetchall()
    ]
    effects = [
        {
            "visit": row[0],
            "node": row[1],
            "type": row[2],
            "key": row[3],
            "attempts": row[4],
            # sent: an answer is recorded; failed: an error is; pending: a try is under way or died
            "state": {"out": "sent", "error": "failed"}.get(row[5] or "", "pending"),
            "request": row[6],
            "status": row[7],
            "code": row[8],
            "code_message": explain(row[8], locale) if row[8] else None,
            "created_at": _iso(row[9]),
            "completed_at": _iso(row[10]),
        }
        for row in await (await conn.execute(ACTIONS["effects_of_run"], by_run)).fetchall()
    ]
    return {
        "flow": {"name": pinned[1], "document": pinned[0]} if pinned else None,
        "visits": visits,
        "approvals": approvals,
        "effects": effects,
        "variables": redact_values(variables_row[0]) if variables_row and variables_row[0] else None,
        "max_attempts": MAX_ATTEMPTS,
    }
