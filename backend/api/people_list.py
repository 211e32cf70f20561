"""The People page's list (admin only): users with their groups, rights and token counts. Creating and
revoking from the page waits for the admin API of the hardening work; the CLI does it today."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.api.rights import require
from backend.people.accounts import list_people

PAGE = 200
PERSON: dict[str, Any] = {
    "type": "object",
    "required": ["name", "email", "locale", "created_at", "groups", "rights", "tokens"],
    "properties": {
        "name": {"type": "string"},
        "email": {"type": ["string", "null"]},
        "locale": {"type": ["string", "null"]},
        "created_at": {"type": "string"},
        "groups": {"type": "array", "items": {"type": "string"}},
        "rights": {"type": "array", "items": {"type": "string"}},
        "tokens": {"type": "integer"},
    },
}


@endpoint(
    "GET",
    "/api/people",
    summary="Users, their groups, rights and token counts, by name, a page after a name (admin)",
    tag="meta",
    query={"after": {"type": "string", "maxLength": 64}},
    responses={
        200: {
            "type": "object",
            "required": ["people", "next"],
            "properties": {
                "people": {"type": "array", "items": PERSON},
                "next": {"type": ["string", "null"]},
            },
        },
        403: None,
    },
)
async def people(call: Call) -> Response:
    await require(call, "admin")
    rows = await list_people(call.conn, after=call.query.get("after"), limit=PAGE + 1)
    found = [
        {
            "name": person.name,
            "email": person.email,
            "locale": person.locale,
            "created_at": person.created_at.isoformat(),
            "groups": list(person.groups),
            "rights": list(person.rights),
            "tokens": person.tokens,
        }
        for person in rows[:PAGE]
    ]
    return reply({"people": found, "next": found[-1]["name"] if len(rows) > PAGE else None})
