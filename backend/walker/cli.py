"""`flowyard walk FLOW.json [--input JSON] [--answer NODE=ANSWER ...] [--json]`.

Walks a flow file in memory from its trigger, with no database and no side effects: an approval takes
the next `--answer` given for its node (approve, reject or timeout), a wait_event too (the name of one
of its events, or timeout; the event carries no payload), a delay passes at once, an action is journaled
as what would be sent (`action_requested`) and follows `out`. At every pause the continuation is frozen
to JSON text and thawed again before the walk goes on, which proves the round trip a worker relies on.

Exit codes: 0 when the run succeeded, or is waiting at an approval or a wait_event that no `--answer` is
left for;
1 when the run failed, or the flow has findings (printed as `flowyard check` prints them); 2 when the
command cannot start: an unreadable file, a file or `--input` that is not JSON, a malformed `--answer`.

Examples:
    >>> run_walk("/nonexistent/flow.json", input_text=None, answers=[], as_json=True)
    2
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, cast

from backend.config import DEFAULT_MAX_FINDINGS
from backend.console import InputRefused, read_input
from backend.graph import check_flow

# The file is read exactly as `flowyard check` reads it (size, encoding, strict JSON, duplicate keys).
from backend.graph.cli import FlowFileUnreadable, print_findings, read_flow_file, write_line
from backend.graph.durations import check_moment, parse_moment
from backend.graph.model import Flow
from backend.i18n.catalogs import message
from backend.walker.answers import refusal
from backend.walker.errors import CodedError
from backend.walker.requests import ApprovalRequest, DelayRequest, EventRequest, Request
from backend.walker.sizes import DEFAULT_LIMITS, JournalBudget, Limits
from backend.walker.step import JournalLine, Resume, Status
from backend.walker.walk import walk

# What follows NODE= : an approval's answer or an event's name (the flow format's rule for event names).
ANSWER_WORD = re.compile(r"[a-z][a-z0-9_]{0,63}")


class _Refused(CodedError):
    """The command cannot start; its sentence goes to stderr and the exit code is 2."""


def _read_answers(answers: Sequence[str], flow: Flow) -> list[tuple[str, str]]:
    """The answers as (node, outcome), in the order given; each must name an approval or a wait_event
    that can take it (answers.py)."""
    queued: list[tuple[str, str]] = []
    for answer in answers:
        node_id, _, outcome = answer.partition("=")
        if not node_id or not ANSWER_WORD.fullmatch(outcome):
            raise _Refused(code="walk_answer_invalid", answer=answer)
        why = refusal(flow, node_id, outcome)
        if why is not None:
            code = {
                "not_answerable": "walk_answer_not_approval",
                "outcome_unknown": "walk_answer_invalid",
                "cannot_time_out": "walk_answer_cannot_time_out",
                "event_unknown": "walk_answer_event_unknown",
                "event_cannot_time_out": "walk_answer_event_cannot_time_out",
            }[why]
            params = {"answer": answer} if why == "outcome_unknown" else {"answer": answer, "node": node_id}
            raise _Refused(code=code, **params)
        queued.append((node_id, outcome))
    return queued


@dataclass(frozen=True, slots=True)
class Walked:
    """A walk taken as far as the answers go: its status, error, visits and journal, and the pauses it
    still waits on (node, visit), in branch order, when `waiting`."""

    status: Status
    error: str | None
    visits: list[str]
    journal: list[JournalLine]
    pending: tuple[tuple[str, int], ...]


def walk_answering(
    flow: Flow,
    trigger: Any,
    answers: Sequence[tuple[str, str]] | Mapping[str, Sequence[str]],
    limits: Limits,
    budget: JournalBudget | None = None,
) -> Walked:
    """Walk on while a pending pause can be answered; `budget`, when given, bounds the whole journal.

    Delays pass and actions follow `out` at once, the first pending one first. An approval or a
    wait_event takes the first answer left, in the order given, for its node; inside a parallel several
    of them wait at once, and the answers decide them in the order they were given. With no answer left
    for any pending one, the walk ends `waiting`. Answers given by node (a mapping) are taken node
    after node.
    """
    if isinstance(answers, Mapping):
        left = [(node, outcome) for node, outcomes in answers.items() for outcome in outcomes]
    else:
        left = list(answers)
    visits: list[str] = []
    journal: list[JournalLine] = []
    step = walk(flow, None, trigger=trigger, limits=limits, budget=budget)
    open_requests: dict[tuple[str, int], Request] = {}
    while True:
        visits += step.visits
        journal += step.journal
        if step.status != "waiting":
            return Walked(step.status, step.error, visits, journal, ())
        open_requests.update(((r.node, r.visit), r) for r in step.requests)
        pending = [open_requests[at] for at in step.pending]
        resume = _next_resume(pending, left)
        if isinstance(resume, JournalLine):
            journal.append(resume)
            return Walked("failed", str(resume.data["error"]), visits, journal, ())
        if resume is None:
            return Walked("waiting", None, visits, journal, step.pending)
        del open_requests[(resume.node, resume.visit)]
        # The next stretch starts from the JSON text, never from the dict: that is the round trip.
        continuation = json.loads(json.dumps(step.continuation))
        step = walk(flow, continuation, resume=resume, limits=limits, budget=budget)


def _next_resume(pending: list[Request], left: list[tuple[str, str]]) -> Resume | JournalLine | None:
    """The pause to answer next (a delay or action first, else the first answer given for a pending
    approval or wait_event, which is used up), a delay's refusal, or None when no pause can be answered."""
    for request in pending:
        if isinstance(request, DelayRequest):
            refused = _until_refused(request)
            return refused or Resume(request.node, request.visit, "passed")
        if not isinstance(request, (ApprovalRequest, EventRequest)):
            return Resume(request.node, request.visit, "out")
    answerable = {request.node: request for request in pending}
    for place, (node, outcome) in enumerate(left):
        if node in answerable:
            del left[place]
            request = answerable[node]
            # An event's payload is its node's output; a walk's event carries none (`{{paid.amount}}`
            # is missing), as a timeout leaves none.
            output = {"outcome": outcome} if isinstance(request, ApprovalRequest) else {}
            return Resume(request.node, request.visit, outcome, output)
    return None


