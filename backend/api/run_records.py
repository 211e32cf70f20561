"""The audit export of run records: who or what started each run, with what, and how it ended, kept
after the runs are swept (backend/queue/records.py). Read with the audit right, on every flow or on one."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from backend.api import downloads
from backend.api.approvals import _moment
from backend.api.endpoint import Call, endpoint
from backend.api.errors import ApiError
from backend.api.flows import ID
from backend.api.rights import require
from backend.people.accounts import has_right
from backend.queue.records import RecordsRefused, export_csv, export_json, search

QUERY: dict[str, Any] = {
    "flow": ID,
    "since": {"type": "string", "format": "date-time"},
    "until": {"type": "string", "format": "date-time"},
    "cursor": {"type": "string", "maxLength": 100},
    "limit": {"type": "integer", "minimum": 1, "maximum": 1000},
    **downloads.QUERY,
}


@endpoint(
    "GET",
    "/api/audit/runs",
    summary="Run records (kept after runs are swept) as CSV or JSON, in a stable order, after the cursor",
    tag="audit",
    query=QUERY,
    responses={200: {"type": "string"}, 400: None, 403: None},
    content="text/csv",
)
async def export_runs(call: Call) -> Response:
    flow_id = call.query.get("flow")
    if not await has_right(call.conn, call.me.name, "audit", None):
        if flow_id is None:
            raise ApiError(403, code="right_missing", detail={"right": "audit"}, right="audit")
        await require(call, "audit", flow_id)
    try:
        records, cursor = await search(
            call.conn,
            flow_id=flow_id,
            since=_moment(call.query.get("since"), "since"),
            until=_moment(call.query.get("until"), "until"),
            cursor=call.query.get("cursor"),
            limit=call.query.get("limit", 1000),
        )
    except RecordsRefused as refused:
        raise ApiError(400, code=refused.code) from None
    headers = {"X-Next-Cursor": cursor} if cursor else {}
    text = export_json(records) if downloads.wants_json(call.query) else export_csv(records, call.locale)
    return downloads.download(text, "flowyard-runs", call.query, headers)
