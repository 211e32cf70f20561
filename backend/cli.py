"""`flowyard`: the one command-line entry point, and the one place each command is wired.

Each command is registered once, with `set_defaults(func=...)`: a handler named `module:function` that is
imported only when its command runs, so that `flowyard check` never loads the database driver and
`flowyard --help` is instant. A handler that needs the database gets its URL, the schema migrated first;
`serve`, `worker` and `migrate` are built in backend/processes.py, the one place that wires a process.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

Handler = Callable[[argparse.Namespace], int]


def _command(target: str, *, database: bool = True) -> Handler:
    """The handler `module:function` of one command, imported when it runs; with `database`, it is
    called as `function(args, url)` once the schema is migrated, else as `function(args)`."""

    def handle(args: argparse.Namespace) -> int:
        from backend.actions.failures import ActionFailure
        from backend.console import refuse
        from backend.store.errors import StoreError

        module, _, name = target.partition(":")
        function = getattr(importlib.import_module(module), name)
        try:
            if not database:
                return int(function(args))
            return int(function(args, _migrated_url()))
        except StoreError as exc:
            return refuse(exc, exit_code=2)
        except ActionFailure as failure:  # the secret key: missing from the data folder, open to others
            return refuse(failure, exit_code=2)

    return handle


def _offline(target: str) -> Handler:
    """A command that needs no database (`check`, `walk`): its handler, imported when it runs."""

    def handle(args: argparse.Namespace) -> int:
        module, _, name = target.partition(":")
        return int(getattr(importlib.import_module(module), name)(args))

    return handle


def _migrated_url() -> str:
    from backend.config import settings
    from backend.store.database import connect, database_url
    from backend.store.migrations import migrate

    url = database_url(settings())
    with connect(url) as conn:
        migrate(conn)
    return url


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="flowyard",
        description="Graph-based automation with durable approvals, delays and loops.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = sub.add_parser("serve", help="serve the API (and run a worker in-process)")
    serve.set_defaults(func=_command("backend.processes:serve_command", database=False))
    serve.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=None, help="port to listen on (default 8000)")
    serve.add_argument("--no-worker", action="store_true", help="do not run a worker in this process")
    serve.add_argument(
        "--workers", type=int, default=1, metavar="N", help="API processes on one port (default 1)"
    )

    migrate = sub.add_parser("migrate", help="apply the database migrations that are not applied yet")
    migrate.set_defaults(func=_command("backend.processes:migrate_command", database=False))

    worker = sub.add_parser("worker", help="serve due waits: start, resume and finish runs")
    worker.set_defaults(func=_command("backend.processes:worker_command"))
    worker.add_argument("--concurrency", type=int, default=10, help="walks in hand at once (default 10)")
    worker.add_argument(
        "--lease",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long a claim holds without renewal before another worker may take it (default 30)",
    )
    worker.add_argument(
        "--metrics-port", type=int, default=None, metavar="PORT", help="serve this worker's /metrics on PORT"
    )
    worker.add_argument(
        "--metrics-host",
        default="127.0.0.1",
        metavar="HOST",
        help="address of --metrics-port (default 127.0.0.1)",
    )
    worker.add_argument("--fault-point", default=None, help=argparse.SUPPRESS)  # fault tests only

    workers = sub.add_parser("workers", help="list the workers that have reported, with their last heartbeat")
    workers.set_defaults(func=_command("backend.queue.commands:workers_command"))

    run = sub.add_parser("run", help="start a run of a saved flow")
    run.set_defaults(func=_command("backend.queue.commands:run_command"))
    run.add_argument("flow", type=int, metavar="FLOW_ID")
    run.add_argument("--input", default=None, metavar="JSON", help="the trigger's payload")

    flow = sub.add_parser("flow", help="save a flow file as a new flow, or as a new version of one")
    flow.set_defaults(func=_command("backend.flows.commands:flow_command"))
    flow.add_argument("action", choices=("save",))
    flow.add_argument("file", metavar="FLOW.json")
    flow.add_argument("--flow", type=int, default=None, metavar="FLOW_ID", help="save as its next version")

    db = sub.add_parser("db", help="the embedded PostgreSQL server")
    db.set_defaults(func=_command("backend.store.commands:db_command", database=False))
    db.add_argument("action", choices=("status", "stop", "url"), help="report, stop, or print its URL")

    runs = sub.add_parser("runs", help="where a run stands; resume or end a stopped run")
    runs.set_defaults(func=_command("backend.processes:runs_command"))
    runs.add_argument("action", choices=("show", "resume", "end"))
    runs.add_argument("run", type=int, metavar="RUN_ID")
    runs.add_argument(
        "--wait",
        type=float,
        default=None,
        metavar="SECONDS",
        help="wait up to SECONDS until the run has ended or waits for a person or a time",
    )
    runs.add_argument(
        "--version", type=int, default=None, metavar="N", help="resume on version N of the run's flow"
    )

    _add_people_parsers(sub)
    _add_approvals_parsers(sub)
    _add_audit_parsers(sub)
    _add_action_parsers(sub)

    check = sub.add_parser("check", help="validate a flow file (no database needed)")
    check.set_defaults(func=_offline("backend.graph.cli:check_command"))
    check.add_argument("flow", metavar="FLOW.json")
    check.add_argument("--json", action="store_true", help="print the findings as JSON")

    walk = sub.add_parser("walk", help="walk a flow file in memory (no database, no side effects)")
    walk.set_defaults(func=_offline("backend.walker.cli:walk_command"))
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
    """`user` and `token`: the admin's tools at the database, before and beside the API."""
    user = sub.add_parser("user", help="users, their rights and groups")
    user.set_defaults(func=_command("backend.people.commands:run_people_command"))
    user_actions = user.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = user_actions.add_parser("add", help="add a user with rights and groups")
    add.add_argument("name")
    add.add_argument(
        "--grant",
        action="append",
        default=[],
        metavar="RIGHT[:FLOW_ID]",
        help="edit, run, decide, audit or admin, everywhere or on one flow, or use_server:SERVER; repeat",
    )
    add.add_argument("--group", action="append", default=[], metavar="GROUP", help="a group to join")
    add.add_argument(
        "--admin",
        action="store_true",
        help="an administrator: admin, edit, run and audit everywhere (never decide: grant it apart)",
    )
    add.add_argument(
        "--password-env",
        default=None,
        metavar="VAR",
        help="read the password for the editor's login from this environment variable (never an argument)",
    )
    add.add_argument(
        "--email", default=None, metavar="ADDRESS", help="where mails about approvals that wait reach them"
    )
    user_actions.add_parser("list", help="list the users with their rights and groups")
    for action, text in (("grant", "give a user rights"), ("revoke", "take rights away from a user")):
        change = user_actions.add_parser(action, help=text)
        change.add_argument("name")
        change.add_argument("rights", nargs="+", metavar="RIGHT[:FLOW_ID]")
    remove = user_actions.add_parser("remove", help="remove a user with its rights, groups and tokens")
    remove.add_argument("name")

    token = sub.add_parser("token", help="tokens for programs (Authorization: Bearer)")
    token.set_defaults(func=_command("backend.people.commands:run_people_command"))
    token_actions = token.add_subparsers(dest="action", required=True, metavar="ACTION")
    create = token_actions.add_parser("create", help="a new token, shown once")
    create.add_argument("name", help="the user the token acts as")
    create.add_argument(
        "--expires-in", type=int, default=None, metavar="DAYS", help="the token stops working after this"
    )
    listing = token_actions.add_parser("list", help="list tokens (never the tokens themselves)")
    listing.add_argument("name", nargs="?", default=None, help="of this user only")
    revoke = token_actions.add_parser("revoke", help="revoke a token by its id")
    revoke.add_argument("id", type=int)


