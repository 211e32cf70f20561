"""Runs: start, list, read one with its journal, cancel; and webhook triggers."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.api.flows import ID
from backend.api.rights import require, require_read
from backend.api.run_details import DETAILS, run_details
from backend.api.times import moment
from backend.flows.store import QUERIES as FLOWS
from backend.i18n.catalogs import explain, message
from backend.queue.queries import QUERIES
from backend.queue.records import record_of
from backend.queue.runs import DecisionStands, FlowHasNoVersion, cancel_run, start_run
from backend.walker.redact import redact_values

STATUSES = ["running", "waiting", "stopped", "succeeded", "failed", "cancelled"]
TRIGGERS = ["manual", "webhook", "schedule"]
RUN: dict[str, Any] = {
    "type": "object",
    "required": ["id", "flow_id", "version", "status", "trigger", "error", "created_at"],
    "properties": {
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
    },
}
STARTED: dict[str, Any] = {
    "type": "object",
    "required": ["run", "created"],
    "properties": {"run": {"type": "integer"}, "created": {"type": "boolean"}},
}
JOURNAL_PAGE = 1000
MAX_KEY = 200


def _run_json(row: tuple[Any, ...]) -> dict[str, Any]:
    run_id, flow_id, version, status, trigger, error, by, created, updated, ended = row[:10]
    return {
        "id": run_id,
        "flow_id": flow_id,
        "version": version,
        "status": status,
        "trigger": trigger,
        "error": error,
        "started_by": by,
        "created_at": created.isoformat(),
        "updated_at": updated.isoformat(),
        "ended_at": ended.isoformat() if ended else None,
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
    cur = await call.conn.execute(
        QUERIES["list_runs"],
        {
            "user": call.me.name,
            "flow_id": call.query.get("flow"),
            "status": call.query.get("status"),
            "trigger": call.query.get("trigger"),
            "since": moment(call.query.get("since"), "since"),
            "until": moment(call.query.get("until"), "until"),
            "before": call.query.get("before"),
            "limit": limit + 1,
        },
    )
    rows = await cur.fetchall()
    runs = [_run_json(row) for row in rows[:limit]]
    return reply({"runs": runs, "next": runs[-1]["id"] if len(rows) > limit else None})


@endpoint(
    "GET",
    "/api/runs/{run_id:int}",
    summary="A run with its journal (a page of up to 1,000 lines), and what its page shows beside it",
    tag="runs",
    query={"after": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1}},
    responses={
        200: {
            "type": "object",
            "required": ["run", "journal", "wait", *DETAILS],
            "properties": {
                "run": RUN,
                "journal": {"type": "array"},
                "wait": {"type": ["object", "null"]},
                "next": {"type": ["integer", "null"]},
                **DETAILS,
            },
        },
        404: None,
    },
)
async def get_run(call: Call) -> Response:
    row = await _readable_run(call)
    cur = await call.conn.execute(
        QUERIES["journal_of_run"],
        {"run_id": row[0], "after": call.query.get("after", 0), "limit": JOURNAL_PAGE + 1},
    )
    lines = await cur.fetchall()
    journal = [
        {
            "seq": seq,
            "at": at.isoformat(),
            "code": code,
            "node": node,
            "visit": visit,
            "data": data,
            "message": message(code, call.locale, **{"node": node, "visit": visit, **data}),
        }
        for seq, at, code, node, visit, data in lines[:JOURNAL_PAGE]
    ]
    wait_cur = await call.conn.execute(QUERIES["wait_of_run"], {"run_id": row[0]})
    wait = await wait_cur.fetchone()
    wait_json = None
    if wait:
        kind, node, visit, wake_at, status, attempts, last_error = wait
        wait_json = {
            "kind": kind,
            "node": node,
            "visit": visit,
            "status": status,
            "attempts": attempts,
            "wake_at": wake_at.isoformat() if wake_at else None,
            "last_error": last_error,
            "last_error_message": explain(last_error, call.locale) if last_error else None,
        }
    next_after = journal[-1]["seq"] if len(lines) > JOURNAL_PAGE else None
    failed = next((line for line in reversed(journal) if line["code"] == "run_failed"), None)
    data = failed["data"] if failed and isinstance(failed["data"], dict) else {}
    error_params = {"node": failed["node"] if failed else None, **data}
    error_params = {
        name: value for name, value in error_params.items() if name != "error" and value is not None
    }
    error_message = explain(row[5], call.locale, **error_params) if row[5] else None
    return reply(
        {
            "run": {**_run_json(row), "input": redact_values(row[10]), "error_message": error_message},
            "journal": journal,
            "wait": wait_json,
            "next": next_after,
            **await run_details(call.conn, row, call.locale),
        }
    )


@endpoint(
    "POST",
    "/api/runs/{run_id:int}/cancel",
    summary="Cancel a run that has not ended",
    tag="runs",
    responses={200: {"type": "object", "required": ["run", "status"]}, 404: None, 409: None},
)
async def cancel(call: Call) -> Response:
    row = await _readable_run(call)
    await require(call, "run", row[1])
    try:
        cancelled = await cancel_run(call.conn, row[0], by=call.me.name)
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
        raise ApiError(409, code="run_already_ended", detail={"status": row[3]}, state=row[3])
    # `waiting` while the undos of its succeeded actions run (queue/undo.py); `cancelled` once they have.
    now = await (await call.conn.execute(QUERIES["get_run"], {"run_id": row[0]})).fetchone()
    return reply({"run": row[0], "status": now[3] if now else "cancelled"})


async def _readable_run(call: Call) -> tuple[Any, ...]:
    cur = await call.conn.execute(QUERIES["get_run"], {"run_id": call.path_id("run_id")})
    row = await cur.fetchone()
    if row is None:
        await _swept(call)
        raise ApiError(404, code="run_not_found")
    try:
        await require_read(call, row[1])
    except ApiError:
        raise ApiError(404, code="run_not_found") from None
    return tuple(row)


async def _swept(call: Call) -> None:
    """A run swept by retention whose record remains: say so, and where its record is, to a reader of its
    flow (one index lookup, only on the way to a 404)."""
    record = await record_of(call.conn, call.path_id("run_id"))
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
        cur = await conn.execute(FLOWS["webhook_of"], {"flow_id": flow_id})
        row = await cur.fetchone()
    digest = hashlib.sha256(secret.encode()).hexdigest()
    # The same answer for no flow, no secret, a wrong secret and a flow without a webhook trigger.
    if (
        row is None
        or row[0] is None
        or not hmac.compare_digest(row[0], digest)
        or _trigger_kind(row[1]) != "webhook"
    ):
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


def _trigger_kind(document: dict[str, Any]) -> str | None:
    for node in document.get("nodes", ()):
        if node.get("type") == "trigger":
            return str((node.get("config") or {}).get("kind"))
    return None
