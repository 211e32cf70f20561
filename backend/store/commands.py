"""The CLI's commands that need a database: `migrate`, `serve`, `db`.

Every StoreError becomes one line on stderr (a sentence from the catalogs, with its reason code) and exit
code 2: an operator reads why, not a traceback.
"""

from __future__ import annotations

import argparse
import os
import socket

from backend.actions.failures import ActionFailure
from backend.config import settings
from backend.console import refuse
from backend.i18n.catalogs import message
from backend.observability.logs import configure as configure_logging
from backend.store import embedded
from backend.store.database import connect, database_url
from backend.store.errors import StoreError
from backend.store.migrations import Migration, migrate
from backend.store.queries import load


def run_store_command(args: argparse.Namespace) -> int:
    try:
        if args.command == "migrate":
            return _migrate()
        if args.command == "db":
            return _db(args.action)
        if args.command == "serve":
            return _serve(args)
        from backend.queue.commands import run_queue_command

        url = database_url(settings())
        with connect(url) as conn:
            migrate(conn)
        return run_queue_command(args, url)
    except StoreError as exc:
        return refuse(exc, exit_code=2)
    except ActionFailure as failure:  # the secret key: missing from the data folder, open to others, invalid
        return refuse(failure, exit_code=2)
    raise AssertionError(f"no handler for {args.command}")


def _migrate_and_seal(url: str) -> list[Migration]:
    """Apply the migrations, then seal the server tokens migration 0008 moved in the clear.

    The sealing needs the secret key, which SQL does not have; both `migrate` and `serve` do it, so that
    `make run` leaves no token in the clear.
    """
    from backend.actions.secret_store import SecretStore

    with connect(url) as conn:
        done = migrate(conn)
        SecretStore.from_settings().seal_moved_tokens(conn)
    return done


def _migrate() -> int:
    url = database_url(settings())
    done = _migrate_and_seal(url)
    for migration in done:
        print(f"applied {migration.number:04d}_{migration.name}")
    print("the database is up to date" if not done else f"applied {len(done)} migration(s)")
    return 0


def _db(action: str) -> int:
    config = settings()
    if action == "status":
        if config.database_url:
            print("DATABASE_URL is set: no embedded server is used")
            return 0
        pid = embedded.running_pid(config.pgdata)
        print(f"embedded PostgreSQL in {config.pgdata}: " + (f"running, pid {pid}" if pid else "stopped"))
        return 0
    if action == "stop":
        stopped = embedded.stop(config.pgdata)
        print(f"stopped the embedded PostgreSQL in {config.pgdata}" if stopped else "it was not running")
        return 0
    print(database_url(config))
    return 0


def _serve(args: argparse.Namespace) -> int:
    from backend.api.serving import serve

    if args.workers < 1:
        raise StoreError(code="serve_workers_invalid", given=args.workers)
    configure_logging()
    config = settings()
    url = database_url(config)
    _migrate_and_seal(url)
    with connect(url) as conn:
        row = conn.execute(load("backend.people", "queries.sql")["any_user"]).fetchone()
    if row is not None and not row[0]:
        # Nobody can log in or hold a token yet; the terminal is the only way in, and this says how.
        print(message("first_admin_missing"), flush=True)
    host = args.host or config.host
    port = args.port or config.port
    # Bound before the banner: whoever reads "serving" can connect at once (the kernel queues it).
    listener = socket.create_server((host, port))
    # Accepted connections inherit this; without it a keep-alive client waits out Nagle and delayed
    # ACKs (40 ms) between a response's head and its body.
    listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    print(f"Flowyard is serving on http://{host}:{port}", flush=True)
    # Links in approvers' mails point here unless a proxy's address is configured.
    os.environ.setdefault("FLOWYARD_BASE_URL", f"http://{host}:{port}")
    serve(listener, url, run_worker=not args.no_worker, processes=args.workers)
    return 0