def _add_approvals_parsers(subparsers: Any) -> None:
    """`approvals list|decide`: the approver without a browser, under the API's rules."""
    approvals = subparsers.add_parser("approvals", help="open approvals, and decisions from the terminal")
    approvals.set_defaults(func=_command("backend.approvals.commands:run_approvals_command"))
    actions = approvals.add_subparsers(dest="action", required=True, metavar="ACTION")
    listing = actions.add_parser("list", help="the open approvals, oldest first; --as: those NAME may decide")
    listing.add_argument("--as", dest="as_user", default=None, metavar="NAME", help="whose inbox")
    listing.add_argument("--after", default=None, metavar="CURSOR", help="the next page, as printed")
    decide = actions.add_parser("decide", help="approve or reject; the first decision wins")
    decide.add_argument("id", type=int, metavar="ID")
    decide.add_argument("outcome", choices=("approve", "reject"))
    decide.add_argument("--comment", default=None, help="why, kept with the decision")
    decide.add_argument(
        "--as", dest="as_user", required=True, metavar="NAME", help="who decides, with their rights"
    )


def _add_audit_parsers(subparsers: Any) -> None:
    """`audit verify`: the chained trail, checked in the database or in an export (docs/approvals.md)."""
    audit = subparsers.add_parser("audit", help="the chained trail of decisions, votes and rights changes")
    actions = audit.add_subparsers(dest="action", required=True, metavar="ACTION")
    check = actions.add_parser("verify", help="prove nothing was changed, removed or inserted")
    check.add_argument("--flow", type=int, default=None, metavar="ID", help="only this flow's chain")
    check.add_argument("--file", default=None, metavar="EXPORT", help="an export of the chain, offline")
    check.add_argument("--json", action="store_true", help="print the verdict as JSON")
    check.set_defaults(func=_audit)


