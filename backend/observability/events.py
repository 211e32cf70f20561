"""The hooks the rest of the backend calls where something happens: each counts it and logs one line.

Every hook takes ids, codes and kinds, never payloads: a log line or a label cannot leak a secret that
was never handed to it. Durations are measured from a `time.perf_counter()` the caller took.
"""

from __future__ import annotations

import logging
from time import perf_counter
from typing import Any

from backend.observability import metrics
from backend.observability.context import bind
from backend.walker import ActionRequest, Step

log = logging.getLogger("flowyard.events")

# Run statuses that end a run; "waiting" is a pause.
_ENDED = ("succeeded", "failed")


def claimed(count: int) -> None:
    if count:
        metrics.CLAIMS.inc(count)


def claim_started(run_id: int, visit: int | None, kind: str, attempt: int, worker: str) -> float:
    """Bind the claim's ids to its task's log lines; the time the resume started."""
    bind(run=run_id, visit=visit, worker=worker)
    log.info("wait claimed", extra={"kind": kind, "attempt": attempt})
    return perf_counter()


def walked(started: float) -> None:
    metrics.WALK_SECONDS.observe(perf_counter() - started)


def resume_written(step: Step | None, started: float) -> None:
    """The outcome of a claim is written: the run paused again, or ended (None: parked as it was)."""
    status, error = (step.status, step.error) if step else (None, None)
    elapsed = perf_counter() - started
    metrics.RESUMES.labels("written").inc()
    metrics.RESUME_SECONDS.observe(elapsed)
    if status in _ENDED:
        metrics.RUNS_ENDED.labels(status, error or "").inc()
        log.info("run ended", extra={"status": status, "code": error, "ms": round(elapsed * 1000, 1)})
    else:
        log.info("run paused" if status else "run parked again", extra={"ms": round(elapsed * 1000, 1)})


def resume_failed(code: str, final: bool) -> None:
    """A resume failed with reason `code`; `final`: it was the last attempt and the run stopped (it has not
    ended: a person resumes or ends it)."""
    metrics.RESUMES.labels("failed").inc()
    metrics.RESUME_FAILURES.labels(code).inc()
    if final:
        metrics.RUNS_STOPPED.labels(code).inc()
    log.warning("resume failed", extra={"code": code, "final": final})


def claim_lost() -> None:
    metrics.RESUMES.labels("lost").inc()


def action_sent(request: ActionRequest, outcome: str, started: float, output: Any) -> None:
    """An action left and came back `outcome` ("out" or "error"; an error's output names its code)."""
    elapsed = perf_counter() - started
    metrics.ACTION_SECONDS.labels(request.type, outcome).observe(elapsed)
    code = output.get("code") if outcome == "error" and isinstance(output, dict) else None
    fields = {"node": request.node, "visit": request.visit, "action": request.type, "outcome": outcome}
    log.info("action sent", extra={**fields, "code": code, "ms": round(elapsed * 1000, 1)})


def approval_decided(approval_id: int, run_id: int | None, outcome: str) -> None:
    """A person decided, or a deadline passed (`outcome` is then the deadline's)."""
    metrics.APPROVALS_DECIDED.labels(outcome).inc()
    bind(run=run_id)
    log.info("approval decided", extra={"approval": approval_id, "outcome": outcome})


def request_served(method: str, route: str, status: int, started: float) -> None:
    elapsed = perf_counter() - started
    metrics.REQUEST_SECONDS.labels(route, method, str(status)).observe(elapsed)
    log.info(
        "request served",
        extra={"method": method, "route": route, "status": status, "ms": round(elapsed * 1000, 1)},
    )
