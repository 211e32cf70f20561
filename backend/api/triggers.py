"""`GET /api/schedules/next`: the next fire times of a cron expression in a time zone, for the editor's
trigger panel. The same `next_fire` as the scheduler, so what the author sees is what will fire."""

from __future__ import annotations

from datetime import UTC, datetime

import anyio.to_thread
from starlette.responses import Response

from backend.api import flows
from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.cron import ScheduleInvalid, next_fire

MAX_FIRES = 10


def fires(cron: str, timezone: str, after: datetime, count: int) -> list[datetime]:
    """The `count` fire times of `cron` in `timezone` after `after`, in UTC.

    Examples:
        >>> [f.isoformat() for f in fires("0 9 * * 1", "Europe/Berlin", datetime(2026, 1, 1, tzinfo=UTC), 2)]
        ['2026-01-05T08:00:00+00:00', '2026-01-12T08:00:00+00:00']
    """
    found: list[datetime] = []
    for _ in range(count):
        after = next_fire(cron, timezone, after)
        found.append(after)
    return found


@endpoint(
    "GET",
    "/api/schedules/next",
    summary="The next fire times of a schedule trigger's cron expression in its time zone (UTC)",
    tag="flows",
    query={
        "cron": {"type": "string", "minLength": 1, "maxLength": 200},
        "timezone": {"type": "string", "minLength": 1, "maxLength": 100},
        "count": {"type": "integer", "minimum": 1, "maximum": MAX_FIRES},
    },
    responses={
        200: {
            "type": "object",
            "required": ["fires"],
            "properties": {"fires": {"type": "array", "items": {"type": "string", "format": "date-time"}}},
        },
        400: None,
        422: None,
        503: None,
    },
)
async def next_fires(call: Call) -> Response:
    if "cron" not in call.query:
        raise ApiError(400, code="request_query_invalid", detail={"parameter": "cron"})
    if flows.validations_busy():
        raise ApiError(503, code="validation_busy", detail={"limit": flows.VALIDATIONS_AT_ONCE})
    # A cron that names a rare day (29 February on a Monday) is searched for years ahead: off the loop.
    work = (
        call.query["cron"],
        call.query.get("timezone", "UTC"),
        datetime.now(UTC),
        call.query.get("count", 5),
    )
    try:
        found = await anyio.to_thread.run_sync(fires, *work, limiter=flows.validations)
    except ScheduleInvalid as invalid:
        raise ApiError(422, code=invalid.code) from None
    return reply({"fires": [moment.isoformat() for moment in found]})
