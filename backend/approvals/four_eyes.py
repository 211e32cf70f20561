"""Four eyes: who may not decide an approval themselves.

The run's starter, the author of the flow version it follows, and, for a run the webhook started, whoever
had set the webhook's secret (an anonymous post is theirs to make): none of them may decide it, nor may
anyone stand in for them, unless the node allows self-approval.
"""

from __future__ import annotations

from typing import Any

from psycopg import AsyncConnection

from backend.approvals.records import Approval
from backend.store.queries import load, scalar

QUERIES = load("backend.approvals", "queries.sql")


async def selves_of(conn: AsyncConnection[Any], approval: Approval) -> frozenset[str]:
    """The people who count as the approval's own for self-approval; none when the node allows it."""
    if approval.allow_self_approval:
        return frozenset()
    hook_secret_by = await scalar(conn, QUERIES["hook_secret_by_of"], {"id": approval.id})
    return frozenset({approval.started_by, approval.author, hook_secret_by} - {None})
