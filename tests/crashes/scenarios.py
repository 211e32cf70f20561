"""The crash corpus: flows that together use every node type, each with a script of what happens to it.

A scenario's run is started by the test; what follows is a script of steps, each at a time (minutes after
the run started, by a clock the script moves): `drain` serves what is due with a worker whose actions are
sent for real, `decide` records a decision on the n-th approval of a node, `cancel` cancels the run,
`end` ends a stopped run as a person would, `post` sends the outside event named `node` under the run's
`order` key.

`play` runs a script in one process. A crash test runs it once in a process armed to exit at its K-th
commit (backend/store/commits.py), then plays the whole script again in a fresh process, unarmed: the
fresh worker takes over whatever the dead one left, and a step that already happened is refused as a
person retrying it would be (`approval_already_decided`, a cancel of an ended run, `run_not_stopped`).
Before the takeover, the dead process's claims are given back by the statement a worker runs once a
lease has run out (`release_expired_claims`), asked at a moment past every lease: the scripts' clock does
not move for it, so a deadline set by the takeover is the one the crash-free run set, to the microsecond.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from backend.actions import ActionSender, ActionSettings
from backend.actions.destinations import AllowList
from backend.approvals.decisions import ApprovalDecisions, DecisionRefused
from backend.approvals.queue_port import ApprovalsPort
from backend.events.service import deliver
from backend.node_types import PORTS
from backend.queue.commands import open_pool
from backend.queue.queries import QUERIES
from backend.queue.runs import DecisionStands, cancel_run
from backend.queue.stops import StopRefused, end_run
from backend.queue.worker import Worker

DECIDER = "crash_ann"
SERVER = "crash-agent"
TEMPLATE = "restart"
PAST_EVERY_LEASE = timedelta(days=365)
# The receiver answers at once, but a machine at a load of 20 once kept a request from being answered
# within 5 s: a timeout, a retry, other visits than the crash-free run's. A takeover waits out a dead try's
# deadline (its timeout plus the margin) in real time; the sweep passes that deadline for it once the
# crashed process is gone (`Sweep.trial`), so a long timeout costs nothing (the waiting itself is
# tests/actions/test_deadlines.py's).
LOCAL = ActionSettings(allow=AllowList.parse("127.0.0.1"), timeout_s=60.0, attempt_margin_s=5.0)


@dataclass(frozen=True, slots=True)
class Step:
    at: int  # minutes after the run's start
    do: str  # drain, decide, cancel, end (a person ends the stopped run), post (an outside event)
    node: str | None = None
    nth: int = 0  # which approval of `node`, in visit order
    outcome: str | None = None
    by: str = DECIDER  # who decides (a second approver, a delegate)


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    document: dict[str, Any]
    steps: tuple[Step, ...]
    input: dict[str, Any] = field(default_factory=dict)


def _flow(name: str, *nodes: dict[str, Any], wires: list[dict[str, str]]) -> dict[str, Any]:
    trigger = {"id": "start", "type": "trigger", "config": {"kind": "manual"}}
    return {"format": "flowyard.flow/1", "name": name, "nodes": [trigger, *nodes], "wires": wires}


def _wire(source: str, target: str, port: str | None = None) -> dict[str, str]:
    return {"from": source, "to": target} | ({"port": port} if port else {})


def _log(node_id: str, message: str) -> dict[str, Any]:
    return {"id": node_id, "type": "log", "config": {"message": message}}


def _ask(node_id: str, deadline: str | None = None, on_timeout: str | None = None) -> dict[str, Any]:
    # The runs are started by the one decider of the sweep: four eyes (issue 21) would refuse its decisions.
    config: dict[str, Any] = {"title": f"{node_id}?", "approvers": [], "allow_self_approval": True}
    if deadline:
        config |= {"deadline": deadline, "on_timeout": on_timeout}
    return {"id": node_id, "type": "approval", "config": config}


def _http(node_id: str, path: str) -> dict[str, Any]:
    url = "{{trigger.base}}" + path
    return {"id": node_id, "type": "http", "config": {"method": "POST", "url": url, "body": {"n": node_id}}}


def drain(at: int) -> Step:
    return Step(at, "drain")


def decide(at: int, node: str, outcome: str, nth: int = 0) -> Step:
    return Step(at, "decide", node=node, nth=nth, outcome=outcome)


# Each approval times out a different way: approve, reject, skip.
TIMEOUTS = Scenario(
    "approval_timeouts",
    _flow(
        "timeouts",
        _ask("a1", "PT1H", "approve"),
        _ask("a2", "PT1H", "reject"),
        _ask("a3", "PT1H", "skip"),
        _log("a1_yes", "a1 approved"),
        _log("a2_no", "a2 rejected"),
        _log("a2_yes", "a2 approved"),
        _log("after", "all asked"),
        wires=[
            _wire("start", "a1"),
            _wire("a1", "a1_yes", "approve"),
            _wire("a1_yes", "a2"),
            _wire("a2", "a2_yes", "approve"),
            _wire("a2", "a2_no", "reject"),
            _wire("a2_no", "a3"),
            _wire("a3", "after", "approve"),
        ],
    ),
    (drain(0), drain(60), drain(120), drain(180)),
)

# set, a delay, conditions on a value that is missing, and an end that fails the run on purpose.
DELAYS_AND_MISSING = Scenario(
    "delays_and_missing_values",
    _flow(
        "delays",
        {"id": "remember", "type": "set", "config": {"values": {"amount": "{{trigger.amount}}"}}},
        {"id": "wait", "type": "delay", "config": {"duration": "PT10M"}},
        {"id": "has_note", "type": "condition", "config": {"left": "{{trigger.note}}", "op": "exists"}},
        {
            "id": "missing_ne",
            "type": "condition",
            "config": {"left": "{{trigger.none}}", "op": "ne", "right": 1},
        },
        _log("noted", "note: {{trigger.note}}"),
        _log("no_note", "no note"),
        {"id": "stop", "type": "end", "config": {"status": "failed", "message": "stopped on purpose"}},
        _log("never", "not reached"),
        wires=[
            _wire("start", "remember"),
            _wire("remember", "wait"),
            _wire("wait", "has_note"),
            _wire("has_note", "noted", "true"),
            _wire("has_note", "no_note", "false"),
            _wire("no_note", "missing_ne"),
            _wire("missing_ne", "never", "true"),
            _wire("missing_ne", "stop", "false"),
        ],
    ),
    (drain(0), drain(10)),
    {"amount": 12},
)

# A foreach whose body sends an action and then waits.
FOREACH = Scenario(
    "foreach_action_delay",
    _flow(
        "foreach",
        {"id": "each", "type": "foreach", "config": {"items": "{{trigger.lines}}", "as": "line"}},
        _http("send", "/lines"),
        {"id": "pause", "type": "delay", "config": {"duration": "PT5M"}},
        _log("after", "all lines"),
        wires=[
            _wire("start", "each"),
            _wire("each", "send", "body"),
            _wire("send", "pause"),
            _wire("each", "after", "done"),
        ],
    ),
    (drain(0), drain(5), drain(10), drain(15)),
    {"lines": ["a", "b", "c"]},
)

# A repeat with an approval in its body, left by a break when it is rejected.
REPEAT = Scenario(
    "repeat_approval_break",
    _flow(
        "repeat",
        {
            "id": "again",
            "type": "repeat",
            "config": {"while": {"left": "{{trigger.go}}", "op": "eq", "right": 1}},
        },
        _ask("ask"),
        _log("yes", "once more"),
        {"id": "stop", "type": "break", "config": {}},
        _log("after", "left the loop"),
        wires=[
            _wire("start", "again"),
            _wire("again", "ask", "body"),
            _wire("ask", "yes", "approve"),
            _wire("ask", "stop", "reject"),
            _wire("again", "after", "done"),
        ],
    ),
    (
        drain(0),
        decide(1, "ask", "approved", 0),
        drain(1),
        decide(2, "ask", "approved", 1),
        drain(2),
        decide(3, "ask", "rejected", 2),
        drain(3),
    ),
    {"go": 1},
)

# http, notify and command, each with an error port, one failing into it; every one sends for real.
ACTIONS = Scenario(
    "actions_with_error_ports",
    _flow(
        "actions",
        _http("pay", "/pay"),
        _http("broken", "/fail"),
        _log("handled", "handled {{broken.code}}"),
        {
            "id": "tell",
            "type": "notify",
            "config": {"channel": "webhook", "to": "{{trigger.base}}/hook", "message": "paid"},
        },
        {
            "id": "cmd",
            "type": "command",
            "config": {"server": SERVER, "template": TEMPLATE, "args": {"unit": "web"}},
        },
        _log("done", "exit {{cmd.body.exit_code}}"),
        _log("unreached", "not here"),
        wires=[
            _wire("start", "pay"),
            _wire("pay", "broken"),
            _wire("pay", "unreached", "error"),
            _wire("broken", "unreached"),
            _wire("broken", "handled", "error"),
            _wire("handled", "tell"),
            _wire("tell", "cmd"),
            _wire("tell", "unreached", "error"),
            _wire("cmd", "done"),
            _wire("cmd", "unreached", "error"),
        ],
    ),
    (drain(0),),
)

# An action with no error port that fails: the run stops there (issue 20), after one that went out, and a
# person ends it: it fails, and a try that died without its outcome is closed (queue/runs.py).
UNHANDLED = Scenario(
    "action_without_error_port",
    _flow(
        "unhandled",
        _http("first", "/pay"),
        _http("broken", "/fail"),
        _log("unreached", "not here"),
        wires=[_wire("start", "first"), _wire("first", "broken"), _wire("broken", "unreached")],
    ),
    # the worker's backoff: 1, 2, 4 and 8 minutes, then the fifth failure stops the run; the last drains
    # leave room for a takeover whose crashed claim counted as an attempt
    (drain(0), drain(1), drain(3), drain(7), drain(15), drain(31), drain(63), Step(64, "end")),
)

# Cancelled while it waits, after an action went out.
CANCEL = Scenario(
    "cancel_in_the_middle",
    _flow(
        "cancel",
        _http("pay", "/pay"),
        _ask("ask", "PT2H", "approve"),
        _log("after", "not reached"),
        wires=[_wire("start", "pay"), _wire("pay", "ask"), _wire("ask", "after", "approve")],
    ),
    (drain(0), Step(30, "cancel"), drain(60)),
)

# A decision a minute before the deadline resumed only after it (the decision stands), and a decision
# that arrives exactly at the deadline (refused: the timeout wins).
RACE = Scenario(
    "decision_races_deadline",
    _flow(
        "race",
        _ask("first", "PT1H", "reject"),
        _ask("second", "PT1H", "approve"),
        _log("first_no", "first timed out"),
        _log("second_yes", "second approved"),
        _log("second_no", "second rejected"),
        wires=[
            _wire("start", "first"),
            _wire("first", "second", "approve"),
            _wire("first", "first_no", "reject"),
            _wire("second", "second_yes", "approve"),
            _wire("second", "second_no", "reject"),
        ],
    ),
    (drain(0), decide(59, "first", "approved"), drain(60), decide(120, "second", "rejected"), drain(120)),
)

# Issue 24 (h24rt): two branches side by side, an approval in one and an action then a delay in the other,
# one wait row holding both pauses; after `done`, two wires from one port meet at a join.
PARALLEL = Scenario(
    "parallel_approval_and_delay",
    _flow(
        "parallel",
        {"id": "both", "type": "parallel", "config": {"wait": "all"}},
        _ask("legal", "PT1H", "reject"),
        _http("deposit", "/pay"),
        {"id": "cool", "type": "delay", "config": {"duration": "PT10M"}},
        _log("notify_a", "legal {{legal.outcome}}"),
        _log("notify_b", "deposit {{deposit.status}}"),
        {"id": "meet", "type": "join", "config": {"wait": "all"}},
        _log("after", "both told"),
        wires=[
            _wire("start", "both"),
            _wire("both", "legal", "branches"),
            _wire("both", "deposit", "branches"),
            _wire("deposit", "cool"),
            _wire("both", "notify_a", "done"),
            _wire("both", "notify_b", "done"),
            _wire("notify_a", "meet"),
            _wire("notify_b", "meet"),
            _wire("meet", "after"),
        ],
    ),
    (drain(0), decide(5, "legal", "approved"), drain(5), drain(10)),
)


def post(at: int, event: str) -> Step:
    return Step(at, "post", node=event)


# wait_event three ways: an event that comes while the run waits, one that comes before the run reaches
# its node (kept, consumed at the park), and a timeout.
EVENTS = Scenario(
    "events_waited_kept_and_timed_out",
    _flow(
        "events",
        *(
            {
                "id": wait,
                "type": "wait_event",
                "config": {"events": [event], "key": "{{trigger.order}}", "timeout": "PT5M"},
            }
            for wait, event in (("paid", "paid"), ("shipped", "shipped"), ("never", "never"))
        ),
        {"id": "cool", "type": "delay", "config": {"duration": "PT10M"}},
        _log("got_paid", "paid {{paid.amount}}"),
        _log("got_shipped", "shipped {{shipped.amount}}"),
        _log("late", "timed out"),
        _log("too_late", "unexpected timeout"),
        wires=[
            _wire("start", "paid"),
            _wire("paid", "got_paid", "paid"),
            _wire("paid", "too_late", "timeout"),
            _wire("got_paid", "cool"),
            _wire("cool", "shipped"),
            _wire("shipped", "got_shipped", "shipped"),
            _wire("got_shipped", "never"),
            _wire("never", "late", "timeout"),
        ],
    ),
    (drain(0), post(1, "paid"), drain(1), post(2, "shipped"), drain(11), drain(17)),
)

CORPUS: tuple[Scenario, ...] = (
    TIMEOUTS,
    DELAYS_AND_MISSING,
    FOREACH,
    REPEAT,
    ACTIONS,
    UNHANDLED,
    CANCEL,
    RACE,
    PARALLEL,
    EVENTS,
)
BY_NAME = {scenario.name: scenario for scenario in CORPUS}


def node_types(corpus: tuple[Scenario, ...] = CORPUS) -> set[str]:
    return {node["type"] for scenario in corpus for node in scenario.document["nodes"]}


assert node_types() == set(PORTS), f"the corpus misses {set(PORTS) - node_types()}"


async def play(url: str, run_id: int, scenario: Scenario, started: datetime, takeover: bool) -> list[str]:
    """Play `scenario`'s script on `run_id` in this process; what each step said (for the test to read).

    `takeover`: first give back the claims a dead process left, as its lease running out would."""
    said: list[str] = []
    pool = open_pool(url, size=4)
    await pool.open()
    actions = ActionSender(pool, LOCAL)  # one for the process, as a worker process has
    try:
        if takeover:
            async with pool.connection() as conn:
                await conn.execute(QUERIES["release_expired_claims"], {"now": started + PAST_EVERY_LEASE})
        for index, step in enumerate(scenario.steps):
            at = started + timedelta(minutes=step.at)
            if step.do == "drain":
                moment = at

                def clock(moment: datetime = moment) -> datetime:
                    return moment

                worker = Worker(
                    pool,
                    clock=clock,
                    name=f"crash-{os.getpid()}-{index}",
                    concurrency=2,
                    actions=actions,
                    approvals=ApprovalsPort(clock),
                    retention=None,
                )
                await worker.drain()
                said.append("drained")
            elif step.do == "decide":
                assert step.node is not None and step.outcome is not None
                said.append(await _decide(pool, run_id, step, at))
            elif step.do == "post":
                assert step.node is not None
                said.append(await _post(pool, run_id, step.node, at))
            elif step.do == "end":
                async with pool.connection() as conn:
                    try:
                        await end_run(conn, run_id, by=DECIDER, approvals=ApprovalsPort())
                        said.append("ended")
                    except StopRefused as refused:
                        said.append(refused.code)
            elif step.do == "cancel":
                async with pool.connection() as conn:
                    try:
                        said.append(
                            "cancelled"
                            if await cancel_run(conn, run_id, by=DECIDER, approvals=ApprovalsPort())
                            else "ended"
                        )
                    except DecisionStands:
                        said.append("decision_stands")
    finally:
        await pool.close()
    return said


async def _post(pool: Any, run_id: int, event: str, at: datetime) -> str:
    """Send `event` under the run's key; a replayed post is a second event, which nobody takes (each event
    is consumed once, and the pause it would answer was answered by the first)."""
    async with pool.connection() as conn:
        cur = await conn.execute("SELECT input ->> 'order' FROM runs WHERE id = %s", (run_id,))
        row = await cur.fetchone()
        assert row is not None
        delivery = await deliver(
            conn,
            event,
            str(row[0]),
            {"amount": 1},
            keep=timedelta(days=1),
            max_payload_bytes=1024,
            sent_by=DECIDER,
            now=at,
        )
        return "delivered" if delivery.delivered else "kept"


async def _decide(pool: Any, run_id: int, step: Step, at: datetime) -> str:
    async with pool.connection() as conn:
        cur = await conn.execute(
            "SELECT id FROM approvals WHERE run_id = %s AND node = %s ORDER BY visit OFFSET %s LIMIT 1",
            (run_id, step.node, step.nth),
        )
        row = await cur.fetchone()
        if row is None:
            return "approval_missing"
        try:
            await ApprovalDecisions(lambda: at).decide(
                conn, row[0], str(step.outcome), by=step.by, comment=None
            )
        except DecisionRefused as refused:
            return refused.code
        return "decided"


# ---------------------------------------------------------------------------------------------------------
# Undo, quorum, reminders and delegation (issue 19): scenarios whose people the sweep makes
# (tests/crashes/sweep.py, `Sweep._prepare`): SECOND decides beside DECIDER, SEAT is an approver who
# delegated to DELEGATE, REMINDED has an address and never decides. Kept in one block, added to the corpus
# at its end.

SECOND = "crash_bob"
SEAT = "crash_cy"
DELEGATE = "crash_dan"
REMINDED = "crash_eve"


def _approval(node_id: str, approvers: list[str], **rules: Any) -> dict[str, Any]:
    config: dict[str, Any] = {"title": f"{node_id}?", "approvers": approvers, "allow_self_approval": True}
    return {"id": node_id, "type": "approval", "config": config | rules}


# An action with an undo sent, then the run cancelled while it waits at an approval: the undo goes out
# (its own effect row, at the negative visit) and only then does the run end cancelled.
UNDO = Scenario(
    "undo_on_cancel",
    _flow(
        "undo",
        {
            "id": "reserve",
            "type": "http",
            "config": {
                "method": "POST",
                "url": "{{trigger.base}}/reserve",
                "body": {"n": "reserve"},
                "undo": {
                    "method": "POST",
                    "url": "{{trigger.base}}/release",
                    "body": {"status": "{{result.status}}"},
                },
            },
        },
        _ask("ask", "PT2H", "approve"),
        _log("after", "not reached"),
        wires=[_wire("start", "reserve"), _wire("reserve", "ask"), _wire("ask", "after", "approve")],
    ),
    (drain(0), Step(30, "cancel"), drain(30), drain(60)),
)

# Two approvers of a quorum of two: the first vote settles nothing, the second approves.
QUORUM = Scenario(
    "quorum_of_two",
    _flow(
        "quorum",
        _approval(
            "ask", [f"user:{DECIDER}", f"user:{SECOND}"], quorum=2, deadline="PT1H", on_timeout="reject"
        ),
        _log("yes", "both approved"),
        _log("no", "not both"),
        wires=[_wire("start", "ask"), _wire("ask", "yes", "approve"), _wire("ask", "no", "reject")],
    ),
    (
        drain(0),
        decide(5, "ask", "approved"),
        drain(5),
        Step(10, "decide", "ask", 0, "approved", SECOND),
        drain(10),
    ),
)

# An approval nobody decides: reminded at 10 and 20 minutes (a mail per approver and round), then timed
# out at its deadline; the drains at 15 and 30 owe nothing and write nothing.
REMINDERS = Scenario(
    "reminders_then_timeout",
    _flow(
        "reminders",
        _approval(
            "ask",
            [f"user:{REMINDED}"],
            remind_after=["PT10M", "PT20M"],
            deadline="PT40M",
            on_timeout="approve",
        ),
        _log("yes", "timed out into approve"),
        wires=[_wire("start", "ask"), _wire("ask", "yes", "approve")],
    ),
    (drain(0), drain(10), drain(15), drain(20), drain(30), drain(40)),
)

# An approver who delegated: the delegate's vote takes the approver's seat (on_behalf_of) and settles it.
DELEGATION = Scenario(
    "delegated_decision",
    _flow(
        "delegation",
        _approval("ask", [f"user:{SEAT}"]),
        _log("no", "the delegate rejected"),
        _log("yes", "the delegate approved"),
        wires=[_wire("start", "ask"), _wire("ask", "no", "reject"), _wire("ask", "yes", "approve")],
    ),
    (drain(0), Step(5, "decide", "ask", 0, "rejected", DELEGATE), drain(5)),
)

PEOPLE_AND_UNDO: tuple[Scenario, ...] = (UNDO, QUORUM, REMINDERS, DELEGATION)
CORPUS = (*CORPUS, *PEOPLE_AND_UNDO)
BY_NAME.update({scenario.name: scenario for scenario in PEOPLE_AND_UNDO})

# Issue 35, item 2: an action failing with no error port in one branch retries that branch alone (a
# `retry` pause, 1, 2, 4 and 8 minutes on) while the other's approval is requested and its mail written;
# the fifth failure fails the run and closes the approval as run_failed.
BRANCH_RETRY = Scenario(
    "branch_action_retried_then_failed",
    _flow(
        "branch_retry",
        {"id": "both", "type": "parallel", "config": {"wait": "all"}},
        _approval("legal", [f"user:{REMINDED}"]),
        _http("pay", "/fail"),
        _log("paid", "not reached"),
        _log("after", "not reached"),
        wires=[
            _wire("start", "both"),
            _wire("both", "legal", "branches"),
            _wire("both", "pay", "branches"),
            _wire("pay", "paid"),
            _wire("both", "after", "done"),
        ],
    ),
    (drain(0), drain(1), drain(3), drain(7), drain(15)),
)
CORPUS = (*CORPUS, BRANCH_RETRY)
BY_NAME[BRANCH_RETRY.name] = BRANCH_RETRY
