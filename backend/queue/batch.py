"""Outcomes of several walks in one transaction: one commit, one WAL flush, for up to `size` runs.

A worker's walks finish close together; each writing its own transaction would wait for its own flush to
disk, and the flush is most of an outcome's cost. Each outcome still runs in a savepoint of its own, so a
claim lost (or any error) undoes that outcome alone, and its writer hears about it. A crash before the
commit loses the whole batch's outcomes, and loses nothing else: their waits are still claimed, the leases
expire, and any worker walks them again (the effect keys keep their side effects single).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from psycopg import AsyncConnection
from psycopg_pool import AsyncConnectionPool

Job = Callable[[AsyncConnection[Any]], Awaitable[None]]


class OutcomeBatch:
    def __init__(self, pool: AsyncConnectionPool[Any], size: int = 25) -> None:
        self.pool = pool
        self.size = size
        self._pending: list[tuple[Job, asyncio.Future[None]]] = []
        self._flusher: asyncio.Task[None] | None = None

    async def write(self, job: Job) -> None:
        """Run `job` in the next batch's transaction; returns once that transaction has committed."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((job, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        while self._pending:
            await asyncio.sleep(0)  # the walks finishing in this same tick join the batch
            batch, self._pending = self._pending[: self.size], self._pending[self.size :]
            failures: dict[int, BaseException] = {}
            try:
                # Pipelined: the statements of a batch go out without waiting for each answer.
                async with self.pool.connection() as conn, conn.pipeline(), conn.transaction():
                    for index, (job, _) in enumerate(batch):
                        try:
                            async with conn.transaction():  # a savepoint: this outcome alone
                                await job(conn)
                        except Exception as failure:
                            failures[index] = failure
            except Exception as failure:  # the commit itself failed: no outcome of the batch stands
                for _, done in batch:
                    if not done.done():
                        done.set_exception(failure)
                continue
            for index, (_, done) in enumerate(batch):
                if index in failures:
                    done.set_exception(failures[index])
                else:
                    done.set_result(None)
