"""The queue's store: typed functions over its named statements (queries.sql), as procrastinate's
JobManager owns every query of its tables. The worker, the driver and the outcome's writers call these;
they never run a statement themselves (tests/queue/test_store.py holds that).

Each function runs one statement, or the few that one thing takes, in the caller's transaction (the
caller holds the connection and decides where a transaction begins and ends). A statement guarded by a
claim (`WHERE claimed_by = :me AND attempts = :attempts`) says with its answer whether the claim held.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal, LiteralString, Protocol

from psycopg import AsyncConnection
from psycopg.types.json import Jsonb

from backend.observability import events
from backend.outcomes import FinalOutcome
from backend.queue.claims import MAX_ATTEMPTS, ApprovalRead, Claim, Claimed, WaitKind
from backend.queue.preview_walk import Recorded
from backend.queue.queries import QUERIES
from backend.store.queries import every, load, one, scalar, scalars
from backend.walker import JournalLine
from backend.walker.redact import redact_values

RUN_PAGE_QUERIES = load("backend.queue", "run_page.sql")

# A run's status as people read it: `running` while a worker holds its wait (the queue's statements say so
# from the claim; the runs table never holds it for long).
RunStatus = Literal["running", "waiting", "stopped", "succeeded", "failed", "cancelled"]
TriggerKind = Literal["manual", "webhook", "schedule"]
WaitStatus = Literal["waiting", "claimed", "stopped"]
RUN_STATUSES: tuple[RunStatus, ...] = ("running", "waiting", "stopped", "succeeded", "failed", "cancelled")
TRIGGER_KINDS: tuple[TriggerKind, ...] = ("manual", "webhook", "schedule")

# Claims


async def claim_due(
    conn: AsyncConnection[Any],
    me: str,
    limit: int,
    now: datetime | None,
    lease: timedelta,
    *,
    answered_only: bool = False,
    in_hand: Collection[int] = (),
    suspect_in_hand: bool = False,
) -> list[Claim]:
    """Claim up to `limit` due waits for `me`, answered ones first; `answered_only`: those alone. Never
    one of `in_hand`, the waits the worker still holds a claim of. At most one wait whose last claim was
    abandoned (`Claim.abandoned`), and none when the worker holds one already (`suspect_in_hand`) or
    claims the answered alone."""
    # A full round leaves at least half of its slots to waits due by time.
    answered_limit, due_limit = (limit, 0) if answered_only else (max(1, limit // 2), limit)
    params = {
        "me": me,
        "limit": limit,
        "answered_limit": answered_limit,
        "abandoned_limit": 0 if answered_only or suspect_in_hand else 1,
        "due_limit": due_limit,
        "in_hand": list(in_hand),
        "now": now,
        "lease": lease,
    }
    return [row.claim() for row in await every(conn, Claimed, QUERIES["claim"], params)]


@dataclass(frozen=True, slots=True)
class _ApprovalOfClaim:
    """An approval wait of a claim round with its approval after the round's time-outs
    (time_out_claimed_approvals)."""

    wait_id: int
    id: int
    run_id: int
    outcome: FinalOutcome | None
    decided_by: str | None
    decided_at: datetime | None
    comment: str | None
    timed_out: bool


async def time_out_claimed(
    conn: AsyncConnection[Any], me: str, claims: list[Claim], now: datetime | None
) -> list[Claim]:
    """Time out, in one statement, the approvals of `claims`' approval waits whose deadline passed
    undecided (`conn` in autocommit), and read every such wait's approval in the same statement: a claim
    round of N approval waits costs one statement, not N time-outs and N reads. The claims come back with
    the approvals found final (`Claim.approval`), from which their walks resume with no read of their own;
    a wait whose approval is still undecided (woken for a reminder, or its approval held by a decision
    under way) reads it again when walked, as before. Only waits that will be walked: one claimed past its
    last attempt stops its run with the approval still open."""
    # Not a claim past its last attempt: it is not walked but stops its run, its approval left open.
    waits = [claim.wait_id for claim in claims if claim.kind == "approval" and claim.attempts <= MAX_ATTEMPTS]
    if not waits:
        return claims
    params = {"wait_ids": waits, "me": me, "now": now}
    final: dict[int, ApprovalRead] = {}
    for read in await every(conn, _ApprovalOfClaim, QUERIES["time_out_claimed_approvals"], params):
        if read.timed_out and read.outcome is not None:
            events.approval_decided(read.id, read.run_id, read.outcome)
        if read.outcome is not None and read.decided_at is not None:
            final[read.wait_id] = ApprovalRead(
                read.id, read.outcome, read.decided_by, read.decided_at, read.comment
            )
    return [replace(claim, approval=final.get(claim.wait_id)) for claim in claims]


# The journal


async def append_journal(conn: AsyncConnection[Any], run_id: int, lines: Sequence[JournalLine]) -> None:
    """Write `lines` after the run's last line. Takes the run row's lock until the transaction ends."""
    if not lines:
        return
    last = await scalar(conn, QUERIES["take_journal_seq"], {"run_id": run_id, "count": len(lines)})
    if last is None:
        raise LookupError(f"no run {run_id}")
    await conn.execute(
        QUERIES["append_journal"],
        {
            "run_id": run_id,
            "first": int(last) + 1,
            "codes": [line.code for line in lines],
            "nodes": [line.node for line in lines],
            "visits": [line.visit for line in lines],
            "datas": [Jsonb(line.data) for line in lines],
        },
    )


# Runs and their waits


async def lock_runs(conn: AsyncConnection[Any], run_ids: list[int]) -> None:
    """Lock these runs' rows, in id order: the first lock of every writer of a walk's outcome."""
    await conn.execute(QUERIES["lock_runs"], {"run_ids": run_ids})


async def set_run_status(
    conn: AsyncConnection[Any], run_id: int, status: RunStatus, error: str | None
) -> None:
    await conn.execute(QUERIES["set_run_status"], {"run_id": run_id, "status": status, "error": error})


async def flow_document(conn: AsyncConnection[Any], flow_id: int, version: int) -> dict[str, Any] | None:
    """The document of the flow version a run is pinned to (None: there is no such version)."""
    found: dict[str, Any] | None = await scalar(
        conn, QUERIES["flow_document"], {"flow_id": flow_id, "version": version}
    )
    return found


@dataclass(frozen=True, slots=True)
class WrittenWalk:
    """A wait `write_walks` wrote: whether it is due at once, and how long until a parked one falls due
    (None: finished, or never by time)."""

    wait_id: int
    due_now: bool
    due_in: timedelta | None


async def write_walks(
    conn: AsyncConnection[Any], me: str, walks: list[dict[str, Any]], now: datetime | None
) -> list[WrittenWalk]:
    """Finish or re-park the waits of `walks` (settle.py's JSON objects, encoded once as one document)
    whose claim still holds, with their runs' statuses and journal lines; the waits written."""
    params = {"walks": Jsonb(walks), "me": me, "now": now}
    return await every(conn, WrittenWalk, QUERIES["write_walks"], params)


@dataclass(frozen=True, slots=True)
class DueWait:
    """A wait a statement parked: whether it is due at once (its wake-up already past)."""

    wait_id: int
    due_now: bool


async def repark(
    conn: AsyncConnection[Any],
    claim: Claim,
    me: str,
    now: datetime | None,
    wake_at: datetime | None,
    wake_in: timedelta | None,
) -> DueWait | None:
    """Park a claimed wait again as its claim found it (its continuation and pause), due at `wake_at`, or
    `wake_in` from now, or (neither) never by time; None when the claim no longer held."""
    wait = {
        "id": claim.wait_id,
        "me": me,
        "attempts": claim.attempts,
        "now": now,
        "kind": claim.kind,
        "continuation": Jsonb(claim.continuation),
        "node": claim.node,
        "visit": claim.visit,
        "wake_at": wake_at,
        "wake_in": wake_in,
    }
    return await one(conn, DueWait, QUERIES["repark"], wait)


async def park_pauses(
    conn: AsyncConnection[Any], walks: list[dict[str, Any]], now: datetime | None
) -> list[DueWait]:
    """Write the due time of each pending pause of these waits (`walks`: each wait's id and its pauses as
    `Pause.to_json` has them), the wait's wake_at the earliest."""
    params = {"walks": Jsonb(walks), "wait_ids": [walk["wait_id"] for walk in walks], "now": now}
    return await every(conn, DueWait, QUERIES["park_pauses"], params)


async def clear_pauses(conn: AsyncConnection[Any], wait_ids: list[int]) -> None:
    """Forget the pauses of waits now parked at one pause again (their parallel closed)."""
    await conn.execute(QUERIES["clear_pauses"], {"wait_ids": wait_ids})


@dataclass(frozen=True, slots=True)
class PendingPause:
    """A pending pause of a claimed wait with several: its due time (None: never by time) and whether it
    is due now; a `retry` pause keeps its tries so far and the request to send again."""

    node: str
    visit: int
    kind: WaitKind
    due: datetime | None
    is_due: bool
    attempt: int = 0
    request: dict[str, Any] | None = None


async def pauses_of_wait(
    conn: AsyncConnection[Any], wait_id: int, attempts: int, now: datetime | None
) -> list[PendingPause]:
    """The pending pauses of a wait this claim (`attempts`) holds, earliest due first (then by visit);
    none when the claim no longer holds."""
    params = {"id": wait_id, "attempts": attempts, "now": now}
    return await every(conn, PendingPause, QUERIES["pauses_of_wait"], params)


async def stop_wait(
    conn: AsyncConnection[Any], wait_id: int, me: str, attempts: int, now: datetime | None, error: str
) -> bool:
    """Take a wait out of every claim, its run stopped by `error`; whether the claim held."""
    guard = {"id": wait_id, "me": me, "attempts": attempts, "now": now, "error": error}
    return await scalar(conn, QUERIES["stop_wait"], guard) is not None


async def retry_later(
    conn: AsyncConnection[Any],
    wait_id: int,
    me: str,
    attempts: int,
    now: datetime | None,
    error: str,
    backoff: timedelta,
) -> bool:
    """Put a wait back in the queue `backoff` from now, after a failed resume; whether the claim held."""
    guard = {"id": wait_id, "me": me, "attempts": attempts, "now": now, "error": error, "backoff": backoff}
    return await scalar(conn, QUERIES["retry_later"], guard) is not None


async def renew_claims(
    conn: AsyncConnection[Any],
    held: Sequence[tuple[int, int]],
    me: str,
    lease: timedelta,
    now: datetime | None,
) -> None:
    """Renew the lease of every claim `me` holds of these (wait id, attempts), waiting for no lock."""
    params = {
        "wait_ids": [wait_id for wait_id, _ in held],
        "claim_attempts": [attempts for _, attempts in held],
        "me": me,
        "lease": lease,
        "now": now,
    }
    await conn.execute(QUERIES["renew_claims"], params)


class PauseOfWait(Protocol):
    """One pending pause of a wait: the wait's id and the pause's key in `waits.pauses` (`node@visit`)."""

    @property
    def wait_id(self) -> int: ...

    @property
    def key(self) -> str: ...


async def wake_pauses(
    conn: AsyncConnection[Any], pauses: Iterable[PauseOfWait], now: datetime | None
) -> list[int]:
    """Make each of `pauses` due now, unless it is already, and its wait with it; the ids of the waits
    made due. In the caller's transaction, the waits' claims held (the runs' rows locked).

    For those who answer a pause but do not own the wait: of a wait just parked with several pauses, the
    approvals (a decision) and wait_event (an event, a timeout) name those answered while it was claimed,
    whose own wake-up the park wrote over, reading their own table beside `waits`. (A decided approval's
    wait is otherwise made due by the decision's own statement, `decide_approval`, in the database.)"""
    listed = list(pauses)
    if not listed:
        return []
    params = {"wait_ids": [p.wait_id for p in listed], "keys": [p.key for p in listed], "now": now}
    return sorted(int(wait_id) for wait_id in await scalars(conn, QUERIES["wake_pauses"], params))


async def still_claimed(conn: AsyncConnection[Any], wait_id: int, me: str, attempts: int) -> bool:
    """Whether this worker's claim (`attempts`) of the wait still holds."""
    params = {"id": wait_id, "me": me, "attempts": attempts}
    return await scalar(conn, QUERIES["still_claimed"], params) is not None


async def release_expired_claims(conn: AsyncConnection[Any], now: datetime | None) -> None:
    """Give back the claims whose lease ran out: their workers died or hung."""
    await conn.execute(QUERIES["release_expired_claims"], {"now": now})


@dataclass(frozen=True, slots=True)
class NextWake:
    """The earliest finite wake_at of a waiting wait (None: none), and the database's now."""

    wake_at: datetime | None
    now: datetime


async def next_wake(conn: AsyncConnection[Any]) -> NextWake | None:
    return await one(conn, NextWake, QUERIES["next_wake"])


@dataclass(frozen=True, slots=True)
class Place:
    """Where a run's walk died: the node and visit of that action."""

    node: str
    visit: int


async def open_effect_of_run(conn: AsyncConnection[Any], run_id: int, visit: int | None) -> Place | None:
    """The action a run's walk died in: a try without an outcome, or its newest action (`visit`: the
    wait's) when its last try failed."""
    return await one(conn, Place, QUERIES["open_effect_of_run"], {"run_id": run_id, "visit": visit})


# Retention (sweep.py): ended runs and their journals, then the triggers' keys


SweepStatement = Literal["sweep_ended_runs", "sweep_trigger_keys"]


async def sweep_batch(
    conn: AsyncConnection[Any],
    statement: SweepStatement,
    now: datetime | None,
    retention: timedelta,
    limit: int,
) -> int:
    """Delete up to `limit` ended runs (or triggers' keys) quiet for longer than `retention`; how many."""
    params = {"now": now, "retention": retention, "limit": limit}
    return len(await scalars(conn, QUERIES[statement], params))


# Starting and cancelling runs (runs.py)


async def newest_version(conn: AsyncConnection[Any], flow_id: int) -> int | None:
    """The flow's newest saved version, which a run starting now is pinned to; None: never saved."""
    version = await scalar(conn, QUERIES["newest_version"], {"flow_id": flow_id})
    return None if version is None else int(version)


async def claim_trigger_key(conn: AsyncConnection[Any], flow_id: int, idempotency_key: str) -> bool:
    """Take a trigger's idempotency key for the run about to start; False: a run took it already."""
    params = {"flow_id": flow_id, "idempotency_key": idempotency_key}
    return await scalar(conn, QUERIES["claim_trigger_key"], params) is not None


async def run_by_key(conn: AsyncConnection[Any], flow_id: int, idempotency_key: str) -> int | None:
    """The run a taken idempotency key started."""
    params = {"flow_id": flow_id, "idempotency_key": idempotency_key}
    found = await scalar(conn, QUERIES["run_by_key"], params)
    return None if found is None else int(found)


async def insert_run(
    conn: AsyncConnection[Any],
    flow_id: int,
    version: int,
    *,
    trigger_kind: TriggerKind,
    input: Any,
    idempotency_key: str | None,
    started_by: str | None,
) -> int | None:
    """A new run's row, `waiting`; its id, None when its idempotency key started one already."""
    params = {
        "flow_id": flow_id,
        "version": version,
        "trigger_kind": trigger_kind,
        "input": Jsonb(input),
        "idempotency_key": idempotency_key,
        "started_by": started_by,
    }
    inserted = await scalar(conn, QUERIES["insert_run"], params)
    return None if inserted is None else int(inserted)


async def set_trigger_key_run(
    conn: AsyncConnection[Any], flow_id: int, idempotency_key: str, run_id: int
) -> None:
    params = {"flow_id": flow_id, "idempotency_key": idempotency_key, "run_id": run_id}
    await conn.execute(QUERIES["set_trigger_key_run"], params)


async def insert_start_wait(conn: AsyncConnection[Any], run_id: int) -> None:
    """The run's first wait, a `start` due now (`waits_one_per_run` refuses a second open wait)."""
    await conn.execute(QUERIES["insert_start_wait"], {"run_id": run_id})


async def set_cancelled(conn: AsyncConnection[Any], run_id: int) -> bool:
    """Mark a run that has not ended cancelled, its row locked; False: it had ended, or never existed."""
    return await scalar(conn, QUERIES["cancel_run"], {"run_id": run_id}) is not None


async def undoing(conn: AsyncConnection[Any], run_id: int) -> bool:
    """Whether the run is running its undos (a cancel or an end before)."""
    return await scalar(conn, QUERIES["undoing_wait_of_run"], {"run_id": run_id}) is not None


async def delete_wait_of_run(conn: AsyncConnection[Any], run_id: int) -> None:
    await conn.execute(QUERIES["delete_wait_of_run"], {"run_id": run_id})


async def close_open_effects(conn: AsyncConnection[Any], run_id: int, code: str) -> None:
    """In the caller's transaction: close the tries of the run's actions that died without an outcome (a
    stopped run's last try keeps its row open so that a resume sends again under its key; once the run is
    ended or cancelled nothing ever will)."""
    output = Jsonb({"code": code, "in_doubt": True})
    await conn.execute(QUERIES["close_open_effects"], {"run_id": run_id, "output": output})


# Reading runs (the API, `flowyard runs show`)


@dataclass(frozen=True, slots=True)
class RunRow:
    """A run as the API shows it; `input` only when one run is read."""

    id: int
    flow_id: int
    version: int
    status: RunStatus
    trigger_kind: TriggerKind
    error: str | None
    started_by: str | None
    created_at: datetime
    updated_at: datetime
    ended_at: datetime | None
    input: Any = None


@dataclass(frozen=True, slots=True)
class WaitRow:
    """What a run waits for, for its page; `wake_at` None for an approval without a deadline."""

    kind: WaitKind
    node: str | None
    visit: int | None
    wake_at: datetime | None
    status: WaitStatus
    attempts: int
    last_error: str | None


async def get_run(conn: AsyncConnection[Any], run_id: int) -> RunRow | None:
    """One run with its input; `running` while a worker holds its wait."""
    return await one(conn, RunRow, QUERIES["get_run"], {"run_id": run_id})


async def list_runs(
    conn: AsyncConnection[Any],
    *,
    user: str,
    flow_id: int | None,
    status: RunStatus | None,
    trigger: TriggerKind | None,
    since: datetime | None,
    until: datetime | None,
    before: int | None,
    limit: int,
) -> list[RunRow]:
    """Runs `user` may read, newest first, after a cursor, filtered as given (None: any)."""
    params = {
        "user": user,
        "flow_id": flow_id,
        "status": status,
        "trigger": trigger,
        "since": since,
        "until": until,
        "before": before,
        "limit": limit,
    }
    return await every(conn, RunRow, QUERIES["list_runs"], params)


async def wait_of_run(conn: AsyncConnection[Any], run_id: int) -> WaitRow | None:
    return await one(conn, WaitRow, QUERIES["wait_of_run"], {"run_id": run_id})


# A stopped run, resumed or ended (stops.py)


@dataclass(frozen=True, slots=True)
class StoppedRun:
    """A run (stopped, or refused for not being) with the wait it stopped at (None when it has none); its
    `input` only where a preview reads it (stopped_run_read)."""

    status: str
    flow_id: int
    version: int
    continuation: Any
    node: str | None
    visit: int | None
    kind: str | None
    input: Any = None


async def lock_stopped_run(conn: AsyncConnection[Any], run_id: int) -> StoppedRun | None:
    """The run, its row locked, with the wait it stopped at; None: no such run."""
    return await one(conn, StoppedRun, QUERIES["lock_stopped_run"], {"run_id": run_id})


async def version_document(conn: AsyncConnection[Any], flow_id: int, version: int) -> dict[str, Any] | None:
    """The document of a version of the flow (None: no such version)."""
    found: dict[str, Any] | None = await scalar(
        conn, QUERIES["version_document"], {"flow_id": flow_id, "version": version}
    )
    return found


async def move_run_to_version(conn: AsyncConnection[Any], run_id: int, version: int) -> None:
    """Pin the run to `version`, and rebase its actions' effects onto it."""
    await conn.execute(QUERIES["move_run_to_version"], {"run_id": run_id, "version": version})
    await conn.execute(QUERIES["rebase_effects"], {"run_id": run_id})


async def resume_stopped_wait(conn: AsyncConnection[Any], run_id: int) -> None:
    """Put a stopped run's wait back in the queue, due now, its attempts counted afresh."""
    await conn.execute(QUERIES["resume_stopped_wait"], {"run_id": run_id})


# Schedules (schedules.py)


@dataclass(frozen=True, slots=True)
class DueSchedule:
    """A due schedule, claimed: its flow, its cron and time zone, and the fire it is due for."""

    flow_id: int
    cron: str
    timezone: str
    next_fire_at: datetime


async def claim_schedule(conn: AsyncConnection[Any], now: datetime | None) -> DueSchedule | None:
    """A due schedule, its row locked for the caller's transaction (others skip it); None: none is due."""
    return await one(conn, DueSchedule, QUERIES["claim_schedule"], {"now": now})


async def move_schedule(conn: AsyncConnection[Any], flow_id: int, next_fire_at: datetime) -> None:
    await conn.execute(QUERIES["move_schedule"], {"flow_id": flow_id, "next": next_fire_at})


async def upsert_schedule(
    conn: AsyncConnection[Any], flow_id: int, cron: str, timezone: str, next_fire_at: datetime
) -> None:
    params = {"flow_id": flow_id, "cron": cron, "timezone": timezone, "next": next_fire_at}
    await conn.execute(QUERIES["upsert_schedule"], params)


async def delete_schedule(conn: AsyncConnection[Any], flow_id: int) -> None:
    await conn.execute(QUERIES["delete_schedule"], {"flow_id": flow_id})


async def database_now(conn: AsyncConnection[Any]) -> datetime:
    """The database's now(): the one clock of every worker and command."""
    now = await scalar(conn, QUERIES["database_now"])
    assert isinstance(now, datetime)
    return now


# What `flowyard runs show` and `flowyard workers` read (watch.py, commands.py)


@dataclass(frozen=True, slots=True)
class RunPause:
    """One pending pause of a run's wait with several (pauses_of_run)."""

    node: str
    visit: int
    kind: WaitKind
    due: datetime | None
    attempt: int


async def pauses_of_run(conn: AsyncConnection[Any], run_id: int) -> list[RunPause]:
    return await every(conn, RunPause, QUERIES["pauses_of_run"], {"run_id": run_id})


@dataclass(frozen=True, slots=True)
class WorkerRow:
    """A worker as operators see it."""

    name: str
    started_at: datetime
    heartbeat_at: datetime
    concurrency: int
    silent_for: timedelta


async def list_workers(conn: AsyncConnection[Any]) -> list[WorkerRow]:
    return await every(conn, WorkerRow, QUERIES["list_workers"])


# What resuming a stopped run would do, read without writing (preview.py)


async def read_only(conn: AsyncConnection[Any]) -> None:
    """Make the caller's transaction READ ONLY: what it reads, it cannot change."""
    await conn.execute(QUERIES["read_only"])


async def stopped_run_read(conn: AsyncConnection[Any], run_id: int) -> StoppedRun | None:
    """The run with its input and the wait it stopped at, read without a lock."""
    return await one(conn, StoppedRun, QUERIES["stopped_run_read"], {"run_id": run_id})


async def effects_of_run_read(conn: AsyncConnection[Any], run_id: int) -> list[Recorded]:
    """The effects rows of the run's actions, as a resume would find them."""
    return await every(conn, Recorded, QUERIES["effects_of_run_read"], {"run_id": run_id})


@dataclass(frozen=True, slots=True)
class ApprovalAnswer:
    """The approval of a stopped wait's pause, and whether its deadline passed with a time-out rule."""

    id: int
    outcome: str | None
    decided_by: str | None
    decided_at: Any
    comment: str | None
    past_deadline: bool | None
    on_timeout: str | None


async def approval_answer_read(conn: AsyncConnection[Any], run_id: int, visit: int) -> ApprovalAnswer | None:
    params = {"run_id": run_id, "visit": visit}
    return await one(conn, ApprovalAnswer, QUERIES["approval_answer_read"], params)


# The run page's read (`GET /api/runs/{id}`): the run, a page of its journal, its wait, its variables,
# the pinned document and the visits, in one statement (run_page.sql). Read part by part, a statement each,
# the round trips cost more than the parts.
#
# The journal comes as the API answers it: each line a dict (seq, at as ISO 8601, code, node, visit, data),
# the page made by the database as one JSON value and decoded at once; read a row at a time, it cost more
# than the rest of the page.


@dataclass(frozen=True, slots=True)
class RunPage(RunRow):
    """One run as its page shows it; `journal` the lines after the page's `after`, one more than its
    `limit` when more follow."""

    journal: list[dict[str, Any]] = field(default_factory=list)
    # kind, node, visit, wake_at, status, attempts, last_error, and `retries`: each branch's failed action
    # to be sent again (node, visit, due, the attempts made), whichever pause is the wait's first.
    wait: dict[str, Any] | None = None
    variables: Any = None  # a paused run's, from its continuation; None once it has ended
    flow_name: str | None = None
    document: dict[str, Any] | None = None  # the pinned version's
    visits: dict[str, int] = field(default_factory=dict)
    failure: dict[str, Any] | None = None  # node and data of its last run_failed line, if it failed


async def run_page(conn: AsyncConnection[Any], run_id: int, *, after: int, limit: int) -> RunPage | None:
    """The run with up to `limit` lines of its journal after line `after`; None when there is no such run."""
    params = {"run_id": run_id, "after": after, "limit": limit}
    return await one(conn, RunPage, RUN_PAGE_QUERIES["run_page"], params)


# Undos (undo.py, undo_walk.py)


@dataclass(frozen=True, slots=True)
class Undo:
    """A succeeded action whose undo is still to run (undos_of_run, with its output); or, read back by its
    action's visit, an undo that succeeded with no `undo_done` line yet (undos_done_unjournaled)."""

    visit: int
    node: str
    output: Any = None


async def undos_of_run(conn: AsyncConnection[Any], run_id: int) -> list[Undo]:
    """The run's succeeded actions whose undo is still to run, newest first."""
    return await every(conn, Undo, QUERIES["undos_of_run"], {"run_id": run_id})


async def undos_done_unjournaled(conn: AsyncConnection[Any], run_id: int) -> list[Undo]:
    """Undos that succeeded with no `undo_done` line yet: an earlier walk's, whose lines died with it."""
    return await every(conn, Undo, QUERIES["undos_done_unjournaled"], {"run_id": run_id})


async def wait_to_undo(conn: AsyncConnection[Any], run_id: int, by: str | None, undo_for: str) -> bool:
    """Turn the run's wait into an `undo` wait, due now; whether the run had a wait."""
    params = {"run_id": run_id, "by": by, "undo_for": undo_for}
    return await scalar(conn, QUERIES["wait_to_undo"], params) is not None


# Run records (records.py): what an auditor asks of a run after the run itself is gone


@dataclass(frozen=True, slots=True)
class RunRecord:
    """A run's record (run_records), kept after its run was swept."""

    run_id: int
    flow_id: int
    flow_name: str
    version: int
    trigger_kind: str
    started_by: str | None
    trigger_key: str | None
    started_at: datetime
    ended_at: datetime | None
    status: str
    error: str | None
    input_digest: str
    input_kept: bool
    input: Any

    def to_json(self) -> dict[str, Any]:
        """The record with machine keys; the input with secret-looking values redacted, as the run page."""
        return {
            "run": self.run_id,
            "flow": self.flow_id,
            "flow_name": self.flow_name,
            "version": self.version,
            "trigger": self.trigger_kind,
            "started_by": self.started_by,
            "trigger_key": self.trigger_key,
            "started_at_utc": self.started_at.astimezone(UTC).isoformat(),
            "ended_at_utc": self.ended_at.astimezone(UTC).isoformat() if self.ended_at else None,
            "status": self.status,
            "error": self.error,
            "input_digest": self.input_digest,
            "input_kept": self.input_kept,
            "input": redact_values(self.input) if self.input_kept else None,
        }


async def run_record(conn: AsyncConnection[Any], run_id: int) -> RunRecord | None:
    return await one(conn, RunRecord, QUERIES["run_record"], {"run_id": run_id})


async def run_records(
    conn: AsyncConnection[Any],
    *,
    flow_id: int | None,
    since: datetime | None,
    until: datetime | None,
    after: tuple[datetime, int] | None,
    limit: int,
) -> list[RunRecord]:
    """Up to `limit` records, of one flow or of all (None), started in [since, until), in the order
    (started_at, run_id), after the record `after` names (its started_at and run id)."""
    after_at, after_id = after or (None, None)
    params = {
        "flow_id": flow_id,
        "since": since,
        "until": until,
        "after_at": after_at,
        "after_id": after_id,
        "limit": limit,
    }
    return await every(conn, RunRecord, QUERIES["run_records"], params)


async def sweep_run_records_batch(
    conn: AsyncConnection[Any], now: datetime | None, retention: timedelta, limit: int
) -> int:
    """Delete up to `limit` records of runs that ended before `retention`, oldest first; how many went."""
    params = {"now": now, "retention": retention, "limit": limit}
    return len(await scalars(conn, QUERIES["sweep_run_records"], params))


# Notifications and workers


async def notify(conn: AsyncConnection[Any], payload: str) -> None:
    """Wake the workers at the transaction's commit: a run's id (its owner answers), or "due" (everyone)."""
    await conn.execute(QUERIES["notify"], {"payload": payload})


async def notify_run_shown(conn: AsyncConnection[Any], run_id: int) -> None:
    """Tell the run's watchers (the API's stream) that what it shows changed."""
    await conn.execute(QUERIES["notify_run_shown"], {"run_id": run_id})


async def listen(conn: AsyncConnection[Any], channels: Sequence[LiteralString]) -> None:
    """LISTEN on each channel (a constant: a channel cannot be a parameter)."""
    for channel in channels:
        await conn.execute(f"LISTEN {channel}")


async def heartbeat(conn: AsyncConnection[Any], me: str, concurrency: int, live_s: float) -> list[str]:
    """Say this worker is alive; the workers alive (heard from within `live_s` seconds)."""
    beat = {"me": me, "concurrency": concurrency, "live": live_s}
    return list(await scalars(conn, QUERIES["heartbeat"], beat))


async def notify_workers(conn: AsyncConnection[Any], me: str) -> None:
    """Tell the other workers that this one came (or went)."""
    await conn.execute(QUERIES["notify_workers"], {"me": me})


async def worker_gone(conn: AsyncConnection[Any], me: str) -> None:
    await conn.execute(QUERIES["worker_gone"], {"me": me})


async def forget_silent_workers(conn: AsyncConnection[Any]) -> None:
    await conn.execute(QUERIES["forget_silent_workers"])


async def forget_expired_sessions(conn: AsyncConnection[Any]) -> None:
    await conn.execute(QUERIES["forget_expired_sessions"])
