"""What the run page shows beside the journal: the pinned version's flow, visit counts, what the wait
waits for, the approvals, the actions' effects, and the variables with credentials masked.

The run's own parts come with it in one statement (`run_page`, queue/store.py); the approvals and the
effects are one indexed statement each, by run. The response body of an action is never shown (it can be
large and can hold anything), only its status or reason code.
"""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection

from backend.actions.queries import effects_of_run
from backend.api.answers import exact, picked
from backend.api.approvals import APPROVAL
from backend.approvals.records import approvals_of_run
from backend.i18n.catalogs import explain
from backend.queue.claims import MAX_ATTEMPTS
from backend.queue.store import RunPage
from backend.walker.redact import redact_values

_MOMENT: dict[str, Any] = {"type": "string", "format": "date-time"}
_MAYBE_MOMENT: dict[str, Any] = {"type": ["string", "null"], "format": "date-time"}
_MAYBE_TEXT: dict[str, Any] = {"type": ["string", "null"]}
# The pinned version as saved (it was valid then: flowyard.flow/1, GET /api/schemas/flow), read for its
# nodes and wires; what else a node carries is the flow format's.
PINNED_DOCUMENT: dict[str, Any] = {
    "type": "object",
    "required": ["nodes", "wires"],
    "properties": {
        "nodes": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "type"],
                "properties": {
                    "id": {"type": "string"},
                    "type": {"type": "string"},
                    "config": {"type": "object"},
                    "label": {"type": "string"},
                    "position": {
                        "type": "object",
                        "required": ["x", "y"],
                        "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                    },
                },
            },
        },
        "wires": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["from", "to"],
                "properties": {
                    "from": {"type": "string"},
                    "to": {"type": "string"},
                    "port": {"type": "string"},
                },
            },
        },
    },
}
RUN_APPROVAL = picked(
    APPROVAL,
    (
        "id",
        "visit",
        "node",
        "title",
        "approvers",
        "deadline_at",
        "on_timeout",
        "requested_at",
        "outcome",
        "decided_by",
        "decided_at",
        "comment",
        "shown",
    ),
)
EFFECT_STATES = ["sent", "failed", "pending", "late"]
EFFECT = exact(
    {
        "visit": {"type": "integer"},
        "node": {"type": "string"},
        "type": {"type": "string"},
        "key": {"type": "string"},
        "attempts": {"type": "integer"},
        "state": {
            "enum": EFFECT_STATES,
            "description": "sent: an answer is recorded; failed: an error is; pending: a try is under way or "
            "died; late: an answer came after its attempt was given up (the outcome that stands is still "
            "`status` and `code`)",
        },
        "request": {},
        "status": {"type": ["integer", "null"], "description": "the answer's HTTP status, when it had one"},
        "code": {**_MAYBE_TEXT, "description": "the failure's reason code"},
        "code_message": {**_MAYBE_TEXT, "description": "the reason code's sentence, set with `code`"},
        "created_at": _MOMENT,
        "completed_at": _MAYBE_MOMENT,
        "late_status": {"type": ["integer", "null"]},
        "late_at": _MAYBE_MOMENT,
    }
)
DETAILS: dict[str, Any] = {
    "flow": {
        "type": ["object", "null"],
        "description": "the pinned version's document and the flow's name",
        "required": ["name", "document"],
        "properties": {"name": {"type": "string"}, "document": PINNED_DOCUMENT},
    },
    "visits": {"type": "object", "additionalProperties": {"type": "integer"}},
    "approvals": {"type": "array", "items": RUN_APPROVAL},
    "effects": {"type": "array", "items": EFFECT},
    "variables": {"description": "a paused run's variables, credential-like keys masked; null once ended"},
    "max_attempts": {"type": "integer", "description": "the tries a wait makes before its run fails"},
}


def _iso(moment: Any) -> str | None:
    return moment.isoformat() if moment is not None else None


async def run_details(conn: AsyncConnection[Any], run: RunPage, locale: str = "en") -> dict[str, Any]:
    approvals = [
        {
            "id": approval.id,
            "visit": approval.visit,
            "node": approval.node,
            "title": approval.title,
            "approvers": approval.approvers,
            "deadline_at": _iso(approval.deadline_at),
            "on_timeout": approval.on_timeout,
            "requested_at": _iso(approval.requested_at),
            "outcome": approval.outcome,
            "decided_by": approval.decided_by,
            "decided_at": _iso(approval.decided_at),
            "comment": approval.comment,
            "shown": approval.shown,
        }
        for approval in await approvals_of_run(conn, run.id)
    ]
    effects = [
        {
            "visit": effect.visit,
            "node": effect.node,
            "type": effect.type,
            "key": effect.key,
            "attempts": effect.attempts,
            "state": "late"
            if effect.late_at is not None
            else {"out": "sent", "error": "failed"}.get(effect.outcome or "", "pending"),
            "request": effect.request,
            "status": effect.status,
            "code": effect.code,
            "code_message": explain(effect.code, locale) if effect.code else None,
            "created_at": _iso(effect.created_at),
            "completed_at": _iso(effect.completed_at),
            "late_status": effect.late_status,
            "late_at": _iso(effect.late_at),
        }
        for effect in await effects_of_run(conn, run.id)
    ]
    return {
        "flow": {"name": run.flow_name, "document": run.document} if run.document is not None else None,
        "visits": run.visits,
        "approvals": approvals,
        "effects": effects,
        "variables": redact_values(run.variables) if run.variables else None,
        "max_attempts": MAX_ATTEMPTS,
    }