def _audit(args: argparse.Namespace) -> int:
    """An export is verified offline (no database); else the database's chains."""
    if args.file is not None:
        return _offline("backend.approvals.chain_commands:run_offline_verify")(args)
    return _command("backend.approvals.chain_commands:run_audit_command")(args)


def _add_action_parsers(subparsers: Any) -> None:
    """`server`, `template` and `secret`: the agents command nodes talk to, and the secret store."""
    server = subparsers.add_parser("server", help="the servers whose agents command nodes send to")
    server.set_defaults(func=_command("backend.actions.commands:run"))
    server_actions = server.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = server_actions.add_parser("add", help="register a server, or give one a new URL and token")
    add.add_argument("name", metavar="NAME")
    add.add_argument("--url", required=True, help="the agent's URL, which commands are POSTed to")
    add.add_argument("--token-env", required=True, metavar="VAR", help="the variable holding its token")
    server_actions.add_parser("list", help="list the servers (never their tokens)")
    remove = server_actions.add_parser("remove", help="forget a server")
    remove.add_argument("name", metavar="NAME")

    template = subparsers.add_parser("template", help="the argv templates admins registered per server")
    template.set_defaults(func=_command("backend.actions.commands:run"))
    template_actions = template.add_subparsers(dest="action", required=True, metavar="ACTION")
    add = template_actions.add_parser("add", help="register a server's template, or replace one")
    add.add_argument("server", metavar="SERVER")
    add.add_argument("name", metavar="NAME")
    add.add_argument(
        "--argv",
        required=True,
        metavar="JSON",
        help='the argument vector, {param} where an argument goes: \'["systemctl", "restart", "{unit}"]\'',
    )
    add.add_argument(
        "--params",
        default="{}",
        metavar="JSON",
        help='each parameter\'s type: \'{"unit": {"type": "string", "pattern": "^[a-z.-]+$"}}\'',
    )
    listing = template_actions.add_parser("list", help="list the templates")
    listing.add_argument("--server", default=None, metavar="SERVER", help="of this server only")
    remove = template_actions.add_parser("remove", help="forget a server's template")
    remove.add_argument("server", metavar="SERVER")
    remove.add_argument("name", metavar="NAME")

    secret = subparsers.add_parser("secret", help="the secret store: {{secrets.NAME}} in action configs")
    secret.set_defaults(func=_command("backend.actions.commands:run"))
    secret_actions = secret.add_subparsers(dest="action", required=True, metavar="ACTION")
    put = secret_actions.add_parser("set", help="store a secret (the value from stdin), or replace one")
    put.add_argument("name", metavar="NAME")
    put.add_argument("--from-env", default=None, metavar="VAR", help="read the value from this variable")
    secret_actions.add_parser("list", help="list the secrets' names (never a value)")
    remove = secret_actions.add_parser("remove", help="forget a secret")
    remove.add_argument("name", metavar="NAME")
    secret_actions.add_parser("rotate", help="seal every secret again under the first key")


# The crash tests' commit counter (backend/store/commits.py): armed only when the environment asks.
_CRASH_SETTINGS = {"FLOWYARD_CRASH_AFTER_COMMIT", "FLOWYARD_CRASH_BEFORE_COMMIT", "FLOWYARD_COUNT_COMMITS"}


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    handler: Handler = args.func
    if _CRASH_SETTINGS & os.environ.keys():
        from backend.console import refuse
        from backend.store.commits import arm_from_environment
        from backend.store.errors import StoreError

        try:
            arm_from_environment()
        except StoreError as error:
            return refuse(error, exit_code=2)
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
