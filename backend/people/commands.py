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
import os
import sys
from datetime import timedelta

from psycopg import AsyncConnection

from backend.console import refuse
from backend.i18n.catalogs import message
from backend.i18n.terminal import terminal_locale
from backend.people import rights
from backend.people.accounts import MAX_TOKEN_LIFETIME, AccountRefused, Grant, add_user, create_token

ACTOR = "cli"
# What `--admin` grants everywhere. Deciding is a right of its own, never part of being an administrator.
ADMIN_RIGHTS = ("admin", "edit", "run", "audit")


async def _user(conn: AsyncConnection[object], args: argparse.Namespace) -> int:
    if args.action == "add":
        grants = [Grant.parse(text) for text in [*(ADMIN_RIGHTS if args.admin else ()), *args.grant]]
        password = os.environ.get(args.password_env) if args.password_env else None
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
        shown = ", ".join(str(grant) for grant in grants) or "-"
        print(message("cli_user_added", terminal_locale(), name=args.name, rights=shown))
        return 0
    if args.action == "list":
        after: str | None = None
        while page := await rights.list_users(conn, after):
            for user in page:
                print(f"{user.name}\t{' '.join(user.rights) or '-'}\t{' '.join(user.groups) or '-'}")
            after = page[-1].name
        return 0
    if args.action == "remove":
        if not await rights.remove_user(conn, args.name, ACTOR):
            raise AccountRefused(code="user_unknown", name=args.name)
        print(message("cli_user_removed", terminal_locale(), name=args.name))
        return 0
    grants = [Grant.parse(text) for text in args.rights]
    if args.action == "grant":
        await rights.grant(conn, args.name, grants, ACTOR)
        print(
            message(
                "cli_rights_granted", terminal_locale(), name=args.name, rights=", ".join(map(str, grants))
            )
        )
        return 0
    for grant in grants:
        if not await rights.revoke(conn, args.name, grant, ACTOR):
            raise AccountRefused(code="grant_not_held", name=args.name, right=str(grant))
        print(message("cli_right_revoked", terminal_locale(), name=args.name, right=str(grant)))
    return 0


async def _token(conn: AsyncConnection[object], args: argparse.Namespace) -> int:
    if args.action == "create":
        if args.expires_in is not None and not 0 < args.expires_in <= MAX_TOKEN_LIFETIME.days:
            raise AccountRefused(code="token_expiry_invalid", limit=MAX_TOKEN_LIFETIME.days)
        expires_in = None if args.expires_in is None else timedelta(days=args.expires_in)
        token = await create_token(conn, args.name, expires_in=expires_in, actor=ACTOR)
        print(token)
        print(message("cli_token_created", terminal_locale(), name=args.name), file=sys.stderr)
        return 0
    if args.action == "list":
        after: int | None = None
        while page := await rights.list_tokens(conn, args.name, after):
            for entry in page:
                state = "revoked" if entry.revoked_at else "expires" if entry.expires_at else "live"
                until = entry.revoked_at or entry.expires_at
                used = f"{entry.last_used_at:%Y-%m-%d %H:%M}" if entry.last_used_at else "-"
                ends = f"{until:%Y-%m-%d %H:%M}" if until else "-"
                print(f"{entry.id}\t{entry.user}\t{entry.created_at:%Y-%m-%d %H:%M}\t{state}\t{ends}\t{used}")
            after = page[-1].id
        return 0
    if not await rights.revoke_token(conn, args.id, ACTOR):
        raise AccountRefused(code="token_unknown", id=args.id)
    print(message("cli_token_revoked", terminal_locale(), id=args.id))
    return 0


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
