"""`flowyard user ...` and `flowyard token ...`: the admin's tools at the database, before and beside the API.

    flowyard user add NAME [--grant RIGHT[:FLOW]] [--group G] [--password-env VAR]
    flowyard user list
    flowyard user grant NAME RIGHT[:FLOW]...     (use_server:SERVER too)
    flowyard user revoke NAME RIGHT[:FLOW]
    flowyard user remove NAME
    flowyard token create NAME [--expires-in DAYS]
    flowyard token list [NAME]
    flowyard token revoke ID

Every change is on the rights trail with `cli` as its actor.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import datetime, timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.console import listed, moment, refuse, row, say, speak_as, word
from backend.people import rights
from backend.people.accounts import MAX_TOKEN_LIFETIME, AccountRefused, Grant, add_user, create_token
from backend.people.sessions import settings_of

ACTOR = "cli"
# What `--admin` grants everywhere. Deciding is a right of its own, never part of being an administrator.
ADMIN_RIGHTS = ("admin", "edit", "run", "audit")


async def _user(conn: AsyncConnection[object], args: argparse.Namespace) -> int:
    if args.action == "add":
        grants = [Grant.parse(text) for text in [*(ADMIN_RIGHTS if args.admin else ()), *args.grant]]
        password = args.variables.get(args.password_env) if args.password_env else None
        if args.password_env and not password:
            raise AccountRefused(code="password_env_empty", var=args.password_env)
        await add_user(
            conn,
            args.name,
            grants=grants,
            groups=args.group,
            password=password,
            actor=ACTOR,
            email=args.email,
        )
        if grants:
            say(code="cli_user_added", name=args.name, rights=listed([str(grant) for grant in grants]))
        else:
            say(code="cli_user_added_without_rights", name=args.name)
        return 0
    if args.action == "list":
        after: str | None = None
        while page := await rights.list_users(conn, after):
            for user in page:
                row(user.name, " ".join(user.rights) or "-", " ".join(user.groups) or "-")
            after = page[-1].name
        if after is None:
            say(code="cli_no_users")
        return 0
    if args.action == "remove":
        if not await rights.remove_user(conn, args.name, ACTOR):
            raise AccountRefused(code="user_unknown", name=args.name)
        say(code="cli_user_removed", name=args.name)
        return 0
    grants = [Grant.parse(text) for text in args.rights]
    if args.action == "grant":
        await rights.grant(conn, args.name, grants, ACTOR)
        say(code="cli_rights_granted", name=args.name, rights=listed([str(grant) for grant in grants]))
        return 0
    for grant in grants:
        if not await rights.revoke(conn, args.name, grant, ACTOR):
            raise AccountRefused(code="grant_not_held", name=args.name, right=str(grant))
        say(code="cli_right_revoked", name=args.name, right=str(grant))
    return 0


async def _token(conn: AsyncConnection[object], args: argparse.Namespace) -> int:
    if args.action == "create":
        if args.expires_in is not None and not 0 < args.expires_in <= MAX_TOKEN_LIFETIME.days:
            raise AccountRefused(code="token_expiry_invalid", limit=MAX_TOKEN_LIFETIME.days)
        expires_in = None if args.expires_in is None else timedelta(days=args.expires_in)
        token = await create_token(conn, args.name, expires_in=expires_in, actor=ACTOR)
        print(token)  # alone on stdout, for a script to take
        say(code="cli_token_created", name=args.name, stream=sys.stderr)
        return 0
    if args.action == "list":
        after: int | None = None
        while page := await rights.list_tokens(conn, args.name, after):
            for entry in page:
                state = _token_state(entry.revoked_at, entry.expires_at)
                ends, used = _when(entry.revoked_at or entry.expires_at), _when(entry.last_used_at)
                row(str(entry.id), entry.user, moment(entry.created_at), state, ends, used)
            after = page[-1].id
        if after is None and args.name is None:
            say(code="cli_no_tokens")
        elif after is None:
            say(code="cli_no_tokens_of", name=args.name)
        return 0
    if not await rights.revoke_token(conn, args.id, ACTOR):
        raise AccountRefused(code="token_unknown", id=args.id)
    say(code="cli_token_revoked", id=args.id)
    return 0


def _token_state(revoked_at: datetime | None, expires_at: datetime | None) -> str:
    """A token's state as a word of the listing: revoked, expires (at the date beside it), or live."""
    if revoked_at is not None:
        return word(code="cli_token_state_revoked")
    if expires_at is not None:
        return word(code="cli_token_state_expires")
    return word(code="cli_token_state_live")


def _when(at: datetime | None) -> str:
    return "-" if at is None else moment(at)


async def speak_as_user(conn: AsyncConnection[Any], name: str) -> None:
    """What a command run as `name` (`--as NAME`) prints from here on: in their language and zone."""
    settings = await settings_of(conn, name)
    speak_as(settings.locale, settings.time_zone)


async def _run(args: argparse.Namespace, url: str) -> int:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        if args.command == "user":
            return await _user(conn, args)
        return await _token(conn, args)


def run_people_command(args: argparse.Namespace, url: str) -> int:
    try:
        return asyncio.run(_run(args, url))
    except AccountRefused as refused:
        return refuse(refused)
