"""A moment given in a query parameter: ISO 8601 with its UTC offset, or a 400 naming the parameter."""

from __future__ import annotations

from datetime import datetime

from backend.api.errors import ApiError


def moment(text: str | None, name: str) -> datetime | None:
    if text is None:
        return None
    try:
        value = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(400, code="request_query_invalid", detail={"parameter": name}) from None
    if value.tzinfo is None:
        raise ApiError(
            400, code="request_query_invalid", detail={"parameter": name, "reason": "no UTC offset"}
        )
    return value
