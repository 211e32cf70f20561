"""The evidence for one decision as a file to download (backend/approvals/evidence.py)."""

from __future__ import annotations

from starlette.responses import Response

from backend.api.approvals import _readable
from backend.api.endpoint import Call, endpoint
from backend.api.errors import ApiError
from backend.api.rights import require
from backend.approvals.evidence import EvidenceRefused
from backend.approvals.evidence_commands import make


@endpoint(
    "GET",
    "/api/approvals/{approval_id:int}/evidence",
    summary="The evidence for one decision: an HTML page in the reader's language carrying its signed data, "
    "checked offline with flowyard audit check-evidence and the public key alone",
    tag="audit",
    responses={200: None, 403: None, 404: None, 409: None},
)
async def evidence(call: Call) -> Response:
    approval = await _readable(call)
    await require(call, "audit", approval.flow_id)
    try:
        page = await make(call.conn, call.settings, approval.id, call.locale, call.me.name)
    except EvidenceRefused as refused:
        raise ApiError(409, code=refused.code, **refused.params) from None
    headers = {"Content-Disposition": f'attachment; filename="flowyard-evidence-{approval.id}.html"'}
    return Response(page, media_type="text/html; charset=utf-8", headers=headers)
