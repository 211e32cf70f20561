"""Runs: start, list, read one with its journal, cancel; and webhook triggers."""

from __future__ import annotations

from typing import Any, get_args

from starlette.responses import Response

from backend.api.answers import exact
from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.api.flows import ID
from backend.api.rights import require, require_read
from backend.api.run_details import DETAILS, run_details
from backend.api.times import moment
from backend.approvals.queue_port import ApprovalsPort
from backend.approvals.records import DECIDED, RunDecision, decisions_of_runs
from backend.flows.store import webhook_of
from backend.i18n.catalogs import Sentences, explain
from backend.queue import store
from backend.queue.claims import WaitKind
from backend.queue.runs import (
    DecisionStands,
    FlowHasNoVersion,
    cancel_run,
    start_run,
)
from backend.queue.store import RUN_STATUSES, TRIGGER_KINDS, RunPage, RunRow, WaitStatus, run_page, run_record
from backend.walker.redact import redact_values

STATUSES = list(RUN_STATUSES)
TRIGGERS = list(TRIGGER_KINDS)
RUN = exact(
    {
        "id": {"type": "integer"},
        "flow_id": {"type": "integer"},
        "version": {"type": "integer"},
        "status": {"enum": STATUSES},
        "trigger": {"enum": TRIGGERS},
        "error": {"type": ["string", "null"]},
        "error_message": {"type": ["string", "null"], "description": "the error code's sentence, for people"},
        "started_by": {"type": ["string", "null"]},
        "created_at": {"type": "string"},
        "updated_at": {"type": "string"},
        "ended_at": {"type": ["string", "null"]},
        "decision": {
            "type": ["object", "null"],
            "description": "the run's latest decided approval: approved, rejected or settled by its deadline",
            "required": ["approval", "node", "title", "outcome", "decided_by", "decided_at"],
            "properties": {
                "approval": {"type": "integer"},
                "node": {"type": "string"},
                "title": {"type": "string"},
                "outcome": {"enum": list(DECIDED)},
                "decided_by": {"type": ["string", "null"]},
                "decided_at": {"type": "string"},
            },
        },
    },
    optional=("error_message",),
)
STARTED: dict[str, Any] = {
    "type": "object",
    "required": ["run", "created"],
    "properties": {"run": {"type": "integer"}, "created": {"type": "boolean"}},
}
# A journal page's lines by default, and at most: a run can journal many thousands of lines, and the page
# shows the first ones, with a control for the next page (docs/api.md).
JOURNAL_PAGE = 100
JOURNAL_PAGE_MAX = 1000
JOURNAL_LINE: dict[str, Any] = {
    "type": "object",
    "required": ["seq", "at", "code", "node", "visit", "data", "message"],
    "properties": {
        "seq": {"type": "integer"},
        "at": {"type": "string", "format": "date-time"},
        "code": {"type": "string"},
        "node": {"type": ["string", "null"]},
        "visit": {"type": ["integer", "null"]},
        "data": {"type": "object"},
        "message": {"type": "string", "description": "the line's sentence in the reader's language"},
    },
}
WAIT = exact(
    {
        "kind": {"enum": list(get_args(WaitKind))},
        "node": {"type": ["string", "null"]},
        "visit": {"type": ["integer", "null"]},
        "status": {"enum": list(get_args(WaitStatus))},
        "attempts": {"type": "integer", "description": "the tries made so far"},
        "wake_at": {"type": ["string", "null"], "format": "date-time", "description": "null: no time"},
        "last_error": {"type": ["string", "null"], "description": "the last try's reason code"},
        "last_error_message": {
            "type": ["string", "null"],
            "description": "its sentence, set with `last_error`",
        },
        "retries": {
            "type": "array",
            "description": "the failed actions of parallel branches the wait will send again, next due first",
            "items": {
                "type": "object",
                "required": ["node", "visit", "due", "attempt"],
                "properties": {
                    "node": {"type": "string"},
                    "visit": {"type": "integer"},
                    "due": {"type": "string", "format": "date-time"},
                    "attempt": {"type": "integer", "description": "the tries made so far"},
                },
            },
        },
    },
    nullable=True,
    description="what the run waits for, if it waits",
)
# The run as its own page shows it: with its input and its error's sentence.
RUN_SHOWN: dict[str, Any] = {
    **RUN,
    "required": [*RUN["required"], "input", "error_message"],
    "properties": {**RUN["properties"], "input": {"description": "credential-like keys masked"}},
}
MAX_KEY = 200


