"""Events for runs waiting at wait_event nodes: `POST /api/events/{name}` (a token with `send_events`),
`POST /hooks/events/{name}/{secret}` (the name's secret, like a webhook), and making that secret.

See docs/events.md: an event is delivered to the oldest pause waiting for its name under its key, or
kept for a run that reaches one later; either way it is consumed once.
"""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.api.rights import require
from backend.events.service import Delivery, EventRefused, check_secret, deliver, new_secret
from backend.events.store import EVENT_NAME, MAX_KEY, Quota, check_name

EVENT_BODY: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["key"],
    "properties": {
        "key": {"type": "string", "minLength": 1, "maxLength": MAX_KEY, "description": "the correlation key"},
        "payload": {"type": "object", "description": "the waiting node's output (default {})"},
    },
}
DELIVERED: dict[str, Any] = {
    "type": "object",
    "required": ["event", "delivered", "kept_until"],
    "properties": {
        "event": {"type": "integer"},
        "delivered": {"type": "boolean", "description": "given to a waiting run now (else kept)"},
        "kept_until": {
            "type": ["string", "null"],
            "format": "date-time",
            "description": "null once delivered",
        },
        "repeated": {
            "type": "boolean",
            "description": "an Idempotency-Key this sender used for this name before: the first answer",
        },
    },
}
# Refusals of an event and the status each answers with.
_STATUS = {
    "event_payload_too_large": 413,
    "event_name_refused": 422,
    "idempotency_key_invalid": 400,
    "event_quota_events": 429,
    "event_quota_bytes": 429,
}


def _name(call: Call) -> str:
    try:
        return check_name(call.request.path_params["name"])
    except EventRefused as refused:
        raise ApiError(422, code=refused.code, detail={"pattern": EVENT_NAME.pattern}) from None


async def _deliver(call: Call, conn: Any, name: str, body: Any, sent_by: str) -> Response:
    config = call.settings
    try:
        delivery: Delivery = await deliver(
            conn,
            name,
            body["key"],
            body.get("payload", {}),
            keep=config.events_keep,
            max_payload_bytes=config.max_value_bytes,
            sent_by=sent_by,
            quota=Quota(config.events_max_kept, config.events_max_kept_bytes),
            idempotency_key=call.request.headers.get("idempotency-key"),
        )
    except EventRefused as refused:
        status = _STATUS.get(refused.code, 422)
        raise ApiError(status, code=refused.code, detail=refused.params or None, **refused.params) from None
    kept_until = (
        None if delivery.delivered or delivery.expires_at is None else delivery.expires_at.isoformat()
    )
    answer = {"event": delivery.event_id, "delivered": delivery.delivered, "kept_until": kept_until}
    return reply({**answer, "repeated": delivery.repeated}, 202)


@endpoint(
    "POST",
    "/api/events/{name}",
    summary="Send an event: delivered to the oldest run waiting for it under its key, or kept for one "
    "(within the sender's quota); the same Idempotency-Key twice is one event",
    tag="runs",
    body=EVENT_BODY,
    responses={202: DELIVERED, 400: None, 413: None, 422: None, 429: None},
)
async def send(call: Call) -> Response:
    name = _name(call)
    await require(call, "send_events")
    return await _deliver(call, call.conn, name, call.body, call.me.name)


@endpoint(
    "POST",
    "/hooks/events/{name}/{secret}",
    summary="Send an event with the event name's secret instead of a token (see POST /api/events/{name})",
    tag="runs",
    public=True,
    pooled=False,
    responses={202: DELIVERED, 400: None, 404: None, 413: None, 422: None, 429: None},
)
async def send_with_secret(call: Call) -> Response:
    # As a webhook: the secret checked first, the body read holding no connection, a wrong secret and a
    # name without one answered alike.
    name = call.request.path_params["name"]
    secret = call.request.path_params["secret"]
    if not EVENT_NAME.fullmatch(name):
        raise ApiError(404, code="event_hook_not_found")
    async with call.pool.connection() as conn:
        if not await check_secret(conn, name, secret):
            raise ApiError(404, code="event_hook_not_found")
    body = await call.read_body()
    if not isinstance(body, dict) or set(body) - {"key", "payload"} or not isinstance(body.get("key"), str):
        raise ApiError(422, code="event_body_invalid")
    async with call.pool.connection() as conn:
        return await _deliver(call, conn, name, body, f"hook:{name}")


@endpoint(
    "POST",
    "/api/events/{name}/secret",
    summary="A new secret for sending this event without a token, shown once (admin)",
    tag="runs",
    responses={201: {"type": "object", "required": ["path", "secret"]}, 422: None},
)
async def make_secret(call: Call) -> Response:
    name = _name(call)
    await require(call, "admin")
    secret = await new_secret(call.conn, name, call.me.name)
    return reply({"path": f"/hooks/events/{name}/{secret}", "secret": secret}, 201)
