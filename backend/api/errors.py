"""Errors as the API answers them: `{"error": {"code", "message", "detail"}}`, the message translated.

Every refusal is an ApiError raised with a reason code; the handler turns it into JSON in the reader's
language. Nothing else reaches a client: an unexpected exception is logged and answered as
`internal_error`, without its text (which may hold anything).
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.responses import JSONResponse

from backend.i18n.catalogs import message
from backend.store.errors import database_gone

__all__ = ["ApiError", "database_gone", "database_unavailable", "error_response", "internal_error"]

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


RETRY_AFTER_S = 1


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
