"""The effects log: one row per action visit, keyed by (run, visit), written before anything leaves.

A try opens the row (or finds it), and one of two things follows:

- the row holds an outcome the walk must get again: it is given back and nothing is sent. That is every
  success, and an error once the run has an effect at a later visit (a walk followed the `error` port
  and acted on it, so a retry must take the same path), unless the try is a branch's retry (`again`:
  the later effects are other branches', and nothing built on the error: docs/runs.md);
- otherwise (a new row, a try that died before its outcome was written, or an error nothing built on)
  a new try starts under the row's key: committed before the request leaves, so a crash after it leaves
  is found by the next try, which sends again with the same key.

The try's outcome is written `WHERE attempts = :this_try AND outcome IS NULL`: the first result written
stands, and a late one (a worker whose lease ran out while it waited on a slow server) reads it instead.

Examples:
    >>> key = new_key(12, 7)
    >>> key.startswith("fy-12-7-"), len(key) == len("fy-12-7-") + 12
    (True, True)
    >>> request_digest("http", {"url": "https://a.example"}) == request_digest("http", {"url": "https://a.example"})
    True
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from backend.actions.queries import QUERIES, EffectOutcome
from backend.queue.claims import ClaimLost
from backend.queue.store import append_journal
from backend.queue.walked import WaitFailed
from backend.store.queries import one, scalar
from backend.walker import ActionRequest, JournalLine
from backend.walker.redact import redact_request


class EffectInDoubt(Exception):
    """A try's outcome could not be written and none stands: how the action went cannot be told."""


@dataclass(frozen=True, slots=True)
class _Locked:
    """An action visit's row, locked for a try: what it recorded, and whether a later effect built on it."""

    node: str
    digest: str
    key: str
    outcome: EffectOutcome | None
    output: Any
    superseded: bool  # the run has an effect after this one
    rebased: bool  # resumed on a newer version: the request may differ
    attempts: int
    deadline_at: datetime | None
    now: datetime


@dataclass(frozen=True, slots=True)
class _Attempt:
    """A try just started: its number and its deadline."""

    attempts: int
    deadline_at: datetime


@dataclass(frozen=True, slots=True)
class _Standing:
    """The outcome standing on an action visit (None: no try has answered), and the try under way."""

    outcome: EffectOutcome | None
    output: Any
    attempts: int | None = None


@dataclass(frozen=True, slots=True)
class Opened:
    """A row found or made: its key, and either a try to make (`attempt`, with its deadline), the outcome
    that stands, or (`wait_s`) how long until the deadline of a try still under way has passed."""

    key: str
    attempt: int | None
    outcome: str | None = None
    output: dict[str, Any] | None = None
    deadline_at: datetime | None = None
    wait_s: float | None = None


class LateResult(ClaimLost):
    """This try's answer came after a later try had started: kept and journaled, it changes nothing."""


def new_key(run_id: int, visit: int) -> str:
    """A key readable in a provider's logs (run and visit) and unique across databases (random tail).

    The random tail is why a run 1 of a rebuilt database never presents the key of an old run 1.
    """
    return f"fy-{run_id}-{visit}-{secrets.token_hex(6)}"


