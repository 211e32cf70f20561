"""The fresh re-run's process server: `python tests/mutation/fresh.py DIR WORKERS TIMEOUT` (run.py starts it).

It imports the libraries the tests need (pytest, hypothesis, jsonschema, networkx, Babel: seconds of a
shared core each time), never `backend` nor `tests`, then reads jobs from stdin, one JSON object a line
(`{"name": mutant, "tests": [...], "options": [...]}`), and forks a child for each, at most WORKERS at a
time. The child sets MUTANT_UNDER_TEST before it imports anything of ours, so every module of the package
and every cache in it starts from nothing with the mutant in place: a process as fresh as `python -m
pytest` would be, without paying for the imports again. Each result is one JSON line on stdout:
`{"name": ..., "code": pytest's exit status, or "timeout"}`; a child past TIMEOUT seconds is killed.
"""

from __future__ import annotations

import json
import os
import selectors
import signal
import sys
import time

import hypothesis  # noqa: F401  (imported for the children)
import jsonschema  # noqa: F401
import networkx  # noqa: F401
import pytest


def _child(directory: str, job: dict[str, object]) -> int:
    os.environ["MUTANT_UNDER_TEST"] = str(job["name"])
    os.environ.pop("FLOWYARD_MUTATION_EXAMPLES", None)  # every example of every property test
    sys.dont_write_bytecode = True
    os.chdir(directory)
    sys.path.insert(0, directory)
    if not os.environ.get("FRESH_DEBUG"):
        out = os.open(os.devnull, os.O_WRONLY)
        os.dup2(out, 1)
        os.dup2(out, 2)
    options = [str(o) for o in job["options"]]  # type: ignore[attr-defined]
    tests = [str(t) for t in job["tests"]]  # type: ignore[attr-defined]
    # hypothesis was imported before pytest could rewrite its plugin's asserts: harmless, and said once.
    quiet = ["-W", "ignore::pytest.PytestAssertRewriteWarning"]
    return int(pytest.main(["-x", "-q", "-p", "no:cacheprovider", *quiet, *options, *tests]))


def main() -> None:
    directory, workers, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    jobs = [json.loads(line) for line in sys.stdin if line.strip()]
    running: dict[int, tuple[str, float]] = {}  # pid: (mutant, deadline)
    pid_fds: dict[int, int] = {}
    # Each child's pidfd becomes readable when it exits: the loop waits for an exit or the nearest deadline.
    exits = selectors.DefaultSelector()

    def report(pid: int) -> None:
        status = os.waitpid(pid, 0)[1]
        name, _ = running.pop(pid)
        key = exits.unregister(pid_fds.pop(pid))
        os.close(key.fd)
        code: object = "timeout" if os.WIFSIGNALED(status) else os.waitstatus_to_exitcode(status)
        print(json.dumps({"name": name, "code": code}), flush=True)

    while jobs or running:
        while jobs and len(running) < workers:
            job = jobs.pop(0)
            pid = os.fork()
            if pid == 0:
                try:
                    code = _child(directory, job)
                except BaseException:  # any failure to run the tests: exit status 3, no kill
                    if os.environ.get("FRESH_DEBUG"):
                        raise
                    code = 3
                os._exit(code)
            running[pid] = (str(job["name"]), time.monotonic() + timeout)
            pid_fds[pid] = os.pidfd_open(pid)
            exits.register(pid_fds[pid], selectors.EVENT_READ, pid)
        soonest = min(deadline for _, deadline in running.values())
        for key, _ in exits.select(max(0.0, soonest - time.monotonic())):
            report(key.data)
        now = time.monotonic()
        for child, (_, deadline) in list(running.items()):
            if now > deadline:
                os.kill(child, signal.SIGKILL)
                report(child)


if __name__ == "__main__":
    main()
