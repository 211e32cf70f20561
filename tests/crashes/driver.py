"""The processes a crash test spawns: each plays a scenario's script, armed (or not) by its environment.

Starting an interpreter and importing the backend takes seconds on a loaded machine, and a sweep spawns
hundreds of processes; so one driver is started, imports everything once, and forks a child per request:

    python -m tests.crashes.driver URL

reads one JSON request per line on stdin (`run_id`, `scenario`, `started`, `env`, `takeover`), forks a
child that sets `env` (FLOWYARD_CRASH_AFTER_COMMIT=K...), arms the commit counter from it as `flowyard`
does, and plays the script on its own new connections (as the fresh player taking over, unarmed, with
`takeover`). The child prints one JSON line (what each step said, how
many commits it made) unless it crashed; the driver then prints `{"exit": code}` (86: crashed at its
commit, backend/store/commits.py). The driver itself opens no connection and runs no thread, so a fork
copies nothing a child could trip on.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from datetime import datetime

from backend.actions.transport import shared_tls
from backend.store.commits import arm_from_environment, counted
from tests.crashes.scenarios import BY_NAME, play


def _child(url: str, request: dict[str, object]) -> None:
    os.environ.update({str(k): str(v) for k, v in dict(request["env"]).items()})  # type: ignore[call-overload]
    arm_from_environment(os.environ)
    scenario = BY_NAME[str(request["scenario"])]
    started = datetime.fromisoformat(str(request["started"]))
    takeover = bool(request.get("takeover"))
    said = asyncio.run(play(url, int(str(request["run_id"])), scenario, started, takeover=takeover))
    print(json.dumps({"said": said, "commits": counted()}), flush=True)


def main(argv: list[str]) -> int:
    [url] = argv
    shared_tls()  # loaded once here, the children's senders find it loaded
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                _child(url, request)
            except BaseException:
                import traceback

                traceback.print_exc()
                code = 1
            finally:
                sys.stdout.flush()
                sys.stderr.flush()
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"exit": os.waitstatus_to_exitcode(status)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
