"""Users, their rights and tokens, for admins; the rights trail, for auditors.

The same changes as `flowyard user|token ...`, under the admin's name on the rights trail. Two guards
keep an admin from locking themselves out by mistake: the token a request carries cannot be revoked
by that request (`token_in_use`), and an admin cannot remove their own user (`user_is_you`); the CLI
does both.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

from starlette.responses import Response

from backend.api.endpoint import Call, endpoint, reply
from backend.api.errors import ApiError
from backend.api.flows import ID
from backend.api.rights import require
from backend.i18n.catalogs import LOCALES
from backend.people import rights
from backend.people.accounts import (
    MAX_EMAIL,
    MAX_TOKEN_LIFETIME,
    AccountRefused,
    Grant,
    add_user,
    create_token,
    hash_password,
    token_id_of,
)

NAME = {"type": "string", "pattern": "^[A-Za-z0-9_.@-]{1,64}$"}
GRANT = {"type": "string", "minLength": 1, "maxLength": 220}
LIMIT = {"type": "integer", "minimum": 1, "maximum": 200}
STAMP = {"type": ["string", "null"]}
USER: dict[str, Any] = {
    "type": "object",
    "required": ["name", "rights", "groups", "created_at"],
    "properties": {
        "name": {"type": "string"},
        "rights": {"type": "array", "items": {"type": "string"}},
        "groups": {"type": "array", "items": {"type": "string"}},
        "created_at": {"type": "string"},
        "email": {"type": ["string", "null"]},
        "locale": {"type": ["string", "null"]},
    },
}
TOKEN: dict[str, Any] = {
    "type": "object",
    "required": ["id", "user", "created_at", "expires_at", "last_used_at", "revoked_at"],
    "properties": {
        "id": {"type": "integer"},
        "user": {"type": "string"},
        "created_at": {"type": "string"},
        "expires_at": STAMP,
        "last_used_at": STAMP,
        "revoked_at": STAMP,
    },
}
NEW_USER: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name"],
    "properties": {
        "name": NAME,
        "rights": {"type": "array", "maxItems": 100, "items": GRANT},
        "groups": {
            "type": "array",
            "maxItems": 100,
            "items": {"type": "string", "minLength": 1, "maxLength": 64},
        },
        "password": {"type": "string", "minLength": 1, "maxLength": 1024},
        "email": {"type": "string", "minLength": 3, "maxLength": MAX_EMAIL},
        "locale": {"type": "string", "enum": list(LOCALES)},
    },
}
RIGHTS_BODY: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["rights"],
    "properties": {"rights": {"type": "array", "minItems": 1, "maxItems": 100, "items": GRANT}},
}
NEW_TOKEN: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["user"],
    "properties": {
        "user": NAME,
        "expires_in_days": {"type": "integer", "minimum": 1, "maximum": MAX_TOKEN_LIFETIME.days},
    },
}
# AccountRefused codes and the status each answers with.
_STATUS = {
    "user_unknown": 404,
    "user_exists": 409,
    "user_name_taken": 409,
    "grant_not_held": 404,
    "right_unknown": 422,
    "grant_flow_invalid": 422,
    "grant_flow_unknown": 422,
    "grant_server_invalid": 422,
    "user_name_invalid": 422,
    "user_name_reserved": 422,
    "user_email_invalid": 422,
    "token_expiry_invalid": 422,
}


def _refused(refused: AccountRefused) -> ApiError:
    status = _STATUS.get(refused.code, 422)
    return ApiError(status, code=refused.code, detail={"code": refused.code}, **refused.params)


def _grants(texts: list[str]) -> list[Grant]:
    try:
        return [Grant.parse(text) for text in texts]
    except AccountRefused as refused:
        raise _refused(refused) from None


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()


def _user_json(user: rights.UserEntry) -> dict[str, Any]:
    return {
        "name": user.name,
        "rights": user.rights,
        "groups": user.groups,
        "created_at": _iso(user.created_at),
    }


@endpoint(
    "GET",
    "/api/users",
    summary="Users with their rights and groups, by name (admin)",
    tag="people",
    query={"after": {"type": "string", "maxLength": 64}, "limit": LIMIT},
    responses={
        200: {
            "type": "object",
            "required": ["users", "next"],
            "properties": {"users": {"type": "array", "items": USER}, "next": {"type": ["string", "null"]}},
        },
        403: None,
    },
)
async def list_users(call: Call) -> Response:
    await require(call, "admin")
    limit = call.query.get("limit", 100)
    users = await rights.list_users(call.conn, call.query.get("after"), limit + 1)
    page = users[:limit]
    return reply(
        {"users": [_user_json(u) for u in page], "next": page[-1].name if len(users) > limit else None}
    )


@endpoint(
    "POST",
    "/api/users",
    summary="Create a user with rights, groups, an optional password, e-mail address and language (admin)",
    tag="people",
    body=NEW_USER,
    responses={201: USER, 403: None, 409: None, 422: None},
)
async def create_user(call: Call) -> Response:
    await require(call, "admin")
    body = call.body
    grants = _grants(body.get("rights", []))
    password = body.get("password")
    # argon2 takes a tenth of a second of CPU: never on the event loop.
    hashed = await asyncio.to_thread(hash_password, password) if password else None
    try:
        await add_user(
            call.conn,
            body["name"],
            grants=grants,
            groups=body.get("groups", []),
            password_hash=hashed,
            actor=call.me.name,
            email=body.get("email"),
            locale=body.get("locale"),
        )
    except AccountRefused as refused:
        raise _refused(refused) from None
    created = _user_json(await rights.user_entry(call.conn, body["name"]))
    return reply({**created, "email": body.get("email"), "locale": body.get("locale")}, 201)


@endpoint(
    "POST",
    "/api/users/{name}/rights",
    summary="Grant a user rights: RIGHT, RIGHT:FLOW or use_server:SERVER (admin)",
    tag="people",
    body=RIGHTS_BODY,
    responses={200: USER, 403: None, 404: None, 422: None},
)
async def grant_rights(call: Call) -> Response:
    await require(call, "admin")
    name = call.request.path_params["name"]
    try:
        await rights.grant(call.conn, name, _grants(call.body["rights"]), call.me.name)
    except AccountRefused as refused:
        raise _refused(refused) from None
    return reply(_user_json(await rights.user_entry(call.conn, name)))


@endpoint(
    "DELETE",
    "/api/users/{name}/rights/{right}",
    summary="Revoke one of a user's rights (admin)",
    tag="people",
    responses={200: USER, 403: None, 404: None, 422: None},
)
async def revoke_right(call: Call) -> Response:
    await require(call, "admin")
    name, text = call.request.path_params["name"], call.request.path_params["right"]
    [grant] = _grants([text])
    try:
        if not await rights.revoke(call.conn, name, grant, call.me.name):
            raise ApiError(404, code="grant_not_held", name=name, right=str(grant))
    except AccountRefused as refused:
        raise _refused(refused) from None
    return reply(_user_json(await rights.user_entry(call.conn, name)))


@endpoint(
    "DELETE",
    "/api/users/{name}",
    summary="Remove a user with its rights, groups, tokens and sessions (admin)",
    tag="people",
    responses={204: None, 403: None, 404: None, 409: None},
)
async def remove_user(call: Call) -> Response:
    await require(call, "admin")
    name = call.request.path_params["name"]
    if name == call.me.name:
        raise ApiError(409, code="user_is_you", name=name)
    if not await rights.remove_user(call.conn, name, call.me.name):
        raise ApiError(404, code="user_unknown", name=name[:64])
    return Response(status_code=204)


def _token_json(token: rights.TokenEntry) -> dict[str, Any]:
    return {
        "id": token.id,
        "user": token.user,
        "created_at": _iso(token.created_at),
        "expires_at": _iso(token.expires_at),
        "last_used_at": _iso(token.last_used_at),
        "revoked_at": _iso(token.revoked_at),
    }


@endpoint(
    "GET",
    "/api/tokens",
    summary="Tokens (never the tokens themselves), of one user or all (admin)",
    tag="people",
    query={"user": {"type": "string", "maxLength": 64}, "after": ID, "limit": LIMIT},
    responses={
        200: {
            "type": "object",
            "required": ["tokens", "next"],
            "properties": {
                "tokens": {"type": "array", "items": TOKEN},
                "next": {"type": ["integer", "null"]},
            },
        },
        403: None,
    },
)
async def list_tokens(call: Call) -> Response:
    await require(call, "admin")
    limit = call.query.get("limit", 100)
    found = await rights.list_tokens(call.conn, call.query.get("user"), call.query.get("after"), limit + 1)
    page = found[:limit]
    return reply(
        {"tokens": [_token_json(t) for t in page], "next": page[-1].id if len(found) > limit else None}
    )


@endpoint(
    "POST",
    "/api/tokens",
    summary="A new token for a user, shown once, with an optional expiry (admin)",
    tag="people",
    body=NEW_TOKEN,
    responses={
        201: {
            "type": "object",
            "required": ["token", "user"],
            "properties": {
                "token": {"type": "string", "description": "the token itself, shown this once"},
                "user": {"type": "string"},
            },
        },
        403: None,
        404: None,
    },
)
async def new_token(call: Call) -> Response:
    await require(call, "admin")
    days = call.body.get("expires_in_days")
    try:
        token = await create_token(
            call.conn,
            call.body["user"],
            expires_in=None if days is None else timedelta(days=days),
            actor=call.me.name,
        )
    except AccountRefused as refused:
        raise _refused(refused) from None
    return reply({"token": token, "user": call.body["user"]}, 201)


@endpoint(
    "DELETE",
    "/api/tokens/{token_id:int}",
    summary="Revoke a token (admin); not the one this request carries",
    tag="people",
    responses={204: None, 403: None, 404: None, 409: None},
)
async def revoke_token(call: Call) -> Response:
    await require(call, "admin")
    token_id = call.path_id("token_id")
    _, _, carried = (call.request.headers.get("authorization") or "").partition(" ")
    if carried.strip() and await token_id_of(call.conn, carried.strip()) == token_id:
        raise ApiError(409, code="token_in_use", id=token_id)
    if not await rights.revoke_token(call.conn, token_id, call.me.name):
        raise ApiError(404, code="token_unknown", id=token_id)
    return Response(status_code=204)


TRAIL_ENTRY: dict[str, Any] = {
    "type": "object",
    "required": [
        *("id", "at", "actor", "change", "user", "right", "flow_id", "server", "token_id", "value"),
        "delegate",
    ],
    "properties": {
        "id": {"type": "integer"},
        "at": {"type": "string"},
        "actor": {"type": "string"},
        "change": {
            "enum": [
                "user_added",
                "user_removed",
                "granted",
                "revoked",
                "token_created",
                "token_revoked",
                "policy_set",
                "delegated",
                "delegation_ended",
            ]
        },
        "user": {"type": "string"},
        "right": {"type": ["string", "null"]},
        "flow_id": {"type": ["integer", "null"]},
        "server": {"type": ["string", "null"]},
        "token_id": {"type": ["integer", "null"]},
        "value": {"type": ["string", "null"], "description": "A policy's new value (policy_set)"},
        "delegate": {
            "type": ["string", "null"],
            "description": "To whom the user delegated deciding (delegated, delegation_ended)",
        },
    },
}


@endpoint(
    "GET",
    "/api/rights-trail",
    summary="Every change of a right, a user or a token, oldest first, or newest first before an id (audit)",
    tag="audit",
    query={
        "user": {"type": "string", "maxLength": 64},
        "after": ID,
        "before": ID,
        "order": {"enum": ["oldest", "newest"]},
        "limit": LIMIT,
    },
    responses={
        200: {
            "type": "object",
            "required": ["entries", "next"],
            "properties": {
                "entries": {"type": "array", "items": TRAIL_ENTRY},
                "next": {"type": ["integer", "null"]},
            },
        },
        403: None,
    },
)
async def rights_trail(call: Call) -> Response:
    await require(call, "audit")
    limit = call.query.get("limit", 100)
    newest = call.query.get("order") == "newest"
    if ("after" if newest else "before") in call.query:  # each order pages by its own mark
        raise ApiError(400, code="trail_order_mismatch")
    mark = call.query.get("before" if newest else "after")
    found = await rights.rights_trail(call.conn, call.query.get("user"), mark, limit + 1, newest=newest)
    page = found[:limit]
    entries = [
        {
            "id": e.id,
            "at": _iso(e.at),
            "actor": e.actor,
            "change": e.change,
            "user": e.user,
            "right": e.right,
            "flow_id": e.flow_id,
            "server": e.server,
            "token_id": e.token_id,
            "value": e.value,
            "delegate": e.delegate,
        }
        for e in page
    ]
    return reply({"entries": entries, "next": page[-1].id if len(found) > limit else None})
