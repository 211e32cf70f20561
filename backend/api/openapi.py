"""The OpenAPI 3.1 document, generated from the endpoint declarations."""

from __future__ import annotations

import re
from typing import Any

from starlette.responses import Response

from backend.api.endpoint import ENDPOINTS, Call, Endpoint, endpoint, reply
from backend.api.errors import ERROR_SCHEMA

_PARAM = re.compile(r"{(\w+)(?::(\w+))?}")
_DESCRIPTIONS = {
    200: "OK",
    201: "Created",
    202: "Accepted",
    204: "No content",
    400: "Bad request",
    401: "Not authenticated",
    403: "Forbidden",
    404: "Not found",
    408: "The body was not sent in time",
    409: "Conflict",
    413: "Too large",
    415: "Unsupported media type",
    422: "Invalid",
    429: "Too many attempts",
    503: "Busy, or the database is unavailable (database_unavailable, Retry-After): try again in a moment",
}


def _error_answer(description: str) -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


def _status(words: str) -> dict[str, Any]:
    schema = {"type": "object", "required": ["status"], "properties": {"status": {"const": words}}}
    return {"description": words, "content": {"application/json": {"schema": schema}}}


# The operators' routes, served beside the endpoints (backend/observability): the probes need no login,
# `/metrics` a FLOWYARD_METRICS_TOKEN or an admin's token (docs/operations.md).
OPERATIONS_PATHS: dict[str, dict[str, Any]] = {
    "/livez": {
        "get": {
            "summary": "The process answers",
            "tags": ["operations"],
            "operationId": "livez",
            "security": [],
            "responses": {"200": _status("live")},
        }
    },
    "/readyz": {
        "get": {
            "summary": "The database answers and its schema is this release's",
            "tags": ["operations"],
            "operationId": "readyz",
            "security": [],
            "responses": {"200": _status("ready"), "503": _error_answer("not ready, with the reason code")},
        }
    },
    "/metrics": {
        "get": {
            "summary": "Prometheus metrics of this process (all processes in multiprocess mode)",
            "tags": ["operations"],
            "operationId": "metrics",
            "responses": {
                "200": {"description": "the Prometheus text format", "content": {"text/plain": {}}},
                "401": _error_answer("no token, or not a valid one"),
                "403": _error_answer("a user without the admin right"),
                "503": _error_answer("the database is unavailable to check an admin's token"),
            },
        }
    },
}


def document() -> dict[str, Any]:
    paths: dict[str, dict[str, Any]] = {}
    for ep in ENDPOINTS:
        path = _PARAM.sub(lambda m: "{" + m.group(1) + "}", ep.path)
        paths.setdefault(path, {})[ep.method.lower()] = _operation(ep)
    paths.update(OPERATIONS_PATHS)
    return {
        "openapi": "3.1.0",
        "info": {"title": "Flowyard", "version": "1", "description": "Flows, runs, approvals and audit."},
        "paths": paths,
        "components": {
            "schemas": {"Error": ERROR_SCHEMA},
            "securitySchemes": {
                "token": {"type": "http", "scheme": "bearer"},
                "session": {"type": "apiKey", "in": "cookie", "name": "flowyard_session"},
            },
        },
        "security": [{"token": []}, {"session": []}],
    }


def _operation(ep: Endpoint) -> dict[str, Any]:
    operation: dict[str, Any] = {"summary": ep.summary, "tags": [ep.tag], "operationId": ep.handler.__name__}
    parameters = [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": {"type": "integer", "minimum": 0, "maximum": 2**63 - 1}
            if kind == "int"
            else {"type": "string"},
        }
        for name, kind in _PARAM.findall(ep.path)
    ]
    parameters += [
        {"name": name, "in": "query", "required": False, "schema": schema}
        for name, schema in ep.query.items()
    ]
    if parameters:
        operation["parameters"] = parameters
    if ep.public:
        operation["security"] = []
    if ep.body is not None:
        operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": ep.body}}}
    responses: dict[str, Any] = {}
    for status, schema in ep.responses.items():
        if status == 204:
            responses[str(status)] = {"description": _DESCRIPTIONS[status]}
        elif status >= 400 or schema is None:
            responses[str(status)] = _error(status)
        else:
            responses[str(status)] = {"description": _DESCRIPTIONS[status], "content": _content(ep, schema)}
    for status in _implicit(ep):
        responses.setdefault(str(status), _error(status))
    operation["responses"] = responses
    return operation


def _content(ep: Endpoint, schema: dict[str, Any]) -> dict[str, Any]:
    if ep.content == "text/event-stream":
        return {"text/event-stream": {"schema": schema}}
    if ep.content == "text/csv":
        return {"text/csv": {"schema": {"type": "string"}}, "application/json": {"schema": {"type": "array"}}}
    return {"application/json": {"schema": schema}}


def _implicit(ep: Endpoint) -> list[int]:
    """The answers every endpoint of its kind can give besides its own. Every endpoint touches the
    database (a login is checked there, a handler gets a connection or takes one), so every one may
    answer 503 `database_unavailable` while the database is away (docs/crashes.md)."""
    statuses = [503] if ep.public else [401, 403, 503]
    if ep.query:
        statuses.append(400)
    if ep.body is not None or ep.path.startswith("/hooks/"):
        statuses += [400, 408, 413, 415, 422]
    if _PARAM.search(ep.path):
        statuses.append(404)
    return statuses


def _error(status: int) -> dict[str, Any]:
    return {
        "description": _DESCRIPTIONS.get(status, "Error"),
        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
    }


@endpoint(
    "GET", "/api/openapi.json", summary="This document", tag="meta", responses={200: {"type": "object"}}
)
async def openapi(call: Call) -> Response:
    return reply(document())
