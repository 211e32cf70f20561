"""The ids a log line carries without every call passing them: the request, run, visit and worker.

Context variables follow asyncio tasks: the worker binds a claim's run and visit inside that claim's task,
and a request's id inside that request's, so concurrent walks and requests never see each other's ids.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

IDS = ("request", "run", "visit", "worker")
_ids: ContextVar[dict[str, Any] | None] = ContextVar("flowyard_log_ids", default=None)


def bind(**ids: Any) -> None:
    """Add ids to the current task's context (a task started later inherits them).

    Examples:
        >>> bind(run=7, visit=2)
        >>> current()["run"], current()["visit"]
        (7, 2)
    """
    unknown = set(ids) - set(IDS)
    if unknown:
        raise ValueError(f"not a log id: {sorted(unknown)}")
    _ids.set({**(_ids.get() or {}), **ids})


def current() -> dict[str, Any]:
    return dict(_ids.get() or {})


@contextmanager
def scoped(**ids: Any) -> Iterator[None]:
    """Ids for what runs inside the block only (a request): what it binds is gone after it."""
    token = _ids.set({**current(), **ids})
    try:
        yield
    finally:
        _ids.reset(token)
