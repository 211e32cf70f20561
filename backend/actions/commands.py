"""The CLI's server, command-template and secret commands, for admins.

    flowyard server add NAME --url URL --token-env VAR    (again with the same NAME: new URL and token)
    flowyard server list
    flowyard server remove NAME
    flowyard template add SERVER NAME --argv JSON [--params JSON]
    flowyard template list [--server SERVER]
    flowyard template remove SERVER NAME
    flowyard secret set NAME [--from-env VAR]             (the value from stdin unless --from-env)
    flowyard secret list
    flowyard secret remove NAME
    flowyard secret rotate                                (seal every secret again under the first key)

Tokens and secret values are read from stdin or the environment variable named, never from the command
line, where `ps` and the shell's history would show them; no command prints one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from psycopg import AsyncConnection

from backend.actions import servers
from backend.actions.failures import ActionFailure
from backend.actions.secret_store import SecretStore, check_secret_name, remove_secret, secret_names
from backend.console import moment, refuse, row, say


def run(args: argparse.Namespace, database_url: str) -> int:
    """Carry out a `server`, `template` or `secret` command; 0, or 1 with one line on stderr saying why."""
    try:
        return asyncio.run(_run(args, database_url))
    except ActionFailure as failure:
        return refuse(failure)


async def _run(args: argparse.Namespace, url: str) -> int:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        if args.command == "server":
            return await _server(conn, args)
        if args.command == "template":
            return await _template(conn, args)
        if args.command == "secret":
            return await _secret(conn, args)
    raise AssertionError(args.command)


async def _server(conn: AsyncConnection[Any], args: argparse.Namespace) -> int:
    if args.action == "add":
        token = args.variables.get(args.token_env, "")
        if not token:
            raise ActionFailure(code="server_token_missing", name=args.name, var=args.token_env)
        store = SecretStore.from_settings(args.settings.actions)
        created = await servers.save_server(conn, store, args.name, args.url, token, by="cli")
        code = "cli_server_registered" if created else "cli_server_updated"
        say(code=code, server=args.name, url=args.url)
        return 0
    if args.action == "list":
        listed = await servers.list_servers(conn)
        if not listed:
            say(code="cli_no_servers")
        for server in listed:
            row(server.name, server.agent_url, moment(server.created_at))
        return 0
    if not await servers.remove_server(conn, args.name):
        raise ActionFailure(code="action_server_missing", server=args.name)
    say(code="cli_server_removed", server=args.name)
    return 0


def _json_option(text: str, option: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise ActionFailure(code="cli_json_invalid", option=option) from None


async def _template(conn: AsyncConnection[Any], args: argparse.Namespace) -> int:
    if args.action == "add":
        argv, params = _json_option(args.argv, "--argv"), _json_option(args.params, "--params")
        created = await servers.save_template(conn, args.server, args.name, argv, params, by="cli")
        code = "cli_template_stored" if created else "cli_template_replaced"
        say(code=code, server=args.server, template=args.name)
        return 0
    if args.action == "list":
        listed = await servers.list_templates(conn, args.server)
        if not listed:
            say(code="cli_no_templates")
        for template in listed:
            argv, params = json.dumps(template.argv), json.dumps(template.params, sort_keys=True)
            row(template.server, template.name, argv, params)
        return 0
    if not await servers.remove_template(conn, args.server, args.name):
        raise ActionFailure(code="action_template_missing", template=args.name, server=args.server)
    say(code="cli_template_removed", server=args.server, template=args.name)
    return 0


def _secret_value(args: argparse.Namespace) -> str:
    """The value from the variable named, else stdin (one trailing newline dropped: `echo` adds it)."""
    if args.from_env:
        value = str(args.variables.get(args.from_env, ""))
    else:
        value = sys.stdin.read()
        value = value[:-1] if value.endswith("\n") else value
        value = value[:-1] if value.endswith("\r") else value
    if not value:
        raise ActionFailure(code="secret_value_empty", name=args.name)
    return value


async def _secret(conn: AsyncConnection[Any], args: argparse.Namespace) -> int:
    if args.action == "set":
        name = check_secret_name(args.name)
        created = await SecretStore.from_settings(args.settings.actions).put(
            conn, name, _secret_value(args), by="cli"
        )
        code = "cli_secret_stored" if created else "cli_secret_replaced"
        say(code=code, name=name)
        return 0
    if args.action == "list":
        listed = await secret_names(conn)
        if not listed:
            say(code="cli_no_secrets")
        for secret in listed:
            row(secret.name, moment(secret.updated_at), secret.updated_by or "")
        return 0
    if args.action == "rotate":
        count = await SecretStore.from_settings(args.settings.actions).rotate(conn)
        say(code="cli_secrets_rotated", count=count)
        return 0
    if not await remove_secret(conn, check_secret_name(args.name)):
        raise ActionFailure(code="secret_missing", name=args.name)
    say(code="cli_secret_removed", name=args.name)
    return 0