def _walk_through(
    flow: Flow, trigger: Any, answers: Mapping[str, Sequence[str]], limits: Limits
) -> tuple[Status, str | None, list[str], list[JournalLine], str | None]:
    """Walk on while every pause has an answer: the status, error, visits, journal, and the node waited at
    (the first pending one)."""
    walked = walk_answering(flow, trigger, answers, limits)
    waiting_at = walked.pending[0][0] if walked.pending else None
    return walked.status, walked.error, walked.visits, walked.journal, waiting_at


# The editor's sample walk (POST /api/flows/walk) walks through the same way.
walk_through = _walk_through


def _until_refused(request: DelayRequest) -> JournalLine | None:
    """The failure the worker's driver gives a delay's `until` that is no timestamp, or is further ahead
    than a run may wait; None when it would wait (here, it passes at once)."""
    if request.until is None:
        return None
    try:
        moment = parse_moment(request.until)
    except ValueError:
        data = {"error": "delay_until_invalid", "until": request.until}
    else:
        try:
            check_moment(moment, datetime.now(UTC))
            return None
        except ValueError:
            data = {"error": "duration_invalid", "duration": request.until}
    return JournalLine(code="run_failed", node=request.node, visit=request.visit, data=data)


def _say(*, code: str, params: Mapping[str, Any], context: Mapping[str, Any] | None = None) -> str:
    """The English sentence for a reason code; until the catalog has one, the code and its details.

    `context` (a journal line's node and visit) fills the sentence's placeholders but, as the line
    already shows it, is left out of the fallback.
    """
    sentence = message(code, "en", **(context or {}), **params)
    if sentence != code:
        return sentence
    details = ", ".join(f"{key}={json.dumps(value, ensure_ascii=False)}" for key, value in params.items())
    return f"{code} ({details})" if details else code


def _sentence(line: JournalLine) -> str:
    return _say(code=line.code, params=line.data, context={"node": line.node, "visit": line.visit})


def walk_command(args: Any) -> int:
    """`flowyard walk`, as backend/cli.py registers it."""
    return run_walk(
        args.flow,
        input_text=args.input,
        answers=args.answer,
        as_json=args.json,
        limits=args.settings.limits,
        max_findings=args.settings.max_findings,
    )


def run_walk(
    path: str,
    *,
    input_text: str | None,
    answers: list[str],
    as_json: bool,
    limits: Limits = DEFAULT_LIMITS,
    max_findings: int = DEFAULT_MAX_FINDINGS,
) -> int:
    """Walk the flow in `path` within `limits` and print the result; the exit code (0, 1 or 2) as the
    module says."""
    try:
        document = read_flow_file(path)
    except FlowFileUnreadable as unreadable:
        params = {"path": path, **unreadable.params}
        write_line(sys.stderr, f"flowyard walk: {_say(code=unreadable.code, params=params)}")
        return 2
    try:
        trigger = read_input(input_text)
        findings, warnings = check_flow(document, limit=max_findings, now=datetime.now(UTC))
        if findings:
            print_findings(path, findings, as_json=as_json, warnings=warnings)
            return 1
        flow = Flow.load(cast(Mapping[str, Any], document))  # no findings: it is a flow document
        queued = _read_answers(answers, flow)
    except (_Refused, InputRefused) as refused:
        write_line(sys.stderr, f"flowyard walk: {_say(code=refused.code, params=refused.detail)}")
        return 2
    walked = walk_answering(flow, trigger, queued, limits)
    if as_json:
        lines = [{**line.to_json(), "message": _sentence(line)} for line in walked.journal]
        answer = {"status": walked.status, "visits": walked.visits, "error": walked.error, "journal": lines}
        answer["pending"] = [{"node": node, "visit": visit} for node, visit in walked.pending]
        write_line(sys.stdout, json.dumps(answer))
    else:
        for line in walked.journal:
            write_line(sys.stdout, f"{line.visit or '':>4}  {line.node or '':<16} {_sentence(line)}")
        for node, _ in walked.pending:
            waits_for_event = flow.nodes[node].type == "wait_event"
            code = "walk_waiting_event" if waits_for_event else "walk_waiting"
            write_line(sys.stdout, _say(code=code, params={"node": node}))
    return 1 if walked.status == "failed" else 0
