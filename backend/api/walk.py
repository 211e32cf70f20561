"""`POST /api/flows/walk`: the editor's "Walk with sample input".

The same pure walker as `flowyard walk`: a document, a sample input and the answers chosen for the
approvals and event waits in, the visits and the journal out. No run is created, no database row is
written, nothing is sent: an action is journaled as what would be sent and follows `out`, a delay passes
at once. The walk is bounded by the walker's own limits (visits, value sizes) and runs on a worker
thread under the same limiter as a large validation, so a walk never holds the event loop.

A walk costs the server what the document makes it cost, so it takes a right: `edit` everywhere, or,
for the flow named by `flow`, `edit` or `run` on it. Its journal is held to
FLOWYARD_MAX_WALK_JOURNAL_BYTES as the walk writes it (`walk_journal_too_large`): a small document that
logs a large value in every pass of a loop cannot make the server build, nor send, a journal of hundreds
of megabytes. Each line's sentence is made from its line, so the answer is at most about twice that.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any, cast

import anyio.to_thread
from starlette.responses import Response

from backend.api import flows
from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.api.rights import require, require_read
from backend.graph.model import Flow
from backend.i18n.catalogs import message
from backend.people.accounts import has_right
from backend.walker.answers import refusal
from backend.walker.cli import walk_answering
from backend.walker.sizes import JournalBudget, Limits
from backend.walker.step import JournalLine

MAX_ANSWERS = 100

BODY: dict[str, Any] = {
    "type": "object",
    "required": ["document"],
    "additionalProperties": False,
    "properties": {
        "document": flows.DOCUMENT,
        "flow": {
            "type": "integer",
            "minimum": 1,
            "description": "the flow the document is a draft of: `edit` or `run` on it is enough to walk",
        },
        "input": {"description": "the trigger's payload: any JSON value (none: null)"},
        "answers": {
            "type": "array",
            "maxItems": MAX_ANSWERS,
            "description": "the answers to approvals and wait_events, taken in order by the node they name",
            "items": {
                "type": "object",
                "required": ["node", "outcome"],
                "additionalProperties": False,
                "properties": {
                    "node": {"type": "string", "maxLength": 200},
                    "outcome": {
                        "type": "string",
                        "pattern": "^[a-z][a-z0-9_]{0,63}$",
                        "description": "approve, reject or timeout (approval); an event's name or timeout",
                    },
                },
            },
        },
    },
}
WALKED: dict[str, Any] = {
    "type": "object",
    "required": ["status", "visits", "error", "waiting_at", "pending", "journal"],
    "properties": {
        "status": {"enum": ["succeeded", "failed", "waiting"]},
        "visits": {"type": "array", "items": {"type": "string"}, "description": "node ids, in order"},
        "error": {"type": ["string", "null"], "description": "the reason code of a failed walk"},
        "waiting_at": {"type": ["string", "null"], "description": "the first of the pauses pending"},
        "pending": {
            "type": "array",
            "description": "the approvals and wait_events waited at, in branch order (several in a parallel)",
            "items": {
                "type": "object",
                "required": ["node", "visit"],
                "properties": {"node": {"type": "string"}, "visit": {"type": "integer"}},
            },
        },
        "journal": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["code", "node", "visit", "data", "message"],
                "properties": {
                    "code": {"type": "string"},
                    "node": {"type": ["string", "null"]},
                    "visit": {"type": ["integer", "null"]},
                    "data": {"type": "object"},
                    "message": {"type": "string"},
                },
            },
        },
    },
}


def _answers(given: list[dict[str, str]], flow: Flow) -> list[tuple[str, str]]:
    """The answers in the order given (which decides the order pauses of a parallel resume); each must
    name an approval or a wait_event that can take it (backend/walker/answers.py)."""
    queued: list[tuple[str, str]] = []
    for answer in given:
        node_id, outcome = answer["node"], answer["outcome"]
        why = refusal(flow, node_id, outcome)
        if why is not None:
            code = {
                "not_answerable": "walk_sample_not_approval",
                "outcome_unknown": "walk_sample_outcome_unknown",
                "cannot_time_out": "walk_sample_cannot_time_out",
                "event_unknown": "walk_sample_event_unknown",
                "event_cannot_time_out": "walk_sample_event_cannot_time_out",
            }[why]
            raise ApiError(422, code=code, detail={"node": node_id, "outcome": outcome}, node=node_id)
        queued.append((node_id, outcome))
    return queued


def _walk(
    document: Any,
    trigger: Any,
    answers: list[dict[str, str]],
    limits: Limits,
    budget: JournalBudget,
    locale: str,
) -> Response:
    """The answer: the walk and its journal with each line's sentence (up to 500 visits' worth), its JSON
    text made here too, off the event loop (megabytes of it, at the journal's budget)."""
    flow = Flow.load(cast(Mapping[str, Any], document))  # validated: it is a flow document
    walked = walk_answering(flow, trigger, _answers(answers, flow), limits, budget)
    return reply(
        {
            "status": walked.status,
            "visits": walked.visits,
            "error": walked.error,
            "waiting_at": walked.pending[0][0] if walked.pending else None,
            "pending": [{"node": node, "visit": visit} for node, visit in walked.pending],
            "journal": [_line(line, locale) for line in walked.journal],
        }
    )


def _line(line: JournalLine, locale: str) -> dict[str, Any]:
    return {
        **line.to_json(),
        "message": message(line.code, locale, **{"node": line.node, "visit": line.visit, **line.data}),
    }


@endpoint(
    "POST",
    "/api/flows/walk",
    summary="Walk a document with a sample input, in memory: no run, no side effects",
    tag="flows",
    body=BODY,
    responses={200: WALKED, 403: None, 404: None, 422: None, 503: None},
)
async def walk_sample(call: Call) -> Response:
    await _may_walk(call, call.body.get("flow"))
    findings = await flows.findings_of(call, call.body["document"])
    if findings:
        raise ApiError(422, code="flow_invalid", detail={"findings": [f.to_json() for f in findings]})
    config = call.settings
    limits = config.limits
    budget = JournalBudget(config.max_walk_journal_bytes)
    # Loading a document of up to 1,000 nodes, walking it and writing its journal's sentences: all off
    # the event loop.
    body = call.body
    given = (body.get("input"), body.get("answers", []), limits, budget, call.locale)
    work = partial(_walk, body["document"], *given)
    if flows.validations_busy():
        raise ApiError(503, code="validation_busy", detail={"limit": flows.VALIDATIONS_AT_ONCE})
    return await anyio.to_thread.run_sync(work, limiter=flows.validations)


async def _may_walk(call: Call, flow_id: int | None) -> None:
    """`edit` everywhere; or, for a flow named, `edit` or `run` on it (a flow the caller may not read is
    answered as one that does not exist). Asked before the document is read: a refusal costs nothing."""
    if flow_id is None:
        await require(call, "edit")
        return
    await require_read(call, flow_id)
    if not await has_right(call.conn, call.me.name, "run", flow_id):
        await require(call, "edit", flow_id)
