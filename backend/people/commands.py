"""`flowyard user add` and `flowyard token create`: the admin's first tools, before the API has users."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

from psycopg import AsyncConnection

from backend.console import refuse
from backend.people.accounts import AccountRefused, Grant, add_user, create_token


async def _run(args: argparse.Namespace, url: str) -> int:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        if args.command == "user":
            grants = [Grant.parse(text) for text in args.grant]
            password = os.environ.get(args.password_env) if args.password_env else None
            if args.password_env and not password:
                raise AccountRefused(code="password_env_empty", var=args.password_env)
            await add_user(
                conn, args.name, grants=grants, groups=args.group, password=password, email=args.email
            )
            rights = ", ".join(text for text in args.grant) or "no rights"
            print(f"added user {args.name} ({rights})")
            return 0
        token = await create_token(conn, args.name)
        print(token)
        print(f"This token acts as {args.name}. It is shown once; store it now.", file=sys.stderr)
        return 0


def run_people_command(args: argparse.Namespace, url: str) -> int:
    try:
        return asyncio.run(_run(args, url))
    except AccountRefused as refused:
        return refuse(code=refused.code, **refused.params)
