"""The CLI's server and command-template commands, for admins.

    flowyard server add NAME --url URL --token-env VAR    (again with the same NAME: new URL and token)
    flowyard server list
    flowyard server remove NAME
    flowyard template add NAME --command TEXT
    flowyard template list
    flowyard template remove NAME

A token is read from the environment variable named, never from the command line, where `ps` and the
shell's history would show it; no command prints it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
from typing import Any

from psycopg import AsyncConnection

from backend.actions import servers
from backend.actions.failures import ActionFailure
from backend.console import refuse


def run(args: argparse.Namespace, database_url: str) -> int:
    """Carry out a `server` or `template` command; 0, or 1 with one line on stderr saying why."""
    try:
        return asyncio.run(_run(args, database_url))
    except ActionFailure as failure:
        return refuse(code=failure.code, **failure.detail)


async def _run(args: argparse.Namespace, url: str) -> int:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        if args.command == "server":
            return await _server(conn, args)
        if args.command == "template":
            return await _template(conn, args)
    raise AssertionError(args.command)


async def _server(conn: AsyncConnection[Any], args: argparse.Namespace) -> int:
    if args.action == "add":
        token = os.environ.get(args.token_env, "")
        if not token:
            raise ActionFailure(code="server_token_missing", name=args.name, var=args.token_env)
        created = await servers.save_server(conn, args.name, args.url, token, by="cli")
        print(f"{'registered' if created else 'updated'} server {args.name} at {args.url}")
        return 0
    if args.action == "list":
        listed = await servers.list_servers(conn)
        if not listed:
            print("no servers are registered")
        for server in listed:
            print(f"{server.name}\t{server.agent_url}\tsince {server.created_at:%Y-%m-%d %H:%M}")
        return 0
    if not await servers.remove_server(conn, args.name):
        raise ActionFailure(code="action_server_missing", server=args.name)
    print(f"removed server {args.name}")
    return 0


async def _template(conn: AsyncConnection[Any], args: argparse.Namespace) -> int:
    if args.action == "add":
        created = await servers.save_template(conn, args.name, args.text, by="cli")
        print(f"{'stored' if created else 'replaced'} template {args.name}")
        return 0
    if args.action == "list":
        listed = await servers.list_templates(conn)
        if not listed:
            print("no command templates are stored")
        for template in listed:
            print(f"{template.name}\t{template.command}")
        return 0
    if not await servers.remove_template(conn, args.name):
        raise ActionFailure(code="action_template_missing", template=args.name)
    print(f"removed template {args.name}")
    return 0
