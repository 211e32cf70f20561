"""The CLI's queue commands: `worker`, `workers`, `run`, and `flow save`."""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import socket
from datetime import UTC, datetime, timedelta
from typing import Any

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

from backend.config import settings
from backend.console import refuse
from backend.observability.logs import configure as configure_logging
from backend.observability.worker_port import bind, metrics_port
from backend.queue.faults import Faults
from backend.queue.queries import QUERIES
from backend.queue.sweep import approval_retention_from_env, retention_from_env
from backend.queue.worker import Worker


def open_pool(url: str, *, size: int) -> AsyncConnectionPool[Any]:
    """Autocommit connections: every multi-statement write says where its transaction begins and ends."""
    return AsyncConnectionPool(url, min_size=1, max_size=size, kwargs={"autocommit": True}, open=False)


async def run_worker(
    url: str,
    concurrency: int,
    lease: timedelta,
    fault_point: str | None,
    metrics: socket.socket | None = None,
) -> int:
    configure_logging()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    pool = open_pool(url, size=concurrency + 3)
    await pool.open()
    try:
        from backend.actions import ActionSender, ActionSettings
        from backend.approvals.mail import approval_mailer

        faults = Faults(fault_point)
        worker = Worker(
            pool,
            concurrency=concurrency,
            lease=lease,
            faults=faults,
            retention=retention_from_env(),
            approval_retention=approval_retention_from_env(),
            actions=ActionSender(pool, ActionSettings.from_env(), faults=faults),
            outbox=approval_mailer(pool),
        )
        print(f"worker {worker.name} is serving due waits (concurrency {concurrency})", flush=True)
        async with metrics_port(pool, metrics):
            await worker.run(stop)
    finally:
        await pool.close()
    return 0


async def list_workers(url: str) -> int:
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        rows = await (await conn.execute(QUERIES["list_workers"])).fetchall()
    if not rows:
        print("no workers have reported")
    for name, started_at, heartbeat_at, concurrency, silent_for in rows:
        state = (
            "live" if silent_for.total_seconds() < 30 else f"silent for {int(silent_for.total_seconds())} s"
        )
        print(
            f"{name}\tstarted {started_at:%Y-%m-%d %H:%M:%S%z}\tlast heartbeat {heartbeat_at:%H:%M:%S}\t"
            f"concurrency {concurrency}\t{state}"
        )
    return 0


async def start_run_command(url: str, flow_id: int, input_text: str | None) -> int:
    from backend.queue.runs import FlowHasNoVersion, start_run

    try:
        payload = json.loads(input_text) if input_text is not None else None
    except json.JSONDecodeError as exc:
        reason = f"{exc.msg} at line {exc.lineno} column {exc.colno}"
        return refuse(code="walk_input_invalid", exit_code=2, reason=reason)
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        try:
            started = await start_run(conn, flow_id, input=payload, trigger_kind="manual", started_by="cli")
        except FlowHasNoVersion:
            return refuse(code="flow_not_found")
    print(f"started run {started.run_id}")
    return 0


async def save_flow_command(url: str, path: str, flow_id: int | None) -> int:
    """Validate a flow file and save it; with findings, print them as `check` does and save nothing."""
    from backend.actions.command_rights import CommandRefused
    from backend.flows.store import create_flow, save_version
    from backend.graph import validate
    from backend.graph.cli import FlowFileUnreadable, print_findings, read_flow_file
    from backend.queue.schedules import ScheduleInvalid

    try:
        document = read_flow_file(path)
    except FlowFileUnreadable as unreadable:
        return refuse(code=unreadable.code, exit_code=2, path=path, **unreadable.params)
    findings = validate(document, limit=settings().max_findings, now=datetime.now(UTC))
    if findings:
        print_findings(path, findings, as_json=False)
        return 1
    assert isinstance(document, dict)
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        try:
            if flow_id is None:
                flow_id, version = await create_flow(conn, document, by="cli"), 1
            else:
                version = await save_version(conn, flow_id, document, by="cli")
        except ScheduleInvalid as invalid:
            return refuse(code=invalid.code)
        except CommandRefused as refused:
            return refuse(code=refused.code, **refused.params)
        except LookupError:
            return refuse(code="flow_not_found")
    print(f"saved flow {flow_id} version {version}")
    return 0


def run_queue_command(args: argparse.Namespace, url: str) -> int:
    if args.command == "worker":
        lease = timedelta(seconds=args.lease)
        try:
            metrics = bind(args.metrics_host, args.metrics_port) if args.metrics_port else None
        except OSError as exc:
            return refuse(
                code="metrics_port_unavailable", exit_code=2, port=args.metrics_port, reason=exc.strerror
            )
        return asyncio.run(run_worker(url, args.concurrency, lease, args.fault_point, metrics))
    if args.command == "workers":
        return asyncio.run(list_workers(url))
    if args.command == "run":
        return asyncio.run(start_run_command(url, args.flow, args.input))
    if args.command == "flow":
        return asyncio.run(save_flow_command(url, args.file, args.flow))
    if args.command == "runs":
        from backend.queue.watch import show_run

        return asyncio.run(show_run(url, args.run, args.wait))
    if args.command == "approvals":
        from backend.approvals.commands import run_approvals_command

        return run_approvals_command(args, url)
    if args.command == "audit":
        from backend.approvals.chain_commands import run_audit_command

        return run_audit_command(args, url)
    if args.command in ("user", "token"):
        from backend.people.commands import run_people_command

        return run_people_command(args, url)
    if args.command in ("server", "template", "secret"):
        from backend.actions.commands import run as run_action_command

        return run_action_command(args, url)
    raise AssertionError(args.command)