def _run_json(run: RunRow, decision: RunDecision | None) -> dict[str, Any]:
    return {
        "id": run.id,
        "flow_id": run.flow_id,
        "version": run.version,
        "status": run.status,
        "trigger": run.trigger_kind,
        "error": run.error,
        "started_by": run.started_by,
        "created_at": run.created_at.isoformat(),
        "updated_at": run.updated_at.isoformat(),
        "ended_at": run.ended_at.isoformat() if run.ended_at else None,
        "decision": decision.to_json() if decision is not None else None,
    }


@endpoint(
    "POST",
    "/api/flows/{flow_id:int}/runs",
    summary="Start a run of the flow's newest version",
    tag="runs",
    body={"type": "object", "additionalProperties": False, "properties": {"input": {}}},
    responses={201: STARTED, 404: None},
)
async def start(call: Call) -> Response:
    flow_id = call.path_id("flow_id")
    await require_read(call, flow_id)
    await require(call, "run", flow_id)
    try:
        started = await start_run(call.conn, flow_id, input=call.body.get("input"), started_by=call.me.name)
    except FlowHasNoVersion:
        raise ApiError(404, code="flow_not_found") from None
    return reply({"run": started.run_id, "created": started.created}, 201)


@endpoint(
    "GET",
    "/api/runs",
    summary="Runs I may read, newest first",
    tag="runs",
    query={
        "flow": ID,
        "status": {"enum": STATUSES},
        "trigger": {"enum": TRIGGERS},
        "since": {"type": "string", "format": "date-time"},
        "until": {"type": "string", "format": "date-time"},
        "before": ID,
        "limit": {"type": "integer", "minimum": 1, "maximum": 200},
    },
    responses={
        200: {
            "type": "object",
            "required": ["runs", "next"],
            "properties": {"runs": {"type": "array", "items": RUN}, "next": {"type": ["integer", "null"]}},
        }
    },
)
async def list_runs(call: Call) -> Response:
    limit = call.query.get("limit", 50)
    rows = await store.list_runs(
        call.conn,
        user=call.me.name,
        flow_id=call.query.get("flow"),
        status=call.query.get("status"),
        trigger=call.query.get("trigger"),
        since=moment(call.query.get("since"), "since"),
        until=moment(call.query.get("until"), "until"),
        before=call.query.get("before"),
        limit=limit + 1,
    )
    page = rows[:limit]
    decisions = await decisions_of_runs(call.conn, [row.id for row in page])
    found = [_run_json(row, decisions.get(row.id)) for row in page]
    return reply({"runs": found, "next": found[-1]["id"] if len(rows) > limit else None})


@endpoint(
    "GET",
    "/api/runs/{run_id:int}",
    summary="A run with a page of its journal (the first 100 lines, or `limit` of them after line `after`; "
    "`next` is the `after` of the page that follows), and what its page shows beside it",
    tag="runs",
    query={
        "after": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1},
        # The schema's maximum keeps the number one PostgreSQL takes; the page's own bound is an error of its
        # own (run_journal_limit_exceeded), which says the bound.
        "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 2**31 - 1,
            "description": f"lines on the page, 100 unless given; at most {JOURNAL_PAGE_MAX:,}, "
            "more is 400 run_journal_limit_exceeded",
        },
    },
    responses={
        200: {
            "type": "object",
            "required": ["run", "journal", "wait", "next", *DETAILS],
            "properties": {
                "run": RUN_SHOWN,
                "journal": {"type": "array", "items": JOURNAL_LINE},
                "wait": WAIT,
                "next": {
                    "type": ["integer", "null"],
                    "description": "the last line's number when more lines follow: the next page's `after`",
                },
                **DETAILS,
            },
        },
        400: None,
        404: None,
    },
)
async def get_run(call: Call) -> Response:
    limit = call.query.get("limit", JOURNAL_PAGE)
    if limit > JOURNAL_PAGE_MAX:
        detail = {"parameter": "limit", "maximum": JOURNAL_PAGE_MAX}
        raise ApiError(400, code="run_journal_limit_exceeded", detail=detail, limit=JOURNAL_PAGE_MAX)
    run = await run_page(call.conn, call.path_id("run_id"), after=call.query.get("after", 0), limit=limit + 1)
    if run is None:
        raise await _not_found(call)
    await _may_read(call, run.flow_id)
    page = run.journal[:limit]
    say = Sentences(call.locale)
    for line in page:
        line["message"] = say(line["code"], **{"node": line["node"], "visit": line["visit"], **line["data"]})
    return reply(
        {
            "run": {
                **_run_json(run, (await decisions_of_runs(call.conn, [run.id])).get(run.id)),
                "input": redact_values(run.input),
                "error_message": _error_message(run, call.locale),
            },
            "journal": page,
            "wait": _wait_json(run.wait, call.locale),
            "next": page[-1]["seq"] if len(run.journal) > limit else None,
            **await run_details(call.conn, run, call.locale),
        }
    )


