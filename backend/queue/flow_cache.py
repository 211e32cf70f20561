"""Parsed flow versions kept in memory: a worker parses each version it walks once."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

from psycopg_pool import AsyncConnectionPool

from backend.graph.model import Flow
from backend.queue import store
from backend.queue.claims import Claim
from backend.queue.walked import Run, WaitFailed


class FlowCache:
    """Parsed flow versions. A version never changes once saved, so an entry never goes stale."""

    def __init__(self, size: int = 256) -> None:
        self._flows: OrderedDict[tuple[int, int], Flow] = OrderedDict()
        self._size = size

    async def get(
        self, key: tuple[int, int], document: Callable[[], Awaitable[dict[str, Any] | None]]
    ) -> Flow | None:
        """The parsed version `key`; its `document` is read and parsed only for a version not seen yet
        (None: there is no such version)."""
        flow = self._flows.get(key)
        if flow is not None:
            self._flows.move_to_end(key)
            return flow
        found = await document()
        if found is None:
            return None
        flow = self._flows[key] = Flow.load(found)
        if len(self._flows) > self._size:
            self._flows.popitem(last=False)
        return flow


async def load_run(pool: AsyncConnectionPool[Any], claim: Claim, flows: FlowCache) -> Run:
    """The claim's run with its flow version parsed; the database is asked only for a version not seen yet."""

    async def document() -> dict[str, Any] | None:
        async with pool.connection() as conn:
            return await store.flow_document(conn, claim.flow_id, claim.version)

    flow = await flows.get((claim.flow_id, claim.version), document)
    if flow is None:
        raise WaitFailed(code="run_missing", run=claim.run_id)
    return Run(claim.run_id, claim.flow_id, claim.version, claim.input, flow)
