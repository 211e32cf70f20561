"""Errors as the API answers them: `{"error": {"code", "message", "detail"}}`, the message translated.

Every refusal is a `backend.errors.CodedError` (an ApiError when it carries its own status) raised with a
reason code; the handler turns it into JSON in the reader's
language. Nothing else reaches a client: an unexpected exception is logged and answered as
`internal_error`, without its text (which may hold anything).
"""

from __future__ import annotations

import logging
from typing import Any

from starlette.responses import JSONResponse

from backend.errors import CodedError
from backend.i18n.catalogs import message
from backend.store.errors import database_gone

__all__ = ["ApiError", "database_gone", "database_unavailable", "error_response", "internal_error"]

log = logging.getLogger("flowyard.api")


class ApiError(CodedError):
    """A refusal with the HTTP status it is answered with, and a `detail` for the body (None: none)."""

    detail: Any = None  # the body's `detail`, not the root's alias of the params

    def __init__(self, status: int, *, code: str, detail: Any = None, **params: Any) -> None:
        super().__init__(code=code, **params)
        self.status = status  # type: ignore[misc]  # this refusal's own, where the class has a default
        self.detail = detail


def error_response(error: CodedError, locale: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """Any refusal as the API answers it: its status, code, sentence in `locale` and detail."""
    body = {
        "error": {
            "code": error.code,
            "message": message(error.code, locale, **error.params),
            "detail": error.detail if isinstance(error, ApiError) else (error.params or None),
        }
    }
    # A class without a status is a failure of ours, answered 500 (the endpoint never shows its body).
    return JSONResponse(body, status_code=error.status or 500, headers=headers)


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
