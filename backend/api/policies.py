"""The installation's policies, above what a flow says: read by anyone signed in (an editor learns why a
save is refused), set by admins. One so far, `self_approval` (backend/approvals/four_eyes.py)."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.api.rights import require
from backend.approvals.four_eyes import (
    SELF_APPROVAL_VALUES,
    self_approval_policy,
    set_self_approval_policy,
)

POLICY: dict[str, Any] = {
    "type": "object",
    "required": ["value", "set_by", "set_at"],
    "properties": {
        "value": {"type": "string", "enum": list(SELF_APPROVAL_VALUES)},
        "set_by": {"type": ["string", "null"], "description": "null: never set, the default holds"},
        "set_at": {"type": ["string", "null"]},
    },
}
POLICIES: dict[str, Any] = {
    "type": "object",
    "required": ["self_approval"],
    "properties": {"self_approval": POLICY},
}
SELF_APPROVAL_BODY: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["value"],
    "properties": {"value": {"type": "string", "enum": list(SELF_APPROVAL_VALUES)}},
}


@endpoint(
    "GET",
    "/api/policies",
    summary="The installation's policies: self_approval is per_node (each approval node decides) or never",
    tag="people",
    responses={200: POLICIES},
)
async def policies(call: Call) -> Response:
    return reply({"self_approval": (await self_approval_policy(call.conn)).to_json()})


@endpoint(
    "PUT",
    "/api/policies/self_approval",
    summary="Set the self-approval policy (admin): never holds every approval to four eyes, those of "
    "versions saved before included",
    tag="people",
    body=SELF_APPROVAL_BODY,
    responses={200: POLICY, 403: None},
)
async def set_self_approval(call: Call) -> Response:
    await require(call, "admin")
    policy = await set_self_approval_policy(call.conn, call.body["value"], by=call.me.name)
    return reply(policy.to_json())
