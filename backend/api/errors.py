"""Errors as the API answers them: `{"error": {"code", "message", "detail"}}`, the message translated.

Every refusal is an ApiError raised with a reason code; the handler turns it into JSON in the reader's
language. Nothing else reaches a client: an unexpected exception is logged and answered as
`internal_error`, without its text (which may hold anything).
"""

from __future__ import annotations

import logging
from typing import Any

import psycopg
from psycopg_pool import PoolTimeout
from starlette.responses import JSONResponse

from backend.i18n.catalogs import message

log = logging.getLogger("flowyard.api")


class ApiError(Exception):
    def __init__(self, status: int, *, code: str, detail: Any = None, **params: Any) -> None:
        super().__init__(code)
        self.status = status
        self.code = code
        self.detail = detail
        self.params = params


def error_response(error: ApiError, locale: str, headers: dict[str, str] | None = None) -> JSONResponse:
    body = {
        "error": {
            "code": error.code,
            "message": message(error.code, locale, **error.params),
            "detail": error.detail,
        }
    }
    return JSONResponse(body, status_code=error.status, headers=headers)


def internal_error(locale: str) -> JSONResponse:
    return error_response(ApiError(500, code="internal_error"), locale)


# The server shutting down, crashed, or refusing connections while it starts (SQLSTATE 57P01-57P03); a
# class 08 state is a connection failure; no state at all is a connection psycopg found broken or closed.
_GONE_STATES = frozenset({"57P01", "57P02", "57P03"})
RETRY_AFTER_S = 1


def database_gone(failure: BaseException) -> bool:
    """Whether `failure` says the database is away (restarting, unreachable, our connection killed), as
    opposed to a fault of the request or of the code: the first is a 503, the second a 500.

    A pool that hands out no connection in its wait (PoolTimeout) counts: the database is not answering
    in time, whatever the cause, and a client may try again.
    """
    if isinstance(failure, PoolTimeout):
        return True
    if not isinstance(failure, psycopg.OperationalError):
        return False
    state = failure.sqlstate
    return state is None or state.startswith("08") or state in _GONE_STATES


def database_unavailable(locale: str, failure: BaseException) -> JSONResponse:
    """503 `database_unavailable` with Retry-After: the answer while the database is away. One log line,
    no traceback: it is an outage to see, not a bug to read."""
    log.warning("the database is unavailable: %s", type(failure).__name__)
    error = ApiError(503, code="database_unavailable")
    return error_response(error, locale, headers={"Retry-After": str(RETRY_AFTER_S)})


ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message", "detail"],
            "properties": {
                "code": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
                "message": {"type": "string"},
                "detail": {},
            },
        }
    },
}
