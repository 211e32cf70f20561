"""Endpoints declared once: their route, right, request and response schemas. The same declaration
serves the request (auth, body, query) and the OpenAPI document, so the two cannot drift apart.
"""

from __future__ import annotations

import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC
from typing import Any

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from backend.api.auth import User, authenticate
from backend.api.body import ClientGone, check, read_json, text_problem
from backend.api.errors import ApiError, database_gone, database_unavailable, error_response, internal_error
from backend.errors import CodedError
from backend.i18n import negotiate
from backend.i18n.zones import reset_reader_zone, set_reader_zone, zone
from backend.settings import Settings

log = logging.getLogger("flowyard.api")
MAX_ID = 2**63 - 1


@dataclass(slots=True)
class Call:
    """What a handler gets: the request, a connection, who asks, in which language, and the checked input.

    An endpoint declared with `pooled=False` gets no connection and takes one from `pool` only for the
    moments it needs one (a login must not hold one while its password is hashed).
    """

    request: Request
    connection: AsyncConnection[Any] | None
    user: User | None
    locale: str
    body: Any
    query: dict[str, Any]

    @property
    def conn(self) -> AsyncConnection[Any]:
        assert self.connection is not None, "an endpoint declared pooled=False takes its own"
        return self.connection

    @property
    def pool(self) -> AsyncConnectionPool[Any]:
        pool: AsyncConnectionPool[Any] = self.request.app.state.pool
        return pool

    @asynccontextmanager
    async def connected(self) -> AsyncIterator[Call]:
        """This call holding a connection of the pool's, for the moments a `pooled=False` endpoint needs
        one (its rights checked, say, before it streams its answer on connections taken a page at a time)."""
        async with self.pool.connection() as conn:
            yield replace(self, connection=conn)

    @property
    def settings(self) -> Settings:
        """The settings the app was made with (`create_app`)."""
        settings: Settings = self.request.app.state.settings
        return settings

    async def read_body(self) -> Any:
        """The body as any JSON, within the body deadline: for `pooled=False` endpoints, which read it
        between connections."""
        return await read_json(self.request, None, deadline_s=self.request.app.state.settings.body_timeout_s)

    def path_id(self, name: str) -> int:
        value = int(self.request.path_params[name])
        if value > MAX_ID:
            raise ApiError(404, code="not_found")
        return value

    @property
    def me(self) -> User:
        assert self.user is not None, "an authenticated endpoint"
        return self.user


Handler = Callable[[Call], Awaitable[Response]]


