"""Many walks' outcomes written together: a few set-based statements for a whole batch, not several per run.

The walks of a batch become arrays, one element per claim (and one per journal line), and `write_walks`
finishes or re-parks every wait whose claim still holds, then sets those runs' statuses and appends their
journal lines, all in one statement. A claim that no longer holds (lease taken over, run cancelled)
matches no row: its run and journal are not touched, and the rest of the batch still lands.

Locks are taken in the one order everywhere: the batch's runs first (`lock_runs`, in id order), then the
approval rows a paused walk creates, then the waits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.queue.claims import Claim
from backend.queue.driver import Approvals, Run, Walked
from backend.queue.queries import QUERIES
from backend.walker import ApprovalRequest


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one claim's walk came to, waiting for its batch to be written."""

    claim: Claim
    run: Run
    walked: Walked
    now: datetime | None  # the worker's clock when the walk ended; None: the database's own now()


def settles(outcome: Outcome) -> bool:
    """Whether the set-based write takes this outcome: every walk that got somewhere. An approval woken
    early (no step) needs the approval row's lock first, so it is written on its own."""
    return outcome.walked.step is not None


async def write_walks(
    conn: AsyncConnection[Any], me: str, outcomes: Sequence[Outcome], approvals: Approvals
) -> set[int]:
    """Write `outcomes` (each `settles`) in the caller's transaction; the wait ids whose claim held."""
    now = outcomes[0].now
    waits: dict[str, list[Any]] = {
        key: []
        for key in (
            "wait_ids",
            "claim_attempts",
            "run_ids",
            "finish",
            "kinds",
            "continuations",
            "wait_nodes",
            "wait_visits",
            "wake_ats",
            "wake_ins",
            "statuses",
            "errors",
            "line_counts",
        )
    }
    lines: dict[str, list[Any]] = {
        key: [] for key in ("line_runs", "line_ords", "codes", "nodes", "visits", "datas")
    }
    for outcome in outcomes:
        claim, walked, step = outcome.claim, outcome.walked, outcome.walked.step
        assert step is not None
        waiting = step.status == "waiting"
        wake = walked.wake
        request = step.request
        assert not waiting or (wake is not None and request is not None)
        waits["wait_ids"].append(claim.wait_id)
        waits["claim_attempts"].append(claim.attempts)
        waits["run_ids"].append(claim.run_id)
        waits["finish"].append(not waiting)
        waits["kinds"].append(wake.kind if waiting and wake else None)
        waits["continuations"].append(Jsonb(step.continuation) if waiting else None)
        waits["wait_nodes"].append(request.node if waiting and request else None)
        waits["wait_visits"].append(request.visit if waiting and request else None)
        waits["wake_ats"].append(wake.at if waiting and wake else None)
        waits["wake_ins"].append(wake.after if waiting and wake else None)
        waits["statuses"].append(step.status)
        waits["errors"].append(step.error)
        waits["line_counts"].append(len(walked.journal))
        for ordinal, line in enumerate(walked.journal, start=1):
            lines["line_runs"].append(claim.run_id)
            lines["line_ords"].append(ordinal)
            lines["codes"].append(line.code)
            lines["nodes"].append(line.node)
            lines["visits"].append(line.visit)
            lines["datas"].append(Jsonb(line.data))

    await conn.execute(QUERIES["lock_runs"], {"run_ids": sorted(set(waits["run_ids"]))})
    cur = await conn.execute(QUERIES["write_walks"], {**waits, **lines, "me": me, "now": now})
    written = {int(wait_id): bool(due_now) for wait_id, due_now in await cur.fetchall()}
    for outcome in outcomes:
        step, wake = outcome.walked.step, outcome.walked.wake
        assert step is not None
        if outcome.claim.wait_id in written and isinstance(step.request, ApprovalRequest):
            assert wake is not None
            await approvals.create(conn, outcome.run, step.request, wake.deadline)
    due = [outcome.claim.run_id for outcome in outcomes if written.get(outcome.claim.wait_id)]
    if due:  # one NOTIFY wakes every sleeping worker; the payload is only for people reading the log
        await conn.execute(QUERIES["notify"], {"payload": str(due[0])})
    return set(written)
