"""Approvals: my inbox, one approval, a decision; the audit search and its exports."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import datetime, tzinfo
from typing import Any, get_args

from starlette.responses import Response

from backend.api import downloads
from backend.api.answers import exact
from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.api.flows import ID
from backend.api.rights import require, require_read
from backend.approvals import chain
from backend.approvals.audit import (
    MAX_PAGE,
    AuditFilter,
    AuditRefused,
    ExportRow,
    csv_header,
    csv_lines,
    every_page,
    export_csv,
    export_json,
    search,
)
from backend.approvals.breaks import RecordKind
from backend.approvals.chain_commands import export_pieces, signed_heads_here
from backend.approvals.decisions import COMMENT_MAX, ApprovalDecisions, DecisionRefused
from backend.approvals.records import Approval, OnTimeout, Outcome, RejectRule, VoteKind
from backend.i18n.zones import reader_zone
from backend.people.accounts import has_right

OUTCOMES: list[str] = list(get_args(Outcome))
SHOWN: dict[str, Any] = {
    "type": "array",
    "description": "what the approvers were shown, read when the approval was requested",
    "items": {
        "type": "object",
        "required": ["label", "path", "value"],
        "properties": {
            "label": {"type": ["string", "null"]},
            "path": {"type": "string"},
            "value": {},
            "masked": {"type": "boolean", "description": "a credential-like value was masked"},
        },
    },
}
APPROVAL = exact(
    {
        "id": {"type": "integer"},
        "run_id": {"type": "integer"},
        "flow_id": {"type": "integer"},
        "version": {"type": "integer"},
        "node": {"type": "string"},
        "visit": {"type": "integer"},
        "title": {"type": "string"},
        "explanation": {"type": "string"},
        "approvers": {"type": "array", "items": {"type": "string"}},
        "deadline_at": {"type": ["string", "null"]},
        "on_timeout": {"enum": [*get_args(OnTimeout), None]},
        "requested_at": {"type": "string"},
        "outcome": {"enum": [*OUTCOMES, None]},
        "decided_by": {"type": ["string", "null"]},
        "decided_at": {"type": ["string", "null"]},
        "comment": {"type": ["string", "null"]},
        "started_by": {"type": ["string", "null"]},
        "quorum": {"type": "integer"},
        "reject_rule": {"enum": list(get_args(RejectRule))},
        "allow_self_approval": {"type": "boolean"},
        "author": {"type": ["string", "null"]},
        "on_behalf_of": {"type": ["string", "null"], "description": "the approver a delegate stood in for"},
        "shown": SHOWN,
        "digest": {
            "type": "string",
            "description": "SHA-256 (hex) of the canonical JSON of id, run_id, title, explanation and shown; "
            "sent back as a decision's `seen`",
        },
        "votes": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["id", "voter", "on_behalf_of", "vote", "comment", "cast_at"],
                "properties": {
                    "id": {"type": "integer"},
                    "voter": {"type": "string"},
                    "on_behalf_of": {"type": ["string", "null"]},
                    "vote": {"enum": list(get_args(VoteKind))},
                    "comment": {"type": ["string", "null"]},
                    "cast_at": {"type": "string"},
                },
            },
        },
    },
)
# An inbox page's approval: as APPROVAL, but a page asked without values carries neither them nor a digest.
INBOX_ITEM: dict[str, Any] = {
    **APPROVAL,
    "required": [name for name in APPROVAL["required"] if name not in ("shown", "digest")],
}
DECISION_BODY: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["outcome"],
    "properties": {
        "outcome": {"enum": ["approve", "reject"]},
        "comment": {"type": "string", "maxLength": COMMENT_MAX},
        "approval": {
            "type": "integer",
            "description": "the id of the approval the decider sees; another than the path's is 409 "
            "decision_approval_mismatch, nothing written",
        },
        "seen": {
            "type": "string",
            "maxLength": 200,
            "description": "the digest of the approval the decider saw; another than the approval's is 409 "
            "approval_changed, nothing written",
        },
    },
}
# The refusals of a decision, by how HTTP says them.
_REFUSAL_STATUS = {
    "approval_not_found": 404,
    "decide_right_missing": 403,
    "approver_not_named": 403,
    "self_approval_refused": 403,
    "approval_vote_already_cast": 409,
    "approval_already_decided": 409,
    "approval_deadline_passed": 409,
    "decision_outcome_invalid": 422,
    "decision_comment_too_long": 422,
    "decision_approval_mismatch": 409,
    "approval_changed": 409,
}


@endpoint(
    "GET",
    "/api/approvals",
    summary="My inbox: the open approvals I may decide now",
    tag="approvals",
    query={
        "limit": {"type": "integer", "minimum": 1, "maximum": 200},
        "cursor": {"type": "string", "maxLength": 100},
        "values": {
            "enum": ["shown", "none"],
            "description": "none: each approval without its shown values and digest (a count needs neither)",
        },
    },
    responses={
        200: {
            "type": "object",
            "required": ["approvals", "next"],
            "properties": {
                "approvals": {"type": "array", "items": INBOX_ITEM},
                "next": {"type": ["string", "null"], "description": "the cursor of the next page, if any"},
            },
        },
        400: None,
    },
)
async def inbox(call: Call) -> Response:
    with_values = call.query.get("values", "shown") == "shown"
    try:
        found, cursor = await ApprovalDecisions().inbox(
            call.conn,
            call.me.name,
            limit=call.query.get("limit", 100),
            cursor=call.query.get("cursor"),
            with_values=with_values,
        )
    except AuditRefused as refused:
        raise ApiError(400, code=refused.code) from None
    approvals = [a.to_json() for a in found]
    if not with_values:
        # Left unread, the values are not the approval's, and neither would be a digest of them.
        approvals = [{k: v for k, v in a.items() if k not in ("shown", "digest")} for a in approvals]
    return reply({"approvals": approvals, "next": cursor})


@endpoint(
    "GET",
    "/api/approvals/{approval_id:int}",
    summary="One approval, decided or not",
    tag="approvals",
    responses={200: APPROVAL, 404: None},
)
async def get_approval(call: Call) -> Response:
    approval = await _readable(call)
    return reply(approval.to_json())


@endpoint(
    "POST",
    "/api/approvals/{approval_id:int}/decision",
    summary="Vote to approve or reject; the vote that settles the approval (its quorum, or a reject) "
    "decides it, a later one is 409 approval_already_decided with the standing decision",
    tag="approvals",
    body=DECISION_BODY,
    responses={200: APPROVAL, 403: None, 404: None, 409: None},
)
async def decide(call: Call) -> Response:
    approval = await _readable(call)
    outcome = "approved" if call.body["outcome"] == "approve" else "rejected"
    try:
        await ApprovalDecisions().decide(
            call.conn,
            approval.id,
            outcome,
            by=call.me.name,
            comment=call.body.get("comment"),
            approval=approval,
            seen_approval=call.body.get("approval"),
            seen=call.body.get("seen"),
        )
    except DecisionRefused as refused:
        detail = None
        if refused.standing is not None:
            standing = refused.standing
            detail = {
                "standing": {
                    "outcome": standing.outcome,
                    "decided_by": standing.decided_by,
                    "decided_at": standing.decided_at.isoformat(),
                }
            }
        status = _REFUSAL_STATUS.get(refused.code, 409)
        raise ApiError(status, code=refused.code, detail=detail, **refused.params) from None
    decided = await ApprovalDecisions().get(call.conn, approval.id)
    assert decided is not None
    return reply(decided.to_json())


async def _readable(call: Call) -> Approval:
    approval_id = call.path_id("approval_id")
    approval = await ApprovalDecisions().get(call.conn, approval_id)
    if approval is None:
        raise ApiError(404, code="approval_not_found", approval=approval_id)
    try:
        await require_read(call, approval.flow_id)
    except ApiError:
        raise ApiError(404, code="approval_not_found", approval=approval_id) from None
    return approval


AUDIT_QUERY: dict[str, dict[str, Any]] = {
    "flow": ID,
    "decider": {"type": "string", "minLength": 1, "maxLength": 64},
    "outcome": {"enum": OUTCOMES},
    "since": {"type": "string", "format": "date-time"},
    "until": {"type": "string", "format": "date-time"},
    "text": {"type": "string", "minLength": 1, "maxLength": 200},
    "cursor": {"type": "string", "maxLength": 100},
    "limit": {"type": "integer", "minimum": 1, "maximum": 1000},
}


async def _audit_page(call: Call, limit: int) -> tuple[list[Approval], str | None]:
    where = await _audit_filter(call)
    try:
        page = await search(call.conn, where, cursor=call.query.get("cursor"), limit=limit)
    except AuditRefused as refused:
        raise ApiError(400, code=refused.code) from None
    return page.rows, page.next_cursor


async def _audit_filter(call: Call) -> AuditFilter:
    """The decisions the query asks for, once the caller is found to hold the audit right on them."""
    flow_id = call.query.get("flow")
    if not await has_right(call.conn, call.me.name, "audit", None):
        if flow_id is None:
            raise ApiError(403, code="right_missing", detail={"right": "audit"}, right="audit")
        await require(call, "audit", flow_id)
    return AuditFilter(
        flow_id=flow_id,
        decider=call.query.get("decider"),
        outcome=call.query.get("outcome"),
        since=_moment(call.query.get("since"), "since"),
        until=_moment(call.query.get("until"), "until"),
        text=call.query.get("text"),
    )


def _moment(text: str | None, name: str) -> datetime | None:
    if text is None:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(400, code="request_query_invalid", detail={"parameter": name}) from None
    if moment.tzinfo is None:
        raise ApiError(
            400, code="request_query_invalid", detail={"parameter": name, "reason": "no UTC offset"}
        )
    return moment


@endpoint(
    "GET",
    "/api/audit",
    summary="Decisions, filtered, in a stable order, a page after the cursor",
    tag="audit",
    query=AUDIT_QUERY,
    responses={
        200: {
            "type": "object",
            "required": ["decisions", "next"],
            "properties": {
                "decisions": {"type": "array", "items": APPROVAL},
                "next": {"type": ["string", "null"]},
            },
        },
        403: None,
    },
)
async def audit(call: Call) -> Response:
    rows, cursor = await _audit_page(call, call.query.get("limit", 100))
    return reply({"decisions": [r.to_json() for r in rows], "next": cursor})


@endpoint(
    "GET",
    "/api/audit/export",
    summary="The same page of decisions as CSV or JSON, with times in UTC and in the reader's locale",
    tag="audit",
    query={**AUDIT_QUERY, **downloads.QUERY},
    responses={200: {"type": "string"}, 403: None},
    content="text/csv",
    pooled=False,
)
async def export(call: Call) -> Response:
    # No connection is held while the answer streams: its first page is read (before the status goes
    # out) on a connection of its own, as every page is, after the one the rights were checked on is back.
    async with call.connected() as held:
        if "limit" in call.query or "cursor" in call.query:  # a page, for a program that pages itself
            rows, cursor = await _audit_page(held, call.query.get("limit", MAX_PAGE))
            headers = {"X-Next-Cursor": cursor} if cursor else {}
            written = export_json if downloads.wants_json(call.query) else export_csv
            return downloads.download(
                written(rows, call.locale, reader_zone()), "flowyard-decisions", call.query, headers
            )
        where = await _audit_filter(held)
    # Every decision the filter finds: a person who exports a year gets the year, not its first page.
    locale, tz = call.locale, reader_zone()
    pages = every_page(call.pool, where)
    if downloads.wants_json(call.query):
        pieces = _json_pieces(pages, locale, tz)
    else:
        pieces = _csv_pieces(pages, locale, tz)
    return await downloads.streamed(pieces, "flowyard-decisions", call.query)


async def _csv_pieces(pages: AsyncIterator[list[ExportRow]], locale: str, tz: tzinfo) -> AsyncIterator[str]:
    """The CSV's header with its first page (read before the answer starts: downloads.streamed), then
    a page at a time."""
    header = csv_header(locale)
    async for rows in pages:
        yield header + csv_lines(rows, locale, tz)
        header = ""
    if header:
        yield header


async def _json_pieces(pages: AsyncIterator[list[ExportRow]], locale: str, tz: tzinfo) -> AsyncIterator[str]:
    """One JSON array of every decision, written a page at a time."""
    before = "["
    async for rows in pages:
        if rows:
            yield before + export_json(rows, locale, tz)[1:-1]
            before = ","
    yield "[]" if before == "[" else "]"


CHAIN_QUERY: dict[str, dict[str, Any]] = {"flow": ID}


async def _chain_reader(call: Call) -> int | None:
    """The flow whose chain the caller may read (None: every chain, with the audit right everywhere)."""
    flow_id: int | None = call.query.get("flow")
    if not await has_right(call.conn, call.me.name, "audit", None):
        if flow_id is None:
            raise ApiError(403, code="right_missing", detail={"right": "audit"}, right="audit")
        await require(call, "audit", flow_id)
    return flow_id


@endpoint(
    "GET",
    "/api/audit/chain",
    summary="The chained trail with its hashes and heads, to verify offline (flowyard audit verify --file)",
    tag="audit",
    query=CHAIN_QUERY,
    responses={
        200: {
            "type": "object",
            "required": ["format", "records", "heads"],
            "properties": {
                "format": {"const": "flowyard.audit-chain/1"},
                "records": {"type": "array", "items": {"type": "object"}},
                "heads": {"type": "object", "additionalProperties": {"type": "string"}},
            },
        },
        403: None,
    },
    pooled=False,
)
async def audit_chain(call: Call) -> Response:
    async with call.connected() as held:  # given back before the first page is read (as `export`)
        flow_id = await _chain_reader(held)
    chain_name = None if flow_id is None else f"flow:{flow_id}"
    # Sent as it is read, a page at a time on a connection of the pool's own: a year's chains are a file
    # of gigabytes, never built in memory or encoded in one go on the event loop.
    return await downloads.streamed_json(export_pieces(call.pool.connection, chain_name))


@endpoint(
    "GET",
    "/api/audit/verify",
    summary="Verify the chained trail in the database: intact, or each break with its reason code",
    tag="audit",
    query=CHAIN_QUERY,
    responses={
        200: {
            "type": "object",
            "required": ["intact", "records", "swept", "heads", "breaks", "signed"],
            "properties": {
                "intact": {"type": "boolean"},
                "records": {"type": "integer"},
                "swept": {"type": "integer"},
                "heads": {"type": "object", "additionalProperties": {"type": "string"}},
                "breaks": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["code", "chain", "seq", "kind", "ref_id"],
                        "properties": {
                            "code": {
                                "type": "string",
                                "description": "why the chain is broken (a reason code)",
                            },
                            "chain": {"type": "string"},
                            "seq": {"type": ["integer", "null"]},
                            "kind": {"enum": [*get_args(RecordKind), None]},
                            "ref_id": {"type": ["integer", "null"]},
                        },
                    },
                },
                "signed": {"type": "integer"},
            },
        },
        403: None,
    },
)
async def audit_verify(call: Call) -> Response:
    flow_id = await _chain_reader(call)
    signed = await asyncio.to_thread(signed_heads_here, call.settings)
    verdict = await chain.verify(call.conn, flow_id, call.settings.approval_retention, signed)
    return reply(
        {
            "intact": verdict.intact,
            "records": verdict.records,
            "swept": verdict.swept,
            "heads": verdict.heads,
            "breaks": [b.to_json() for b in verdict.breaks],
            "signed": verdict.signed,
        }
    )
