"""Keeping a worker's claims: one statement renews the lease of every claim it holds, three times per
lease, on a connection of its own and waiting for no lock (`renew_claims`), so that a live worker never
loses a claim to its lease.

Not the pool's connections: the pool is shared by the walks, the outcome writes, the claim round and the
heartbeat, and a renewal queued behind them for two thirds of a lease lost every claim the worker held,
while it was still walking them. What it cannot help is the worker's own process getting no time to run
(a starved machine): a renewal that comes later than two thirds of a lease says so in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Collection
from datetime import timedelta
from typing import Any

from psycopg import AsyncConnection

from backend.queue import store
from backend.queue.claims import Clock

log = logging.getLogger("flowyard.worker")

# A claim in hand, as the worker keys it: (wait id, attempts), the claim's guard.
Held = tuple[int, int]


class Renewer:
    def __init__(
        self, conninfo: str, me: str, lease: timedelta, clock: Clock, held: Callable[[], Collection[Held]]
    ) -> None:
        self.conninfo, self.me, self.lease, self.clock, self.held = conninfo, me, lease, clock, held
        self._conn: AsyncConnection[Any] | None = None

    async def run(self) -> None:
        """Renew until cancelled. A claim that is gone is not renewed: its guarded writes and the check
        before each action know."""
        renewed_at = time.monotonic()
        try:
            # Connected before the first claim is due for renewal: a connection opened then, on a loaded
            # machine, took seconds of the first lease.
            with contextlib.suppress(Exception):
                self._conn = await AsyncConnection.connect(self.conninfo, autocommit=True)
            while True:
                await asyncio.sleep(self.lease.total_seconds() / 3)
                held = list(self.held())
                if not held:
                    renewed_at = time.monotonic()
                elif await self._renew(held):
                    since, renewed_at = time.monotonic() - renewed_at, time.monotonic()
                    if since > self.lease.total_seconds() * 2 / 3:
                        # Only this process held up (or the database, its statement) does that: its claims
                        # may have lapsed meanwhile, and been taken by another worker.
                        log.warning("renewed %d claims %.1f s after the last renewal", len(held), since)
        finally:
            await self._close()

    async def _renew(self, held: list[Held]) -> bool:
        try:
            if self._conn is None or self._conn.closed:
                self._conn = await AsyncConnection.connect(self.conninfo, autocommit=True)
            await store.renew_claims(self._conn, held, self.me, self.lease, self.clock())
            return True
        except Exception:
            log.warning("renewing %d claims failed; trying again", len(held), exc_info=True)
            await self._close()  # a connection that failed is not used again
            return False

    async def _close(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
        self._conn = None
