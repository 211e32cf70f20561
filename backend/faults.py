"""Named points in a worker's life where a fault test stops it, to kill it there.

Production workers have no fault points armed and pass each one at no cost. A test arms one (through
`flowyard worker --fault-point NAME`): the worker prints `fault point NAME reached` and blocks there
forever, so the test knows exactly where the SIGKILL lands.
"""

from __future__ import annotations

import asyncio
import sys

POINTS = ("after_claim", "before_outcome", "after_action_sent")


class Faults:
    def __init__(self, armed: str | None = None) -> None:
        if armed is not None and armed not in POINTS:
            raise ValueError(f"no fault point {armed!r}; there are {', '.join(POINTS)}")
        self.armed = armed

    async def reach(self, point: str) -> None:
        if point != self.armed:
            return
        print(f"fault point {point} reached", flush=True, file=sys.stdout)
        await asyncio.Event().wait()
