"""Named points in a worker's life where a fault test stops it, to kill it there.

Production workers have no fault points armed and pass each one at no cost. A test arms one (through
`flowyard worker --fault-point NAME`): the worker prints `fault point NAME reached` and blocks there
forever, so the test knows exactly where the SIGKILL lands.

A poison run (`flowyard worker --fault-poison-run RUN_ID`, fault tests only) stands for a run that kills
every worker that walks it (an action that exhausts memory, a value that crashes the process): the worker
SIGKILLs itself as it starts walking that run, with whatever else it holds in hand.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys

POINTS = ("after_claim", "before_outcome", "after_action_sent")


class Faults:
    def __init__(self, armed: str | None = None, poison_run: int | None = None) -> None:
        if armed is not None and armed not in POINTS:
            raise ValueError(f"no fault point {armed!r}; there are {', '.join(POINTS)}")
        self.armed = armed
        self.poison_run = poison_run

    def walking(self, run_id: int) -> None:
        """A walk of `run_id` starts: the poison run's kills this process, as a crash would (no cleanup)."""
        if run_id == self.poison_run:
            print(f"poison run {run_id} walked: dying", flush=True, file=sys.stderr)
            os.kill(os.getpid(), signal.SIGKILL)

    async def reach(self, point: str) -> None:
        if point != self.armed:
            return
        print(f"fault point {point} reached", flush=True, file=sys.stdout)
        await asyncio.Event().wait()
