"""Health, sessions, who I am, the catalogs for the frontend, and the OpenAPI document."""

from __future__ import annotations

from typing import Any

from starlette.responses import Response

from backend.api.auth import SESSION_COOKIE, close_session
from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.i18n import catalog_json
from backend.i18n.catalogs import LOCALES
from backend.i18n.pseudo import PSEUDO_LOCALE
from backend.people import logins
from backend.people.accounts import principals_of, rights_of
from backend.people.hashing import HashingBusy, PasswordHashing
from backend.people.logins import LoginThrottled
from backend.people.sessions import SESSION_LIFETIME, open_session
from backend.store.queries import scalar


def client_address(call: Call) -> str:
    """The client's address; behind a proxy on this host, uvicorn has put X-Forwarded-For's here."""
    client = call.request.client
    return client.host if client is not None else "unknown"


@endpoint(
    "GET",
    "/healthz",
    summary="Up when the database answers (no token: probes have none)",
    tag="meta",
    public=True,
    responses={200: {"type": "object", "required": ["status", "database"]}},
)
async def healthz(call: Call) -> Response:
    schema = await scalar(call.conn, "SELECT max(number) FROM schema_migrations")
    return reply({"status": "ok", "database": {"ok": True, "schema": schema}})


LOGIN: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "password"],
    "properties": {
        "name": {"type": "string", "maxLength": 64},
        "password": {"type": "string", "maxLength": 1024},
    },
}


@endpoint(
    "POST",
    "/api/session",
    summary="Log in: a session cookie, and the CSRF token writes must echo",
    tag="meta",
    public=True,
    pooled=False,
    body=LOGIN,
    responses={
        201: {
            "type": "object",
            "required": ["user", "csrf_token"],
            "properties": {"user": {"type": "string"}, "csrf_token": {"type": "string"}},
        },
        401: None,
        429: None,
    },
)
async def login(call: Call) -> Response:
    name, password = call.body["name"], call.body["password"]
    address = client_address(call)
    hashing: PasswordHashing = call.request.app.state.hashing
    try:
        # A place in the hashing queue first: a burst past its depth is told so at once, and costs no
        # query and no count.
        with hashing.slot():
            return await _checked_login(call, hashing, name, password, address)
    except HashingBusy as busy:
        raise ApiError(429, code=busy.code) from None


async def _checked_login(
    call: Call, hashing: PasswordHashing, name: str, password: str, address: str
) -> Response:
    # Counted before the password is looked at, in the statement that checks the limits: a refusal costs
    # no hash, for names that exist or not, and no burst gets more guesses than the limits.
    try:
        async with call.pool.connection() as conn:
            await logins.reserve(conn, name, address)
    except LoginThrottled as throttled:
        raise ApiError(429, code=throttled.code, **throttled.params) from None
    # The hash runs holding no connection: thirty logins at once must not empty the pool.
    async with call.pool.connection() as conn:
        stored = await logins.stored_hash(conn, name)
    ok, stale = await hashing.verify(stored, password)
    if not ok:
        raise ApiError(401, code="login_failed")  # its reservation stands as the failure
    new_hash = await hashing.hash(password) if stale else None
    async with call.pool.connection() as conn:
        await logins.succeeded(conn, name, address, new_hash=new_hash)
        session, csrf = await open_session(conn, name)
    response = reply({"user": name, "csrf_token": csrf}, 201)
    response.set_cookie(
        SESSION_COOKIE,
        session,
        max_age=int(SESSION_LIFETIME.total_seconds()),
        httponly=True,
        samesite="strict",
        # Behind a proxy that ends TLS the scheme we see is http: FLOWYARD_SECURE_COOKIES=1 says so.
        secure=call.request.url.scheme == "https" or call.settings.secure_cookies,
        path="/",
    )
    return response


@endpoint("DELETE", "/api/session", summary="Log out", tag="meta", responses={204: None})
async def logout(call: Call) -> Response:
    await close_session(call.conn, call.request)
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@endpoint(
    "GET",
    "/api/me",
    summary="Who I am: my rights, groups and language (and, in a session, the CSRF token writes echo)",
    tag="meta",
    responses={
        200: {
            "type": "object",
            "required": ["name", "rights", "principals", "locale", "time_zone"],
            "properties": {
                "name": {"type": "string"},
                "locale": {"type": "string"},
                "time_zone": {"type": ["string", "null"], "description": "IANA name; null until set"},
                "csrf_token": {"type": "string"},
                "rights": {
                    "type": "array",
                    "description": "my grants: a right everywhere (flow null) or on one flow",
                    "items": {
                        "type": "object",
                        "required": ["right", "flow"],
                        "properties": {"right": {"type": "string"}, "flow": {"type": ["integer", "null"]}},
                    },
                },
                "principals": {"type": "array", "items": {"type": "string"}},
            },
        }
    },
)
async def me(call: Call) -> Response:
    rights = [
        {"right": grant.right, "flow": grant.flow_id} for grant in await rights_of(call.conn, call.me.name)
    ]
    principals = sorted(await principals_of(call.conn, call.me.name))
    body = {
        "name": call.me.name,
        "rights": rights,
        "principals": principals,
        "locale": call.locale,
        "time_zone": call.me.time_zone,
    }
    if call.me.csrf is not None:
        body["csrf_token"] = call.me.csrf
    return reply(body)


@endpoint(
    "GET",
    "/api/i18n/{locale}",
    summary="A catalog as flat JSON, for the frontend (no login: the login page is translated too)",
    tag="meta",
    # The catalogs are the repository's own sentences, the same for everyone: nothing to protect, and
    # the login page must speak the reader's language before there is a session.
    public=True,
    responses={200: {"type": "object", "additionalProperties": {"type": "string"}}, 404: None},
)
async def i18n(call: Call) -> Response:
    locale = call.request.path_params["locale"]
    if locale.replace("-", "_") == PSEUDO_LOCALE:
        return reply(catalog_json(PSEUDO_LOCALE))
    if locale not in LOCALES:
        raise ApiError(404, code="locale_not_found", detail={"locales": list(LOCALES)})
    return reply(catalog_json(locale))
