"""The flow templates: the example flows an author may start a new flow from, in the reader's language."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.flows.examples import templates

TEMPLATE: dict[str, Any] = {
    "type": "object",
    "required": ["id", "name", "description", "document"],
    "properties": {
        "id": {"type": "string", "description": "the example's file name without .json"},
        "name": {"type": "string"},
        "description": {"type": "string", "description": "one line"},
        "document": {
            "type": "object",
            "description": "a valid flow document, its name and description the ones above",
        },
    },
}


@endpoint(
    "GET",
    "/api/flow-templates",
    summary="The example flows to start a new flow from, named and described in the reader's language",
    tag="flows",
    responses={
        200: {
            "type": "object",
            "required": ["templates"],
            "properties": {"templates": {"type": "array", "items": TEMPLATE}},
        }
    },
)
async def list_templates(call: Call) -> Response:
    return reply({"templates": [template.to_json() for template in templates(call.locale)]})
