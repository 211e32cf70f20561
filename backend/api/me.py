"""The user's own settings (PUT /api/me): today their language, which the API's messages, mails and the
editor follow. Anyone logged in may change their own; nobody else's can be changed here."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.i18n.catalogs import LOCALES
from backend.store.queries import load

QUERIES = load("backend.api", "settings.sql")

SETTINGS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["locale"],
    "properties": {"locale": {"type": "string", "enum": list(LOCALES)}},
}


@endpoint(
    "PUT",
    "/api/me",
    summary="Change my own language",
    tag="meta",
    body=SETTINGS,
    responses={
        200: {"type": "object", "required": ["locale"], "properties": {"locale": {"type": "string"}}},
        422: None,
    },
)
async def change_settings(call: Call) -> Response:
    cur = await call.conn.execute(
        QUERIES["set_locale"], {"name": call.me.name, "locale": call.body["locale"]}
    )
    row = await cur.fetchone()
    return reply({"locale": row[0] if row else call.body["locale"]})
