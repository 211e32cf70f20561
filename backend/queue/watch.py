"""`flowyard runs show RUN_ID [--wait SECONDS]`: where a run stands, in one sentence, and under it the
answers its actions gave after their attempts were given up (kept aside, used by nothing). A run one of
whose parallel's branches retries a failed action (a `retry` pause) is told pause by pause: the retry
with its next try, and each of the other branches' pauses beside it.

`--wait` waits until the run has nothing for a worker to do: it ended, or it is paused at an approval or
a delay that is not due. That is what a terminal needs after `flowyard run` or a decision, both of which
only make a wait due; a worker walks the run in its own time. The command reads the database a few times
a second while it waits: it holds no lock and writes nothing.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from datetime import UTC
from typing import Any

from psycopg import AsyncConnection

from backend.console import locale, refuse
from backend.i18n import catalogs
from backend.queue import store
from backend.queue.claims import MAX_ATTEMPTS
from backend.queue.runs import RunApprovals, RunNotes
from backend.queue.store import RunPause, get_run, wait_of_run

_POLL_S = 0.2


def message(code: str, /, **params: Any) -> str:
    """The sentence of `code` in the command's language (the terminal's, or the `--as` user's)."""
    return catalogs.message(code, locale(), **params)


@dataclass(frozen=True, slots=True)
class RunState:
    sentence: str
    settled: bool  # nothing is due for a worker: the run ended, or waits for a person or a time


async def run_state(conn: AsyncConnection[Any], run_id: int, approvals: RunApprovals) -> RunState | None:
    """The run's state now; None when there is no such run."""
    run = await get_run(conn, run_id)
    if run is None:
        return None
    status, error = run.status, run.error
    if status in ("succeeded", "failed", "cancelled"):
        code = {"succeeded": "run_state_succeeded", "failed": "run_state_failed"}.get(
            status, "run_state_cancelled"
        )
        return RunState(message(code, run=run_id, error=error or ""), settled=True)
    if status == "stopped":
        # Settled until a person resumes or ends it: no worker will take it on its own.
        return RunState(message("run_state_stopped", run=run_id, error=error or ""), settled=True)
    wait = await wait_of_run(conn, run_id)
    if wait is None or status == "running":
        return RunState(message("run_state_running", run=run_id), settled=False)
    kind, node, visit, wake_at, wait_status, last_error = (
        wait.kind, wait.node, wait.visit, wait.wake_at, wait.status, wait.last_error
    )  # fmt: skip
    if wait_status != "waiting" or (wake_at is not None and wake_at <= await store.database_now(conn)):
        return RunState(message("run_state_due", run=run_id), settled=False)
    pauses = await store.pauses_of_run(conn, run_id)
    if any(pause.kind == "retry" for pause in pauses):
        lines = [await _pause_line(conn, run_id, pause, approvals) for pause in pauses]
        return RunState("\n".join(line for line in lines if line), settled=True)
    if last_error is not None:
        # A resume that threw waits out its backoff: a worker will try again, so it is not settled.
        assert wake_at is not None, "a resume that threw is due again at a time"
        until = wake_at.astimezone(UTC)
        return RunState(message("run_state_retrying", run=run_id, until=until, error=last_error), False)
    if kind == "approval":
        approval = None if visit is None else await approvals.of_wait(conn, run_id, visit)
        if approval is None or approval.outcome is not None:  # decided: the run is about to go on
            return RunState(message("run_state_due", run=run_id), settled=False)
        sentence = message("run_state_waiting_approval", run=run_id, approval=approval.id, node=node)
        return RunState(sentence, settled=True)
    assert wake_at is not None, "a delay is due at a time"
    until = wake_at.astimezone(UTC)
    return RunState(message("run_state_waiting_until", run=run_id, node=node, until=until), settled=True)


async def _pause_line(
    conn: AsyncConnection[Any], run_id: int, pause: RunPause, approvals: RunApprovals
) -> str:
    """One pause of a wait with several, as a sentence; empty for an approval decided a moment ago."""
    if pause.kind == "retry" and pause.due is not None:
        until = pause.due.astimezone(UTC)
        attempt = pause.attempt + 1
        return message(
            "run_state_branch_retrying", run=run_id, node=pause.node, until=until, attempt=attempt,
            attempts=MAX_ATTEMPTS,
        )  # fmt: skip
    if pause.kind == "approval":
        approval = await approvals.of_wait(conn, run_id, pause.visit)
        if approval is None or approval.outcome is not None:
            return ""
        return message("run_state_waiting_approval", run=run_id, approval=approval.id, node=pause.node)
    if pause.due is not None:  # a delay, or an event's timeout
        return message(
            "run_state_waiting_until", run=run_id, node=pause.node, until=pause.due.astimezone(UTC)
        )
    return message("run_state_waiting_event", run=run_id, node=pause.node)


async def _no_notes(conn: AsyncConnection[Any], run_id: int) -> list[str]:
    return []


async def show_run(
    url: str, run_id: int, wait_s: float | None, approvals: RunApprovals, notes: RunNotes = _no_notes
) -> int:
    deadline = None if wait_s is None else time.monotonic() + wait_s
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        while True:
            state = await run_state(conn, run_id, approvals)
            if state is None:
                return refuse(code="run_not_found", run=run_id)
            if deadline is None or state.settled:
                print(state.sentence)
                for note in await notes(conn, run_id):
                    print(note)
                return 0
            if time.monotonic() >= deadline:
                print(state.sentence)
                return refuse(code="run_wait_timed_out", run=run_id, seconds=wait_s)
            await asyncio.sleep(_POLL_S)
