"""The user's own settings (PUT /api/me): their language, which the API's messages, mails and the editor
follow, and their time zone (an IANA name), in which every date they read is written. Anyone logged in
may change their own; nobody else's can be changed here. The pages send the browser's zone at the
first login, when none is set yet (docs/i18n.md, "Time zones")."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.i18n.catalogs import LOCALES
from backend.i18n.pseudo import PSEUDO_LOCALE
from backend.i18n.zones import known_zone
from backend.people.sessions import change_settings as save_settings

SETTINGS: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "minProperties": 1,
    "properties": {
        # The pseudo-locale is a tester's choice, never offered in a menu (docs/i18n.md).
        "locale": {"type": "string", "enum": [*LOCALES, PSEUDO_LOCALE]},
        "time_zone": {"type": "string", "minLength": 1, "maxLength": 64},
    },
}


@endpoint(
    "PUT",
    "/api/me",
    summary="Change my own language or time zone",
    tag="meta",
    body=SETTINGS,
    responses={
        200: {
            "type": "object",
            "required": ["locale", "time_zone"],
            "properties": {"locale": {"type": ["string", "null"]}, "time_zone": {"type": ["string", "null"]}},
        },
        422: None,
    },
)
async def change_settings(call: Call) -> Response:
    time_zone = call.body.get("time_zone")
    if time_zone is not None and not known_zone(time_zone):
        raise ApiError(422, code="user_time_zone_unknown", detail={"time_zone": time_zone}, zone=time_zone)
    settings = await save_settings(
        call.conn, call.me.name, locale=call.body.get("locale"), time_zone=time_zone
    )
    return reply({"locale": settings.locale, "time_zone": settings.time_zone})
