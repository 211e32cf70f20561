"""A user's own e-mail address: where the mails that call them to an approval go."""

from __future__ import annotations

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.people.accounts import AccountRefused, set_email

EMAIL = {"type": "object", "required": ["email"], "properties": {"email": {"type": ["string", "null"]}}}


@endpoint(
    "PUT",
    "/api/me/email",
    summary="Set my e-mail address for approval mails (null: no mails)",
    tag="meta",
    body={
        "type": "object",
        "additionalProperties": False,
        "required": ["email"],
        "properties": {"email": {"type": ["string", "null"], "maxLength": 254}},
    },
    responses={200: EMAIL, 400: None},
)
async def put_email(call: Call) -> Response:
    try:
        await set_email(call.conn, call.me.name, call.body["email"])
    except AccountRefused as refused:
        raise ApiError(400, code=refused.code, **refused.params) from None
    return reply({"email": call.body["email"]})
