"""Observing the HTTP side: the middleware that counts and logs every request, and the `/metrics` route.

The middleware labels a request by its route's template (`/api/runs/{run}`), never its path: a webhook's
path holds its secret, and ids would make a label per run.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Sequence
from time import perf_counter
from typing import Any

from psycopg import AsyncConnection
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backend.api.auth import authenticate
from backend.api.errors import ApiError, database_gone, database_unavailable, error_response, internal_error
from backend.i18n import negotiate
from backend.observability import events
from backend.observability.context import scoped
from backend.observability.exposition import CONTENT_TYPE, has_scrape_token, scrape
from backend.people.accounts import has_right

log = logging.getLogger("flowyard.api")

REQUEST_ID_HEADER = "x-request-id"
# A caller's own request id is kept (a proxy's, to follow one request through both logs) when it is
# short and plain; anything else gets a new one, so a header cannot inject text into the log.
_PLAIN_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")

# The method label's values: anything else a client sends is "other", or any client could add series.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class ObservedRequests:
    """Pure ASGI middleware: a request id for the request's log lines, a metric and a line per request."""

    def __init__(self, app: ASGIApp, routes: Sequence[BaseRoute]) -> None:
        self.app = app
        self.templates: dict[object, str] = {
            route.endpoint: route.path for route in routes if isinstance(route, Route)
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(REQUEST_ID_HEADER.encode(), b"").decode("latin-1")
        request_id = given if _PLAIN_ID.fullmatch(given) else uuid.uuid4().hex
        started, status = perf_counter(), 500

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
            await send(message)

        with scoped(request=request_id):
            try:
                await self.app(scope, receive, sending)
            finally:
                route = self.templates.get(scope.get("endpoint"), "unmatched")
                method = scope["method"] if scope["method"] in METHODS else "other"
                events.request_served(method, route, status, started)


async def check_admin(conn: AsyncConnection[Any], request: Request) -> None:
    """Return when the caller is a user with the admin right; raise the ApiError that says why not."""
    user = await authenticate(conn, request)
    if not await has_right(conn, user.name, "admin", None):
        raise ApiError(403, code="right_missing", detail={"right": "admin"}, right="admin")


async def metrics_endpoint(request: Request) -> Response:
    """`GET /metrics`: the Prometheus text of this process (or of all, in multiprocess mode)."""
    locale = negotiate(request.headers.get("accept-language"), None)
    try:
        pool = request.app.state.pool
        if not has_scrape_token(request, request.app.state.metrics_token):
            async with pool.connection() as conn:
                await check_admin(conn, request)
        body = await scrape(pool, request.app.state.metrics_dir)
    except ApiError as error:
        return error_response(error, locale)
    except Exception as failure:
        if database_gone(failure):  # the admin's token could not be checked: 503, as every endpoint
            return database_unavailable(locale, failure)
        log.exception("GET /metrics failed")
        return internal_error(locale)
    return Response(body, media_type=CONTENT_TYPE)


def metrics_route() -> Route:
    return Route("/metrics", metrics_endpoint, methods=["GET"])
