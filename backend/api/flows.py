"""Flows: create, list, read, save as a new version, versions, validate, the list view, the schemas."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from typing import Any

import anyio
import anyio.to_thread
from starlette.responses import Response

from backend.actions.command_rights import CommandRefused
from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.api.rights import require, require_read
from backend.approvals.four_eyes import policy_findings
from backend.flows import store
from backend.flows.schedules import ScheduleInvalid
from backend.flows.store import FlowRow, create_flow, save_version
from backend.graph import Finding, list_view, load_schema, validate
from backend.graph.model import NODE_TYPES
from backend.queue.store import RUN_STATUSES, TRIGGER_KINDS

DOCUMENT: dict[str, Any] = {
    "type": "object",
    "description": "A flow document, format flowyard.flow/1 (GET /api/schemas/flow). An invalid one is "
    "answered 422 flow_invalid with every finding in detail.findings.",
}
FINDING: dict[str, Any] = {
    "type": "object",
    "required": ["code", "node", "wire", "message", "detail"],
    "properties": {
        "code": {"type": "string"},
        "node": {"type": ["string", "null"]},
        "wire": {"type": ["integer", "null"]},
        "message": {"type": "string"},
        "detail": {"type": ["string", "null"]},
    },
}
FLOW: dict[str, Any] = {
    "type": "object",
    "required": ["id", "name", "version", "created_at", "webhook"],
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "description": {"type": ["string", "null"]},
        "version": {"type": "integer"},
        "created_at": {"type": "string", "format": "date-time"},
        "created_by": {"type": ["string", "null"]},
        "webhook": {"type": "boolean", "description": "whether a webhook secret is set"},
        "document": {
            "type": "object",
            "description": "the newest version's document with the flow's name and description as they "
            "are now (a rename makes no version: GET .../versions/N has the version as saved)",
        },
    },
}
FLOW_SUMMARY: dict[str, Any] = {
    **FLOW,
    "properties": {
        **FLOW["properties"],
        "trigger_kind": {"enum": [*TRIGGER_KINDS, None], "description": "null: the flow has no trigger"},
        "changed_at": {"type": ["string", "null"], "format": "date-time", "description": "newest version"},
        "changed_by": {"type": ["string", "null"]},
        "last_run_status": {"enum": [*RUN_STATUSES, None], "description": "null: never run"},
    },
}
SAVED: dict[str, Any] = {
    "type": "object",
    "required": ["id", "version"],
    "properties": {"id": {"type": "integer"}, "version": {"type": "integer"}},
}
ID = {"type": "integer", "minimum": 1, "maximum": 2**63 - 1}


def _flow_json(flow: FlowRow) -> dict[str, Any]:
    data = {
        "id": flow.id,
        "name": flow.name,
        "version": flow.version,
        "created_at": flow.created_at.isoformat(),
        "created_by": flow.created_by,
        "webhook": flow.webhook,
    }
    document = flow.current_document()
    if document is not None:
        data["document"] = document
        data["description"] = flow.description
    return data


# A document of this many JSON values validates in a few milliseconds at most: on the event loop, as a
# hop to a thread would cost more. A larger one validates on a worker thread, so that the loop (and the
# in-process worker on it) go on serving; at most VALIDATIONS_AT_ONCE of them at once, the machine's two
# cores. Further ones wait their turn without holding a thread, but each holds the pool connection its
# endpoint took, so at most VALIDATIONS_WAITING wait; past that the answer is 503 `validation_busy`,
# rather than a pool drained by one client's requests.
INLINE_VALUES = 300
VALIDATIONS_AT_ONCE = 2
VALIDATIONS_WAITING = 6
_validations = anyio.CapacityLimiter(VALIDATIONS_AT_ONCE)
# The editor's sample walk (backend/api/walk.py) takes its turn under the same limiter.
validations = _validations


def validations_busy() -> bool:
    """Whether as many validations wait as may: the next one is answered 503 `validation_busy`."""
    return _validations.statistics().tasks_waiting >= VALIDATIONS_WAITING


async def findings_of(call: Call, document: Any, warnings: list[Finding] | None = None) -> list[Finding]:
    """`validate` in the caller's language, with the findings cap of the settings, off the event loop for
    a large document.

    `warnings`, when given, receives the warnings (issue 24: they leave the flow valid)."""
    now = datetime.now(UTC)
    limit = call.settings.max_findings
    work = partial(validate, document, call.locale, limit=limit, now=now, warnings=warnings)
    if _small(document):
        return work()
    if _validations.statistics().tasks_waiting >= VALIDATIONS_WAITING:
        raise ApiError(
            503, code="validation_busy", detail={"limit": VALIDATIONS_AT_ONCE + VALIDATIONS_WAITING}
        )
    return await anyio.to_thread.run_sync(work, limiter=_validations)


def _small(document: Any, budget: int = INLINE_VALUES) -> bool:
    """Whether the document has at most `budget` JSON values (a long string counts once per 100
    characters): what validates in well under a millisecond. Stops looking once past the budget, so the
    look itself costs the loop no more than the budget, whatever the document's size.

    Examples:
        >>> _small({"nodes": [{"id": "t"}], "wires": []}), _small({"nodes": ["x" * 10_000_000]})
        (True, False)
    """
    stack, left = [document], budget
    while stack:
        value = stack.pop()
        left -= 1 + (len(value) // 100 if isinstance(value, str) else 0)
        if left < 0:
            return False
        if isinstance(value, dict):
            stack.extend(value.values())
            left -= len(value)
        elif isinstance(value, list):
            stack.extend(value)
    return True


async def _valid_document(call: Call) -> dict[str, Any]:
    findings = await findings_of(call, call.body)
    if not findings:
        findings = await policy_findings(call.conn, call.body, call.locale)
    if findings:
        raise ApiError(422, code="flow_invalid", detail={"findings": [f.to_json() for f in findings]})
    assert isinstance(call.body, dict)
    return call.body


@endpoint(
    "POST",
    "/api/flows",
    summary="Create a flow from a document (its version 1)",
    tag="flows",
    body=DOCUMENT,
    responses={201: SAVED, 403: None, 422: None, 503: None},
)
async def create(call: Call) -> Response:
    await require(call, "edit")
    document = await _valid_document(call)
    try:
        flow_id = await create_flow(call.conn, document, by=call.me.name)
    except ScheduleInvalid as invalid:
        raise ApiError(422, code=invalid.code) from None
    except CommandRefused as refused:
        raise ApiError(refused.status, code=refused.code, detail=refused.params, **refused.params) from None
    return reply({"id": flow_id, "version": 1}, 201)


@endpoint(
    "GET",
    "/api/flows",
    summary="The flows I may read, newest first",
    tag="flows",
    query={"before": ID, "limit": {"type": "integer", "minimum": 1, "maximum": 200}},
    responses={
        200: {
            "type": "object",
            "required": ["flows"],
            "properties": {
                "flows": {"type": "array", "items": FLOW_SUMMARY},
                "next": {"type": ["integer", "null"]},
            },
        }
    },
)
async def list_flows(call: Call) -> Response:
    limit = call.query.get("limit", 50)
    rows = await store.list_flows(
        call.conn, user=call.me.name, before=call.query.get("before"), limit=limit + 1
    )
    flows = [_flow_json(row) for row in rows[:limit]]
    # What the editor's list shows beside each flow, in one more statement for the whole page.
    summaries = await store.summaries(call.conn, [flow["id"] for flow in flows])
    for flow in flows:
        summary = summaries.get(flow["id"])
        changed_at = summary.changed_at if summary else None
        flow.update(
            trigger_kind=summary.trigger_kind if summary else None,
            changed_at=changed_at.isoformat() if changed_at else None,
            changed_by=summary.changed_by if summary else None,
            last_run_status=summary.last_run_status if summary else None,
        )
    return reply({"flows": flows, "next": flows[-1]["id"] if len(rows) > limit else None})


@endpoint(
    "GET",
    "/api/flows/{flow_id:int}",
    summary="A flow with its newest document",
    tag="flows",
    responses={200: FLOW, 404: None},
)
async def get_flow(call: Call) -> Response:
    flow_id = call.path_id("flow_id")
    await require_read(call, flow_id)
    flow = await store.get_flow(call.conn, flow_id)
    if flow is None:
        raise ApiError(404, code="flow_not_found")
    return reply(_flow_json(flow))


@endpoint(
    "PUT",
    "/api/flows/{flow_id:int}",
    summary="Save a document as the next version; with ?base=N only if N is still the newest (else 409)",
    tag="flows",
    body=DOCUMENT,
    query={"base": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}},
    responses={200: SAVED, 403: None, 404: None, 409: None, 422: None, 503: None},
)
async def save(call: Call) -> Response:
    flow_id = call.path_id("flow_id")
    await require_read(call, flow_id)
    await require(call, "edit", flow_id)
    document = await _valid_document(call)
    try:
        async with call.conn.transaction():
            if "base" in call.query:
                await _still_newest(call, flow_id, call.query["base"])
            version = await save_version(call.conn, flow_id, document, by=call.me.name)
    except ScheduleInvalid as invalid:
        raise ApiError(422, code=invalid.code) from None
    except CommandRefused as refused:
        raise ApiError(refused.status, code=refused.code, detail=refused.params, **refused.params) from None
    except LookupError:
        raise ApiError(404, code="flow_not_found") from None
    return reply({"id": flow_id, "version": version})


async def _still_newest(call: Call, flow_id: int, base: int) -> None:
    """409 naming who saved which newer version when, unless `base` is the newest. The flow's row stays
    locked until the save commits, so two authors saving from the same base cannot both pass."""
    row = await store.newest_version_for_update(call.conn, flow_id)
    if row is None:
        raise ApiError(404, code="flow_not_found")
    newest, at, by = row.version, row.created_at, row.created_by
    if newest != base:
        raise ApiError(
            409,
            code="flow_version_stale",
            detail={"base": base, "newest": newest, "saved_by": by, "saved_at": at.isoformat()},
            base=base,
            newest=newest,
            by=by or "?",
            at=at,
        )


@endpoint(
    "GET",
    "/api/flows/{flow_id:int}/versions",
    summary="A flow's versions, newest first",
    tag="flows",
    responses={
        200: {
            "type": "object",
            "required": ["versions"],
            "properties": {
                "versions": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["version", "created_at"],
                        "properties": {
                            "version": {"type": "integer"},
                            "created_at": {"type": "string", "format": "date-time"},
                            "created_by": {"type": ["string", "null"]},
                        },
                    },
                }
            },
        },
        404: None,
    },
)
async def versions(call: Call) -> Response:
    flow_id = call.path_id("flow_id")
    await require_read(call, flow_id)
    rows = await store.versions_of(call.conn, flow_id)
    if not rows:
        raise ApiError(404, code="flow_not_found")
    return reply(
        {
            "versions": [
                {
                    "version": row.version,
                    "created_at": row.created_at.isoformat(),
                    "created_by": row.created_by,
                }
                for row in rows
            ]
        }
    )


@endpoint(
    "GET",
    "/api/flows/{flow_id:int}/versions/{version:int}",
    summary="One version's document",
    tag="flows",
    responses={
        200: {
            "type": "object",
            "required": ["version", "document"],
            "properties": {
                "version": {"type": "integer"},
                "created_at": {"type": "string", "format": "date-time"},
                "created_by": {"type": ["string", "null"]},
                "document": {"type": "object"},
            },
        },
        404: None,
    },
)
async def version(call: Call) -> Response:
    flow_id = call.path_id("flow_id")
    await require_read(call, flow_id)
    row = await store.version_of(call.conn, flow_id, min(call.path_id("version"), 2**31 - 1))
    if row is None:
        raise ApiError(404, code="flow_version_not_found")
    return reply(
        {
            "version": row.version,
            "created_at": row.created_at.isoformat(),
            "created_by": row.created_by,
            "document": row.document,
        }
    )


@endpoint(
    "POST",
    "/api/flows/validate",
    summary="Validate a document without saving it",
    tag="flows",
    body=DOCUMENT,
    responses={
        200: {
            "type": "object",
            "required": ["valid", "findings", "warnings"],
            "properties": {
                "valid": {"type": "boolean"},
                "findings": {"type": "array", "items": FINDING},
                "warnings": {"type": "array", "items": FINDING},
            },
        },
        503: None,
    },
)
async def validate_document(call: Call) -> Response:
    warnings: list[Finding] = []
    findings = await findings_of(call, call.body, warnings)
    if not findings:
        findings = await policy_findings(call.conn, call.body, call.locale)
    answer = {"valid": not findings, "findings": [f.to_json() for f in findings]}
    return reply({**answer, "warnings": [w.to_json() for w in warnings]})


@endpoint(
    "POST",
    "/api/flows/list-view",
    summary="The editor's list view of a document, valid or not (422 without readable nodes and wires)",
    tag="flows",
    body=DOCUMENT,
    responses={
        200: {
            "type": "object",
            "required": ["nodes"],
            "properties": {
                "nodes": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["id", "type", "depth"],
                        "properties": {
                            "id": {"type": "string"},
                            "type": {"type": "string"},
                            "depth": {"type": "integer"},
                        },
                    },
                }
            },
        },
        422: None,
        503: None,
    },
)
async def list_view_of(call: Call) -> Response:
    # The editor shows the outline while the author is still fixing findings, so only a document without
    # readable nodes and wires is refused (list_view is defined for every other one).
    try:
        entries = list_view(call.body)
    except ValueError:
        findings = await findings_of(call, call.body)
        raise ApiError(
            422, code="flow_invalid", detail={"findings": [f.to_json() for f in findings]}
        ) from None
    return reply({"nodes": [entry.to_json() for entry in entries]})


@endpoint(
    "POST",
    "/api/flows/{flow_id:int}/webhook",
    summary="A new webhook secret, shown once",
    tag="flows",
    responses={
        201: {
            "type": "object",
            "required": ["path", "secret"],
            "properties": {
                "path": {"type": "string", "description": "the webhook's address, its secret in it"},
                "secret": {"type": "string"},
            },
        },
        404: None,
    },
)
async def new_webhook_secret(call: Call) -> Response:
    flow_id = call.path_id("flow_id")
    await require_read(call, flow_id)
    await require(call, "edit", flow_id)
    secret = await store.new_webhook_secret(call.conn, flow_id, by=call.me.name)
    if secret is None:
        raise ApiError(404, code="flow_not_found")
    return reply({"path": f"/hooks/{flow_id}/{secret}", "secret": secret}, 201)


@endpoint(
    "GET",
    "/api/schemas/{name}",
    summary="The JSON Schema of the document or of a node's config",
    tag="flows",
    responses={200: {"type": "object"}, 404: None},
)
async def schema(call: Call) -> Response:
    name = call.request.path_params["name"]
    if name != "flow" and name not in NODE_TYPES:
        raise ApiError(404, code="schema_not_found")
    return reply(load_schema(name))
