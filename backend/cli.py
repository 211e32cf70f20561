"""`flowyard`: the one command-line entry point.

Every subcommand's handler imports what it needs when it runs, so that `flowyard check` never loads the
database driver and `flowyard --help` is instant.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


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

    from backend.actions.commands import add_parser as add_action_parsers
    from backend.people.commands import add_parsers as add_people_parsers

    add_people_parsers(sub)
    add_action_parsers(sub)

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
