"""My delegations: give my approvals to someone else for a period, list them, end one."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.approvals.delegations import DelegationRefused, delegate, delegations_of, end_delegation

DELEGATION: dict[str, Any] = {
    "type": "object",
    "required": ["id", "from", "to", "starts_at", "ends_at", "revoked_at"],
    "properties": {
        "id": {"type": "integer"},
        "from": {"type": "string"},
        "to": {"type": "string"},
        "starts_at": {"type": "string"},
        "ends_at": {"type": "string"},
        "revoked_at": {"type": ["string", "null"]},
    },
}
BODY: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["to", "ends_at"],
    "properties": {
        "to": {"type": "string", "minLength": 1, "maxLength": 64},
        "starts_at": {"type": "string", "format": "date-time", "description": "now when left out"},
        "ends_at": {"type": "string", "format": "date-time"},
    },
}
_STATUS = {"delegation_delegate_unknown": 404, "delegation_not_found": 404}


def _moment(text: str, name: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(422, code="delegation_period_invalid", detail={"field": name}) from None
    if moment.tzinfo is None:
        raise ApiError(422, code="delegation_period_invalid", detail={"field": name})
    return moment


@endpoint(
    "GET",
    "/api/me/delegations",
    summary="My delegations, given and received, that have not ended",
    tag="approvals",
    responses={
        200: {
            "type": "object",
            "required": ["delegations"],
            "properties": {"delegations": {"type": "array", "items": DELEGATION}},
        }
    },
)
async def list_delegations(call: Call) -> Response:
    found = await delegations_of(call.conn, call.me.name)
    return reply({"delegations": [d.to_json() for d in found]})


@endpoint(
    "POST",
    "/api/me/delegations",
    summary="Delegate my approvals to another user for a period (it passes no right)",
    tag="approvals",
    body=BODY,
    responses={201: DELEGATION, 404: None, 422: None},
)
async def create_delegation(call: Call) -> Response:
    starts = call.body.get("starts_at")
    starts_at = _moment(starts, "starts_at") if starts else datetime.now(UTC)
    ends_at = _moment(call.body["ends_at"], "ends_at")
    try:
        made = await delegate(call.conn, call.me.name, call.body["to"], starts_at, ends_at)
    except DelegationRefused as refused:
        raise ApiError(_STATUS.get(refused.code, 422), code=refused.code, **refused.params) from None
    return reply(made.to_json(), status=201)


@endpoint(
    "DELETE",
    "/api/me/delegations/{delegation_id:int}",
    summary="End one of my delegations now",
    tag="approvals",
    responses={200: DELEGATION, 404: None},
)
async def delete_delegation(call: Call) -> Response:
    try:
        ended = await end_delegation(call.conn, call.me.name, call.path_id("delegation_id"))
    except DelegationRefused as refused:
        raise ApiError(404, code=refused.code, **refused.params) from None
    return reply(ended.to_json())
