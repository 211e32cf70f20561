"""A flow renamed or described anew without a new version: versions are for what runs (issue 33)."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.api.rights import require, require_read
from backend.flows.store import KEEP, FlowNameTaken, Keep, rename_flow

# The flow format's rule for a document's name (backend/graph/schemas/flow.schema.json): the same name must
# be one a save would take.
NAME_LIMIT = 200

NAMES: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {
        "name": {"type": "string", "description": "1 to 200 characters, not only spaces"},
        "description": {"type": ["string", "null"], "description": "empty or null: none"},
    },
}
RENAMED: dict[str, Any] = {
    "type": "object",
    "required": ["id", "name", "description", "version"],
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "description": {"type": ["string", "null"]},
        "version": {"type": "integer", "description": "the newest version, unchanged"},
    },
}


def checked_name(name: Any) -> str | None:
    """The name asked for, or None to keep the flow's; a name no save would take is refused.

    Examples:
        >>> checked_name("Pay invoices"), checked_name(None)
        ('Pay invoices', None)
        >>> checked_name("  ")
        Traceback (most recent call last):
        backend.api.errors.ApiError: flow_name_blank
    """
    if name is None:
        return None
    if not name.strip():
        raise ApiError(422, code="flow_name_blank")
    if len(name) > NAME_LIMIT:
        raise ApiError(422, code="flow_name_too_long", detail={"limit": NAME_LIMIT}, limit=NAME_LIMIT)
    return str(name)


@endpoint(
    "PATCH",
    "/api/flows/{flow_id:int}",
    summary="Rename a flow or change its description, without a new version",
    tag="flows",
    body=NAMES,
    responses={200: RENAMED, 403: None, 404: None, 409: None, 422: None},
)
async def rename(call: Call) -> Response:
    flow_id = call.path_id("flow_id")
    await require_read(call, flow_id)
    await require(call, "edit", flow_id)
    name = checked_name(call.body.get("name"))
    description: str | Keep | None = KEEP
    if "description" in call.body:
        description = call.body["description"] or None
    try:
        now = await rename_flow(call.conn, flow_id, name=name, description=description)
    except FlowNameTaken:
        raise ApiError(409, code="flow_name_taken", detail={"name": name}, name=name) from None
    if now is None:
        raise ApiError(404, code="flow_not_found")
    return reply({"id": flow_id, "name": now.name, "description": now.description, "version": now.version})
