"""`flowyard db status|stop|url`: the embedded PostgreSQL server (`migrate` and `serve` build processes:
backend/processes.py)."""

from __future__ import annotations

import argparse

from backend.console import row, say
from backend.store import embedded
from backend.store.database import database_url


def db_command(args: argparse.Namespace) -> int:
    action = args.action
    config = args.settings
    folder = str(config.pgdata)
    if action == "status":
        if config.database_url:
            say(code="cli_db_external")
            return 0
        pid = embedded.running_pid(config.pgdata)
        if pid:
            say(code="cli_db_running", folder=folder, pid=pid)
        else:
            say(code="cli_db_not_running", folder=folder)
        return 0
    if action == "stop":
        if embedded.stop(config.pgdata):
            say(code="cli_db_stopped", folder=folder)
        else:
            say(code="cli_db_was_not_running", folder=folder)
        return 0
    row(database_url(config))  # for a program: `psql "$(flowyard db url)"`
    return 0