def request_digest(action_type: str, config: dict[str, Any]) -> str:
    text = json.dumps({"type": action_type, "config": config}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


class EffectLog:
    def __init__(self, pool: AsyncConnectionPool[Any]) -> None:
        self.pool = pool

    async def open(
        self, run_id: int, request: ActionRequest, allow_s: float, *, again: bool = False
    ) -> Opened:
        """Find or write the visit's row; commit a new try on it (its deadline `allow_s` seconds on), give
        back the outcome that stands, or say how long a try still under way may yet answer. `again`: an
        error stands only until this try, whatever effects came after it."""
        digest = request_digest(request.type, request.config)
        where = {"run_id": run_id, "visit": request.visit}
        redacted = Jsonb(redact_request(request.type, request.config))
        async with self.pool.connection() as conn, conn.transaction():
            await conn.execute(
                QUERIES["open_effect"],
                {
                    **where,
                    "node": request.node,
                    "type": request.type,
                    "key": new_key(run_id, request.visit),
                    "digest": digest,
                    "request": redacted,
                },
            )
            locked = await one(conn, _Locked, QUERIES["lock_effect"], where)
            assert locked is not None, "written or found, and runs are never swept mid-walk"
            node, recorded_digest, key, outcome, output = (
                locked.node, locked.digest, locked.key, locked.outcome, locked.output
            )  # fmt: skip
            superseded, rebased, attempts, deadline, now = (
                locked.superseded, locked.rebased, locked.attempts, locked.deadline_at, locked.now
            )  # fmt: skip
            if node != request.node or (recorded_digest != digest and not rebased):
                # The walk asks something else at a visit that already acted: a bug, never guessed past.
                # (A run resumed on a newer version may ask something else of a visit that had no success.)
                raise WaitFailed(code="action_effect_mismatch", visit=request.visit, recorded=node)
            if outcome == "out" or (outcome == "error" and superseded and not again):
                return Opened(key, None, outcome, output)
            if outcome is None and attempts > 0 and deadline is not None and deadline > now:
                # A try whose worker lost its claim may still be in flight: wait out its deadline.
                return Opened(key, None, wait_s=(deadline - now).total_seconds())
            params = {**where, "allow_s": allow_s, "digest": digest, "request": redacted}
            attempt = await one(conn, _Attempt, QUERIES["start_attempt"], params)
            assert attempt is not None
            return Opened(key, attempt.attempts, deadline_at=attempt.deadline_at)

    async def complete(
        self,
        run_id: int,
        request: ActionRequest,
        opened: Opened,
        outcome: str,
        output: dict[str, Any],
    ) -> tuple[str, dict[str, Any]]:
        """Write a try's outcome; the outcome that stands (this one, or one written before it).

        A try that answers after a later try has started changes nothing: its answer is kept in
        `late_results`, journaled as `late_result_ignored`, and `LateResult` ends this walk.
        """
        assert opened.attempt is not None
        visit = request.visit
        params = {"run_id": run_id, "visit": visit, "attempt": opened.attempt, "outcome": outcome}
        async with self.pool.connection() as conn:
            standing = await one(
                conn, _Standing, QUERIES["complete_effect"], {**params, "output": Jsonb(output)}
            )
            if standing is None:
                standing = await one(conn, _Standing, QUERIES["effect_outcome"], params)
                if standing is not None and standing.attempts != opened.attempt:
                    await self._keep_late(conn, run_id, request, opened, outcome, output)
                    raise LateResult(f"run {run_id} visit {visit}: attempt {opened.attempt} answered late")
        if standing is None or standing.outcome is None:
            raise EffectInDoubt(f"run {run_id} visit {visit}: another try is under way")
        return standing.outcome, dict(standing.output)

    async def keep_late(
        self, run_id: int, request: ActionRequest, opened: Opened, outcome: str, output: dict[str, Any]
    ) -> None:
        """Keep the answer of a try given up at its timeout, which came while it was still listened to:
        with the effect, journaled as `action_answered_late`; nothing else of the run changes (its walk
        went on with the timeout). Nothing is kept when the run is gone (swept) or a later attempt of the
        visit has started: that attempt's worker then found this one's deadline passed, and its own
        answer, or the timeout it wrote, is what `complete` keeps of this attempt."""
        assert opened.attempt is not None
        status = output.get("status")
        line = JournalLine(
            code="action_answered_late",
            node=request.node,
            visit=request.visit,
            data={"attempt": opened.attempt, "status": status if isinstance(status, int) else ""},
        )
        async with self.pool.connection() as conn:
            await self._keep_late(
                conn, run_id, request, opened, outcome, output, line, "keep_answer_after_timeout"
            )

    async def _keep_late(
        self,
        conn: Any,
        run_id: int,
        request: ActionRequest,
        opened: Opened,
        outcome: str,
        output: dict[str, Any],
        line: JournalLine | None = None,
        statement: str = "keep_late_result",
    ) -> None:
        params = {
            "run_id": run_id,
            "visit": request.visit,
            "attempt": opened.attempt,
            "outcome": outcome,
            "output": Jsonb(output),
            "deadline_at": opened.deadline_at,
        }
        async with conn.transaction():
            # The node of the effect kept late; None (no row) when the effect is gone (its run swept).
            node = await scalar(conn, QUERIES[statement], params)
            if node is not None:
                if line is None:
                    error = output.get("code") if outcome == "error" else None
                    data = {
                        "attempt": opened.attempt,
                        "outcome": outcome,
                        "error": error if isinstance(error, str) else "",
                    }
                    line = JournalLine(
                        code="late_result_ignored", node=request.node, visit=request.visit, data=data
                    )
                await append_journal(conn, run_id, [line])
