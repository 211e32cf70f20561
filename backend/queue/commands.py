"""The CLI's queue commands: `workers`, `run`, `runs show`; and the pool every process of the queue opens."""

from __future__ import annotations

import argparse
import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from backend.console import InputRefused, moment, read_input, refuse, say
from backend.queue import store
from backend.queue.runs import RunApprovals, RunNotes


def open_pool(url: str, *, size: int, timeout: float = 30.0) -> AsyncConnectionPool[Any]:
    """Autocommit connections: every multi-statement write says where its transaction begins and ends.
    `timeout`: how long a caller waits for a connection before PoolTimeout."""
    return AsyncConnectionPool(
        url, min_size=1, max_size=size, kwargs={"autocommit": True}, open=False, timeout=timeout
    )


# A worker that has not reported for this long is said to be silent (it beats every few seconds).
SILENT_AFTER = timedelta(seconds=30)


async def list_workers(url: str) -> int:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        workers = await store.list_workers(conn)
    if not workers:
        say(code="cli_no_workers")
    for worker in workers:
        said: dict[str, Any] = {
            "worker": worker.name,
            "started": moment(worker.started_at),
            "heartbeat": moment(worker.heartbeat_at),
            "concurrency": worker.concurrency,
        }
        if worker.silent_for < SILENT_AFTER:
            say(code="cli_worker_live", **said)
        else:  # whole seconds: a heartbeat is no finer than that
            silent = timedelta(seconds=int(worker.silent_for.total_seconds()))
            say(code="cli_worker_silent", silent=silent, **said)
    return 0


# Whether a named user may start runs of a flow: None, or the reason code that refuses it; when they may,
# the command speaks their language from then on (`console.speak_as`). The people package answers;
# backend/processes.py hands its answer in (the queue imports nothing of people).
MayStart = Callable[[AsyncConnection[Any], str, int], Awaitable[str | None]]


async def start_run_command(
    url: str,
    flow_id: int,
    input_text: str | None,
    as_user: str | None = None,
    may_start: MayStart | None = None,
) -> int:
    """`flowyard run FLOW_ID`: a run started by the operator at the terminal ("cli"), or, with `--as`, by
    that user, who must exist and hold the run right on the flow (asked in the connection that starts it)."""
    from backend.queue.runs import FlowHasNoVersion, start_run

    try:
        payload = read_input(input_text)
    except InputRefused as refused:
        return refuse(refused, exit_code=2)
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        if as_user is not None:
            assert may_start is not None, "a named starter is checked by whoever knows the users"
            refused_code = await may_start(conn, as_user, flow_id)
            if refused_code is not None:
                return refuse(code=refused_code, name=as_user, user=as_user)
        try:
            started = await start_run(
                conn, flow_id, input=payload, trigger_kind="manual", started_by=as_user or "cli"
            )
        except FlowHasNoVersion:
            return refuse(code="flow_not_found")
    say(code="cli_run_started", run=started.run_id)
    return 0


def workers_command(args: argparse.Namespace, url: str) -> int:
    return asyncio.run(list_workers(url))


def run_command(args: argparse.Namespace, url: str, may_start: MayStart) -> int:
    return asyncio.run(start_run_command(url, args.flow, args.input, args.as_user, may_start))


async def stop_command(
    url: str, action: str, run_id: int, version: int | None, approvals: RunApprovals
) -> int:
    """`flowyard runs resume|end RUN_ID`: take on a stopped run, as the operator at the terminal."""
    from backend.queue.stops import StopRefused, end_run, resume_run

    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        try:
            if action == "resume":
                resumed_on = await resume_run(conn, run_id, by="cli", version=version)
                say(code="run_resumed_on", run=run_id, version=resumed_on)
            else:
                await end_run(conn, run_id, by="cli", approvals=approvals)
                say(code="run_ended_as_failed", run=run_id)
        except StopRefused as refused:
            return refuse(code=refused.code, **refused.params)
    return 0


def runs_command(
    args: argparse.Namespace, url: str, approvals: RunApprovals, notes: RunNotes | None = None
) -> int:
    """`flowyard runs show|resume|end`, with the approvals it reads and closes and what else `show` says
    under a run's state (backend/processes.py)."""
    if args.dry_run or args.json:
        if args.action != "resume" or not args.dry_run:
            return refuse(code="runs_dry_run_only", exit_code=2)
        from backend.queue.preview_cli import preview_command

        limits, journal_bytes = args.settings.limits, args.settings.max_walk_journal_bytes
        preview = preview_command(
            url, args.run, args.version, as_json=args.json, limits=limits, journal_bytes=journal_bytes
        )
        return asyncio.run(preview)
    if args.action in ("resume", "end"):
        return asyncio.run(stop_command(url, args.action, args.run, args.version, approvals))
    from backend.queue.watch import show_run

    if notes is None:
        return asyncio.run(show_run(url, args.run, args.wait, approvals))
    return asyncio.run(show_run(url, args.run, args.wait, approvals, notes))
