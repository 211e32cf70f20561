"""`flowyard db status|stop|url`: the embedded PostgreSQL server (`migrate` and `serve` build processes:
backend/processes.py)."""

from __future__ import annotations

import argparse

from backend.config import settings
from backend.store import embedded
from backend.store.database import database_url


def db_command(args: argparse.Namespace) -> int:
    action = args.action
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
