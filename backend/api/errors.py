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
