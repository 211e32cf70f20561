"""The Prometheus text a scrape gets, and who may have it.

A scrape is allowed with `Authorization: Bearer $FLOWYARD_METRICS_TOKEN` (what a Prometheus job is given,
no user behind it) or with any user's token or session that holds the `admin` right. Everything else is
refused like any other request: metrics name flows' reason codes and the load of the system.

With `PROMETHEUS_MULTIPROC_DIR` set (several API processes behind one port, see docs/operations.md), the
counters of every process are summed from the files prometheus-client keeps there; otherwise each process
exposes its own.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import REGISTRY, CollectorRegistry, generate_latest, multiprocess
from psycopg_pool import AsyncConnectionPool
from starlette.requests import Request

from backend.observability import metrics
from backend.observability.queries import QUERIES
from backend.store.queries import one, scalar

__all__ = ["CONTENT_TYPE", "has_scrape_token", "scrape"]

DATABASE_TIMEOUT_S = 2.0


@dataclass(frozen=True, slots=True)
class _Due:
    due: int  # waits due and unclaimed
    oldest_s: float  # how long the longest-due one has waited


def has_scrape_token(request: Request, token: str | None) -> bool:
    """Whether the request carries `token` (FLOWYARD_METRICS_TOKEN): no database is needed to believe it,
    so a scrape still answers (with `flowyard_database_up 0`) while the database is away."""
    expected = token or ""
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    # Bytes: compare_digest refuses text that is not ASCII, and a header may carry any.
    matches = secrets.compare_digest(given.strip().encode(), expected.encode())
    return bool(expected) and scheme.lower() == "bearer" and matches


async def scrape(pool: AsyncConnectionPool[Any], multiprocess_dir: str | None) -> bytes:
    """Read the database's gauges (when it answers in time) and the pool's statistics, then render."""
    try:
        async with pool.connection(timeout=DATABASE_TIMEOUT_S) as conn:
            due = await one(conn, _Due, QUERIES["waits_due"])
            assert due is not None, "an aggregate has its row"
            metrics.WAITS_DUE.set(due.due)
            metrics.WAITS_OLDEST_DUE.set(due.oldest_s)
            metrics.APPROVALS_WAITING.set(await scalar(conn, QUERIES["approvals_waiting"]))
        metrics.DATABASE_UP.set(1)
    except Exception:
        metrics.DATABASE_UP.set(0)  # the database gauges keep their last values; this one says so
    stats = pool.get_stats()
    metrics.POOL_SIZE.set(stats.get("pool_size", 0))
    metrics.POOL_AVAILABLE.set(stats.get("pool_available", 0))
    metrics.POOL_WAITING.set(stats.get("requests_waiting", 0))
    metrics.POOL_MAX.set(stats.get("pool_max", 0))
    # Rendering reads every process's file in multiprocess mode: kept off the event loop.
    return await asyncio.to_thread(generate_latest, _registry(multiprocess_dir))


def _registry(multiprocess_dir: str | None) -> CollectorRegistry:
    """The process's own counters, or every `serve --workers N` child's from `multiprocess_dir` (which
    prometheus-client also reads, from the environment, as it counts)."""
    if not multiprocess_dir:
        return REGISTRY
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return registry
