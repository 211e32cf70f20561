"""`flowyard`: the one command-line entry point.

Every subcommand's handler imports what it needs when it runs, so that `flowyard check` never loads the
database driver and `flowyard --help` is instant.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="flowyard",
        description="Graph-based automation with durable approvals, delays and loops.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="serve the API (and run a worker in-process)")
    serve.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="port to listen on (default 8000)")
    serve.add_argument("--no-worker", action="store_true", help="do not run a worker in this process")

    sub.add_parser("migrate", help="apply the database migrations that are not applied yet")

    worker = sub.add_parser("worker", help="serve due waits: start, resume and finish runs")
    worker.add_argument("--concurrency", type=int, default=10, help="walks in hand at once (default 10)")
    worker.add_argument(
        "--lease",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long a claim holds without renewal before another worker may take it (default 30)",
    )
    worker.add_argument("--fault-point", default=None, help=argparse.SUPPRESS)  # fault tests only

    sub.add_parser("workers", help="list the workers that have reported, with their last heartbeat")

    run = sub.add_parser("run", help="start a run of a saved flow")
    run.add_argument("flow", type=int, metavar="FLOW_ID")
    run.add_argument("--input", default=None, metavar="JSON", help="the trigger's payload")

    flow = sub.add_parser("flow", help="save a flow file as a new flow, or as a new version of one")
    flow.add_argument("action", choices=("save",))
    flow.add_argument("file", metavar="FLOW.json")
    flow.add_argument("--flow", type=int, default=None, metavar="FLOW_ID", help="save as its next version")

    db = sub.add_parser("db", help="the embedded PostgreSQL server")
    db.add_argument("action", choices=("status", "stop", "url"), help="report, stop, or print its URL")

    _add_people_parsers(sub)
    _add_action_parsers(sub)

    check = sub.add_parser("check", help="validate a flow file (no database needed)")
    check.add_argument("flow", metavar="FLOW.json")
    check.add_argument("--json", action="store_true", help="print the findings as JSON")

    walk = sub.add_parser("walk", help="walk a flow file in memory (no database, no side effects)")
    walk.add_argument("flow", metavar="FLOW.json")
    walk.add_argument("--input", default=None, metavar="JSON", help="the trigger's payload")
    walk.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar="NODE=approve|reject|timeout",
        help="the answer to the next pause at an approval node; repeat for several",
    )
    walk.add_argument("--json", action="store_true", help="print the result as JSON")
    return parser


def _add_people_parsers(sub: Any) -> None:
    """`user` and `token`: the admin's first tools, before the API has users."""
    user = sub.add_parser("user", help="add users, with their rights and groups")
    user.add_argument("action", choices=("add",))
    user.add_argument("name")
    user.add_argument(
        "--grant",
        action="append",
        default=[],
        metavar="RIGHT[:FLOW_ID]",
        help="edit, run, decide, audit or admin; everywhere, or on one flow; repeat for several",
    )
    user.add_argument("--group", action="append", default=[], metavar="GROUP", help="a group to join")
    user.add_argument(
        "--password-env",
        default=None,
        metavar="VAR",
        help="read the password for the editor's login from this environment variable (never an argument)",
    )
    user.add_argument(
        "--email", default=None, metavar="ADDRESS", help="where mails about approvals that wait reach them"
    )
    token = sub.add_parser("token", help="tokens for programs (Authorization: Bearer)")
    token.add_argument("action", choices=("create",))
    token.add_argument("name", help="the user the token acts as")


def _add_action_parsers(subparsers: Any) -> None:
    """`server` and `template`: the agents command nodes talk to (docs/actions.md)."""
    server = subparsers.add_parser("server", help="the servers whose agents command nodes send to")
    server_actions = server.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = server_actions.add_parser("add", help="register a server, or give one a new URL and token")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--url", required=True, help="the agent's URL, which commands are POSTed to")
    add.add_argument("--token-env", required=True, metavar="VAR", help="the variable holding its token")
    server_actions.add_parser("list", help="list the servers (never their tokens)")
    remove = server_actions.add_parser("remove", help="forget a server")
    remove.add_argument("name", metavar="NAME")

    template = subparsers.add_parser("template", help="commands admins vetted, by name")
    template_actions = template.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = template_actions.add_parser("add", help="store a command template, or replace one's command")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--command", required=True, dest="text", help="the command the agent runs")
    template_actions.add_parser("list", help="list the command templates")
    remove = template_actions.add_parser("remove", help="forget a command template")
    remove.add_argument("name", metavar="NAME")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "check":
        from backend.graph.cli import run_check

        return run_check(args.flow, as_json=args.json)
    if args.command == "walk":
        from backend.walker.cli import run_walk

        return run_walk(args.flow, input_text=args.input, answers=args.answer, as_json=args.json)

    from backend.store.commands import run_store_command

    return run_store_command(args)


if __name__ == "__main__":
    sys.exit(main())