@dataclass(slots=True)
class Endpoint:
    method: str
    path: str
    handler: Handler
    summary: str
    tag: str
    public: bool = False
    body: dict[str, Any] | None = None
    query: dict[str, dict[str, Any]] = field(default_factory=dict)
    responses: dict[int, dict[str, Any] | None] = field(default_factory=dict)
    content: str = "application/json"
    pooled: bool = True

    def route(self) -> Route:
        async def serve(request: Request) -> Response:
            locale = negotiate(request.headers.get("accept-language"), None)
            pool: AsyncConnectionPool[Any] = request.app.state.pool
            # Every date a sentence of this answer cites is written in the reader's zone (UTC for none).
            zoned = set_reader_zone(UTC)
            try:
                user = None
                if not self.public:
                    async with pool.connection() as conn:
                        user = await authenticate(conn, request)
                    locale = negotiate(request.headers.get("accept-language"), user.locale)
                    set_reader_zone(zone(user.time_zone))
                # The body is read holding no connection: a slow client sending one cannot starve the
                # pool every other request needs (docs/api.md).
                query = self._query(request)
                body = await self._body(request)
                if not self.pooled:
                    return await self.handler(Call(request, None, user, locale, body, query))
                async with pool.connection() as conn:
                    return await self.handler(Call(request, conn, user, locale, body, query))
            except CodedError as refused:
                # An ApiError says its status; a package's refusal its handler did not translate is
                # answered with its own code all the same (docs/api.md). A coded failure of ours is not a
                # refusal: it goes on as any other failure does.
                status = refusal_status(refused)
                if status is None:
                    return self._failed(refused, locale)
                answer = error_response(refused, locale)
                answer.status_code = status
                return answer
            except ClientGone:
                # Nobody is left to read an answer: not a failure of ours, so no traceback either.
                log.info("%s %s: the client left before its body was sent", self.method, self.path)
                return error_response(ApiError(400, code="request_body_incomplete"), locale)
            except Exception as failure:
                return self._failed(failure, locale)
            finally:
                reset_reader_zone(zoned)

        return Route(self.path, serve, methods=[self.method])

    def _failed(self, failure: Exception, locale: str) -> Response:
        """A failure of ours (called while it is being handled): 503 when the database is away, else logged
        with its traceback and answered 500 internal_error, its text kept from the client."""
        if database_gone(failure):
            return database_unavailable(locale, failure)
        log.exception("%s %s failed", self.method, self.path)
        return internal_error(locale)

    async def _body(self, request: Request) -> Any:
        if self.body is None:
            return None
        return await read_json(request, self.body, deadline_s=request.app.state.settings.body_timeout_s)

    def _query(self, request: Request) -> dict[str, Any]:
        """Query parameters converted by their schema's type and checked; unknown ones are refused."""
        values: dict[str, Any] = {}
        for key, given in request.query_params.multi_items():
            if key not in self.query:
                raise ApiError(400, code="request_query_unknown", detail={"parameter": key})
            if text_problem(given):
                raise ApiError(400, code="request_query_invalid", detail={"parameter": key})
        for name, schema in self.query.items():
            raw = request.query_params.get(name)
            if raw is None:
                continue
            value: Any = raw
            if schema.get("type") == "integer":
                if not _INTEGER.fullmatch(raw):
                    raise ApiError(400, code="request_query_invalid", detail={"parameter": name})
                value = int(raw)
            try:
                check(value, schema)
            except ApiError:
                raise ApiError(400, code="request_query_invalid", detail={"parameter": name}) from None
            values[name] = value
        return values


def refusal_status(refused: CodedError) -> int | None:
    """A refusal's HTTP status: an ApiError's own; for a package's refusal its handler did not translate,
    404 when what it names is not there (a code ending in `_not_found`), else its own (`CodedError.status`:
    422, or 429 for a throttled login). None for a coded failure that is no refusal a client can cause (a
    walk's or an action's failure, a StoreError): the API answers it as a failure of its own.

    Examples:
        >>> from backend.queue.stops import StopRefused
        >>> [refusal_status(StopRefused(code=code)) for code in ("run_not_found", "run_not_stopped")]
        [404, 422]
        >>> refusal_status(ApiError(409, code="flow_not_found"))
        409
        >>> refusal_status(CodedError(code="value_too_large")) is None
        True
    """
    if isinstance(refused, ApiError):
        return refused.status
    if refused.status is None:
        return None
    return 404 if refused.code.endswith("_not_found") else refused.status


# ASCII digits only: str.isdigit() says yes to "²", which int() then refuses.
_INTEGER = re.compile(r"-?[0-9]{1,19}")


ENDPOINTS: list[Endpoint] = []


def endpoint(
    method: str,
    path: str,
    *,
    summary: str,
    tag: str,
    public: bool = False,
    body: dict[str, Any] | None = None,
    query: dict[str, dict[str, Any]] | None = None,
    responses: dict[int, dict[str, Any] | None],
    content: str = "application/json",
    pooled: bool = True,
) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        ENDPOINTS.append(
            Endpoint(
                method,
                path,
                handler,
                summary,
                tag,
                public,
                body,
                query or {},
                responses,
                content,
                pooled,
            )
        )
        return handler

    return register


def reply(body: Any, status: int = 200, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers=headers)
