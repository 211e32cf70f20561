"""The one place that builds Flowyard's processes: `serve`, `worker`, and `migrate`, which seals what the
migrations moved. Each gets its ports here (the worker: the approvals' port, the action sender, the
approval mailer, the fault points; the API: its app), so the queue knows only the ports' shapes and no
package below imports the ones above it.

Every StoreError becomes one line on stderr (a sentence from the catalogs, with its reason code) and exit
code 2: an operator reads why, not a traceback.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import socket
from dataclasses import replace
from datetime import timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.actions import ActionSender
from backend.actions.queries import late_answer_lines
from backend.actions.secret_store import SecretStore
from backend.actions.transport import listening_done
from backend.api.app import worker_of
from backend.api.worker_port import bind, metrics_port
from backend.approvals.head_signer import signing
from backend.approvals.queue_port import ApprovalsPort
from backend.approvals.retention import record_retention
from backend.console import refuse, say, warn
from backend.faults import Faults
from backend.observability.logs import configure as configure_logging
from backend.people.accounts import anyone, case_duplicates, has_right, user_exists
from backend.people.commands import speak_as_user
from backend.queue import commands as queue_commands
from backend.queue.commands import open_pool
from backend.settings import Settings, hand_down
from backend.store.database import connect, database_url
from backend.store.errors import StoreError
from backend.store.migrations import Migration, migrate


def _migrate_and_seal(url: str, settings: Settings) -> list[Migration]:
    """Apply the migrations, then seal the server tokens migration 0008 moved in the clear, and record
    the approvals' retention (FLOWYARD_APPROVAL_RETENTION_DAYS) when it changed and the role may.

    The sealing needs the secret key, which SQL does not have; both `migrate` and `serve` do it, so that
    `make run` leaves no token in the clear.
    """
    with connect(url) as conn:
        done = migrate(conn)
        SecretStore.from_settings(settings.actions).seal_moved_tokens(conn)
        # The approvals' retention, as the schema's owner records it: the trail's trigger trusts no other.
        if not record_retention(conn, settings.approval_retention):
            warn(code="approval_retention_unrecorded")
        # Names that differ only by case from before they were one name: said each time, never merged.
        for duplicate in case_duplicates(conn):
            warn(code="user_name_case_duplicate", name=duplicate.name, user=duplicate.kept_by)
    return done


def migrate_command(args: argparse.Namespace) -> int:
    url = database_url(args.settings)
    done = _migrate_and_seal(url, args.settings)
    for migration in done:
        say(code="cli_migration_applied", migration=f"{migration.number:04d}_{migration.name}")
    if done:
        say(code="cli_migrations_applied", count=len(done))
    else:
        say(code="cli_database_up_to_date")
    return 0


def serve_command(args: argparse.Namespace) -> int:
    from backend.api.serving import serve

    if args.workers < 1:
        raise StoreError(code="serve_workers_invalid", given=args.workers)
    config: Settings = args.settings
    configure_logging(config.log_format, config.log_level)
    url = database_url(config)
    _migrate_and_seal(url, config)
    if not asyncio.run(_anyone(url)):
        # Nobody can log in or hold a token yet; the terminal is the only way in, and this says how.
        say(code="first_admin_missing")
    host = args.host or config.host
    # `--port 0`: a port the system picks as it binds, free by definition; the banner names it.
    wanted = config.port if args.port is None else args.port
    # Bound before the banner: whoever reads "serving" can connect at once (the kernel queues it).
    listener = socket.create_server((host, wanted))
    # Accepted connections inherit this; without it a keep-alive client waits out Nagle and delayed
    # ACKs (40 ms) between a response's head and its body.
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    port = bound_port(listener)
    say(code="cli_serving", url=f"http://{host}:{port}")
    # Links in approvers' mails point here unless a proxy's address is configured.
    if config.given_base_url is None:
        config = replace(config, given_base_url=f"http://{host}:{port}")
        hand_down(FLOWYARD_BASE_URL=config.base_url)  # to `--workers N`'s children
    serve(listener, url, config, run_worker=not args.no_worker, processes=args.workers)
    return 0


def bound_port(listener: socket.socket) -> int:
    """The port `listener` is bound to: the one asked for, or the one the system picked for port 0."""
    return int(listener.getsockname()[1])


async def may_start(conn: AsyncConnection[Any], name: str, flow_id: int) -> str | None:
    """Whether `name` may start runs of the flow from the terminal: the user exists and holds the run right
    on it (as the API asks of whoever starts a run there). When they may, the command goes on in their
    language and time zone."""
    code = None
    if not await user_exists(conn, name):
        code = "user_unknown"
    elif not await has_right(conn, name, "run", flow_id):
        code = "run_right_missing"
    else:
        await speak_as_user(conn, name)
    return code


def run_command(args: argparse.Namespace, url: str) -> int:
    """`flowyard run FLOW_ID [--as NAME]`: the queue's command, given who may start runs as whom."""
    return queue_commands.run_command(args, url, may_start)


def runs_command(args: argparse.Namespace, url: str) -> int:
    """`flowyard runs show|resume|end`: the queue's command, given the approvals it reads and closes and
    the actions' late answers `show` says under a run's state."""
    return queue_commands.runs_command(args, url, ApprovalsPort(), late_answer_lines)


async def _anyone(url: str) -> bool:
    async with await AsyncConnection.connect(url) as conn:
        return await anyone(conn)


def worker_command(args: argparse.Namespace, url: str) -> int:
    lease = timedelta(seconds=args.lease)
    try:
        # `--metrics-port 0`: a port the system picks, named on the line after the banner.
        metrics = None if args.metrics_port is None else bind(args.metrics_host, args.metrics_port)
    except OSError as exc:
        return refuse(
            code="metrics_port_unavailable", exit_code=2, port=args.metrics_port, reason=exc.strerror
        )
    faults = (args.fault_point, args.fault_poison_run)
    return asyncio.run(run_worker(url, args.settings, args.concurrency, lease, faults, metrics))


async def run_worker(
    url: str,
    settings: Settings,
    concurrency: int,
    lease: timedelta,
    faults_armed: tuple[str | None, int | None],
    metrics: socket.socket | None = None,
) -> int:
    configure_logging(settings.log_format, settings.log_level)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    pool = open_pool(url, size=concurrency + 3)
    await pool.open()
    try:
        faults = Faults(*faults_armed)
        actions = ActionSender(pool, settings.actions, faults=faults)
        worker = worker_of(
            pool, settings, concurrency=concurrency, actions=actions, lease=lease, faults=faults
        )
        say(code="cli_worker_serving", worker=worker.name, concurrency=concurrency)
        if metrics is not None:
            host = metrics.getsockname()[0]
            url = f"http://{host}:{bound_port(metrics)}/metrics"
            say(code="cli_worker_metrics", worker=worker.name, url=url)
        async with (
            metrics_port(pool, metrics, settings.metrics_token, settings.metrics_dir),
            signing(pool, settings),
        ):
            await worker.run(stop)
        await listening_done()  # answers given up at their timeout, still listened to: kept, then gone
    finally:
        await pool.close()
    return 0