def _wait_json(wait: dict[str, Any] | None, locale: str) -> dict[str, Any] | None:
    if wait is None:
        return None
    error = wait["last_error"]
    return {**wait, "last_error_message": explain(error, locale) if error else None}


def _error_message(found: RunPage, locale: str) -> str | None:
    """The run's error as a sentence, filled from the line that says why it failed (wherever it is in
    the journal: a failed run's first page seldom shows its last line)."""
    if not found.error:
        return None
    failure = found.failure or {}
    data = failure.get("data")
    params = {"node": failure.get("node"), **(data if isinstance(data, dict) else {})}
    given = {name: value for name, value in params.items() if name != "error" and value is not None}
    return explain(found.error, locale, **given)


@endpoint(
    "POST",
    "/api/runs/{run_id:int}/cancel",
    summary="Cancel a run that has not ended",
    tag="runs",
    responses={200: {"type": "object", "required": ["run", "status"]}, 404: None, 409: None},
)
async def cancel(call: Call) -> Response:
    run = await _readable_run(call)
    await require(call, "run", run.flow_id)
    try:
        cancelled = await cancel_run(call.conn, run.id, by=call.me.name, approvals=ApprovalsPort())
    except DecisionStands as stands:
        standing = {
            "approval": stands.approval_id,
            "outcome": stands.outcome,
            "decided_by": stands.decided_by,
            "decided_at": stands.decided_at.isoformat(),
        }
        raise ApiError(
            409, code="run_decision_stands", detail={"standing": standing}, approval=stands.approval_id
        ) from None
    if not cancelled:
        raise ApiError(409, code="run_already_ended", detail={"status": run.status}, state=run.status)
    # `waiting` while the undos of its succeeded actions run (queue/undo.py); `cancelled` once they have.
    now = await store.get_run(call.conn, run.id)
    return reply({"run": run.id, "status": now.status if now else "cancelled"})


async def _readable_run(call: Call) -> RunRow:
    run = await store.get_run(call.conn, call.path_id("run_id"))
    if run is None:
        raise await _not_found(call)
    await _may_read(call, run.flow_id)
    return run


async def _not_found(call: Call) -> ApiError:
    await _swept(call)
    return ApiError(404, code="run_not_found")


async def _may_read(call: Call, flow_id: int) -> None:
    """A run of a flow the caller may not read is answered as one that does not exist."""
    try:
        await require_read(call, flow_id)
    except ApiError:
        raise ApiError(404, code="run_not_found") from None


async def _swept(call: Call) -> None:
    """A run swept by retention whose record remains: say so, and where its record is, to a reader of its
    flow (one index lookup, only on the way to a 404)."""
    record = await run_record(call.conn, call.path_id("run_id"))
    if record is None or record.ended_at is None:
        return
    try:
        await require_read(call, record.flow_id)
    except ApiError:
        return
    where = f"/api/audit/runs?flow={record.flow_id}"
    detail = {"status": record.status, "ended_at": record.ended_at.isoformat(), "record": where}
    raise ApiError(404, code="run_swept", detail=detail, run=record.run_id, where=where)


@endpoint(
    "POST",
    "/hooks/{flow_id:int}/{secret}",
    summary="Start a run from a webhook call (no token: "
    "the secret in the path is the credential; the same Idempotency-Key twice starts one run)",
    tag="runs",
    public=True,
    pooled=False,
    responses={202: STARTED, 404: None},
)
async def webhook(call: Call) -> Response:
    flow_id = call.path_id("flow_id")
    secret = call.request.path_params["secret"]
    # The secret is checked first, the body read next, each holding a connection only while it needs
    # one: a slow sender, with a secret or without, never holds one.
    async with call.pool.connection() as conn:
        hook = await webhook_of(conn, flow_id)
    # The same answer for no flow, no secret, a wrong secret and a flow without a webhook trigger.
    if hook is None or not hook.admits(secret):
        raise ApiError(404, code="webhook_not_found")
    key = call.request.headers.get("idempotency-key")
    if key is not None and not 1 <= len(key) <= MAX_KEY:
        raise ApiError(400, code="idempotency_key_invalid", limit=MAX_KEY)
    payload = await call.read_body() if call.request.headers.get("content-type") else None
    # Namespaced, so that no sender's key can ever stand for a schedule's fire.
    scoped = f"webhook:{key}" if key is not None else None
    async with call.pool.connection() as conn:
        started = await start_run(
            conn, flow_id, input=payload, trigger_kind="webhook", idempotency_key=scoped
        )
    return reply({"run": started.run_id, "created": started.created}, 202)
