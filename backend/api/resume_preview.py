"""`POST /api/runs/{id}/resume/preview`: what resuming a stopped run would send, and where it would stop,
with nothing written and nothing sent (backend/queue/preview.py). The run page's "Preview".

It takes what a resume takes: the run right on the flow, and the same body (`{}` or `{"version": N}`);
it is refused as the resume would be (`run_not_stopped`, `run_resume_nodes_missing`, ...), with the
same statuses. Like the editor's sample walk (walk.py) its walk runs on a worker thread under the
validations' limiter, its journal held to FLOWYARD_MAX_WALK_JOURNAL_BYTES.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import anyio.to_thread
from starlette.responses import Response

from backend.api import flows
from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.api.rights import require
from backend.api.runs import _readable_run
from backend.api.stops import RESUME_BODY, refusal
from backend.i18n.catalogs import explain
from backend.queue.preview import ResumePreview, preview_resume, read_resume
from backend.queue.stops import StopRefused
from backend.walker.sizes import JournalBudget

_NULLABLE_TEXT = {"type": ["string", "null"]}
PREVIEW: dict[str, Any] = {
    "type": "object",
    "required": [
        *("run", "version", "from_version", "status", "pending"),
        *("error", "error_message", "node", "node_label", "actions"),
    ],
    "properties": {
        "run": {"type": "integer"},
        "version": {"type": "integer", "description": "the version the resume would go on with"},
        "from_version": {"type": "integer"},
        "status": {
            "enum": ["waiting", "succeeded", "failed"],
            "description": "where the resume would stop: waiting at `pending`, or the run's end",
        },
        "pending": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["node", "visit", "type", "label"],
                "properties": {
                    "node": {"type": "string"},
                    "visit": {"type": "integer"},
                    "type": {"type": "string", "description": "approval, delay or wait_event"},
                    "label": _NULLABLE_TEXT,
                },
            },
        },
        "error": {**_NULLABLE_TEXT, "description": "the reason code of a failure"},
        "error_message": {**_NULLABLE_TEXT, "description": "its sentence, in the reader's language"},
        "node": {**_NULLABLE_TEXT, "description": "the node a failure would be at"},
        "node_label": {**_NULLABLE_TEXT, "description": "that node's label, if it has one"},
        "actions": {
            "type": "array",
            "description": "the actions the resume would reach, in order; each sent one assumed to succeed",
            "items": {
                "type": "object",
                "required": ["node", "label", "type", "destination", "visit", "key", "sent"],
                "properties": {
                    "node": {"type": "string"},
                    "label": _NULLABLE_TEXT,
                    "type": {"type": "string", "description": "http, notify or command"},
                    "destination": {
                        **_NULLABLE_TEXT,
                        "description": "where it goes, as written: templates and secret refs unrendered",
                    },
                    "visit": {"type": "integer"},
                    "key": {
                        **_NULLABLE_TEXT,
                        "description": "its effect key; null: a new one, made on sending",
                    },
                    "sent": {
                        "type": "boolean",
                        "description": "false: its recorded outcome stands and nothing would leave for it",
                    },
                },
            },
        },
    },
}


@endpoint(
    "POST",
    "/api/runs/{run_id:int}/resume/preview",
    summary="What resuming a stopped run would send and where it would stop; nothing written or sent",
    tag="runs",
    body=RESUME_BODY,
    responses={200: PREVIEW, 403: None, 404: None, 409: None, 503: None},
)
async def resume_preview(call: Call) -> Response:
    run = await _readable_run(call)
    await require(call, "run", run.flow_id)
    try:
        start = await read_resume(call.conn, run.id, call.body.get("version"))
    except StopRefused as refused:
        raise refusal(refused) from None
    config = call.settings
    limits = config.limits
    budget = JournalBudget(config.max_walk_journal_bytes)
    if flows.validations_busy():
        raise ApiError(503, code="validation_busy", detail={"limit": flows.VALIDATIONS_AT_ONCE})
    work = partial(preview_resume, start, limits, budget)
    preview: ResumePreview = await anyio.to_thread.run_sync(work, limiter=flows.validations)
    answer = preview.to_json()
    answer["error_message"] = explain(preview.error, call.locale) if preview.error else None
    return reply(answer)
