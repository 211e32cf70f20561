"""A parallel's branches through the queue: several pauses of one run in its one wait row, each resumed
when it is due, several approvals of one run open at once, and the approvals a failed run or a cancelled
branch leaves closed (issue 24)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from backend.actions import ActionSettings
from backend.approvals.decisions import ApprovalDecisions, Decision
from backend.approvals.mail import ApprovalMailer
from backend.approvals.queue_port import ApprovalsPort
from backend.people.accounts import Grant, add_user
from backend.queue.commands import open_pool
from tests.actions.servers import RecordingServer, recording_server, smtp_server
from tests.actions.support import drain
from tests.support import Queue, flow

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "parallel-approvals.json"
CONTRACT = {"contract": "C-42", "supplier": "Acme", "amount": 50000, "currency": "EUR"}


def example() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    return document


@pytest.fixture
def receiver() -> Iterator[RecordingServer]:
    with recording_server() as server:
        yield server


def send_mails(queue: Queue, port: int) -> int:
    async def go() -> int:
        pool = open_pool(queue.url, size=2)
        await pool.open()
        try:
            settings = ActionSettings(smtp_host="127.0.0.1", smtp_port=port, timeout_s=60)
            return await ApprovalMailer(pool, settings, "https://flowyard.test").send_due()
        finally:
            await pool.close()

    return asyncio.run(go())


def people(queue: Queue) -> None:
    """Lea of Legal and Fin of Finance, with the decide right and an address (once per module)."""

    async def add(conn: Any) -> None:
        if await (await conn.execute("SELECT 1 FROM users WHERE name = 'lea'")).fetchone():
            return
        for name, group in (("lea", "legal"), ("fin", "finance")):
            email = f"{name}@example.test"
            await add_user(conn, name, grants=[Grant.parse("decide")], groups=[group], email=email)

    queue.aconn(add)


def decide(queue: Queue, run_id: int, node: str, outcome: str, by: str) -> Decision:
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s AND node = %s", run_id, node)
    assert row is not None, f"no approval at {node}"
    return queue.aconn(
        lambda conn: ApprovalDecisions(queue.clock).decide(conn, row[0], outcome, by=by, comment=None)
    )


def walk(queue: Queue) -> None:
    queue.clock.advance(timedelta(seconds=10))
    drain(queue)


def approvals(queue: Queue, run_id: int) -> list[tuple[str, str | None]]:
    rows = queue.all("SELECT node, outcome FROM approvals WHERE run_id = %s ORDER BY visit", run_id)
    return [(row[0], row[1]) for row in rows]


def pauses(queue: Queue, run_id: int) -> dict[str, Any]:
    row = queue.one("SELECT pauses FROM waits WHERE run_id = %s", run_id)
    assert row is not None
    return dict(row[0] or {})


@pytest.mark.parametrize("first", ["legal", "finance"])
def test_both_approvals_are_pending_together_and_either_order_pays_once(
    queue: Queue, receiver: RecordingServer, first: str
) -> None:
    people(queue)
    run_id = queue.start(queue.save(example()), input={**CONTRACT, "payment_url": f"{receiver.url}/pay"})
    walk(queue)
    assert approvals(queue, run_id) == [("legal", None), ("finance", None)], "two rows, both open"
    assert sorted(pauses(queue, run_id)) == ["finance@4", "legal@3"]
    wait = queue.one("SELECT kind, wake_at FROM waits WHERE run_id = %s", run_id)
    deadline = queue.one("SELECT min(deadline_at) FROM approvals WHERE run_id = %s", run_id)
    assert wait is not None and deadline is not None
    assert wait == ("approval", deadline[0]), "the wait is due at the earliest deadline"

    second = "finance" if first == "legal" else "legal"
    decide(queue, run_id, first, "approved", "lea" if first == "legal" else "fin")
    walk(queue)
    assert queue.status(run_id) == ("waiting", None)
    assert dict(approvals(queue, run_id))[second] is None
    assert list(pauses(queue, run_id)) == [f"{second}@{3 if second == 'legal' else 4}"]
    assert receiver.received == [], "nothing paid while one approval is open"

    decide(queue, run_id, second, "approved", "lea" if second == "legal" else "fin")
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert [r.path for r in receiver.received] == ["/pay"]
    assert receiver.received[0].json() == {
        "contract": "C-42",
        "amount": 50000,
        "currency": "EUR",
        "legal": "lea",
        "finance": "fin",
    }
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)
    codes = queue.codes(run_id)
    assert codes.count("wait_claimed") == 2 and codes.count("parallel_finished") == 1


def test_a_rejection_is_not_paid_and_the_other_branch_still_decides(
    queue: Queue, receiver: RecordingServer
) -> None:
    people(queue)
    run_id = queue.start(queue.save(example()), input={**CONTRACT, "payment_url": f"{receiver.url}/pay"})
    walk(queue)
    decide(queue, run_id, "legal", "rejected", "lea")
    walk(queue)
    assert queue.status(run_id) == ("waiting", None), "done waits for Finance too"
    decide(queue, run_id, "finance", "approved", "fin")
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert receiver.received == []
    visited = queue.all(
        "SELECT node FROM journal WHERE run_id = %s AND code = 'node_visited' ORDER BY seq", run_id
    )
    assert [row[0] for row in visited][-2:] == ["legal_ok", "legal_refused"]


def ask(node_id: str, **config: Any) -> dict[str, Any]:
    settings = {"title": f"{node_id}?", "approvers": [], "allow_self_approval": True, **config}
    return {"id": node_id, "type": "approval", "config": settings}


def note(node_id: str) -> dict[str, Any]:
    return {"id": node_id, "type": "log", "config": {"message": node_id}}


DELAY_AND_APPROVAL = flow(
    "start:trigger",
    {"id": "both", "type": "parallel", "config": {"wait": "all"}},
    ask("sign", deadline="P2D", on_timeout="reject"),
    {"id": "pause", "type": "delay", "config": {"duration": "PT1H"}},
    note("waited"),
    note("after"),
    wires="start>both both.branches>sign both.branches>pause pause>waited both.done>after",
)


def test_a_delay_in_one_branch_wakes_the_run_and_resumes_its_branch_without_touching_the_approval(
    queue: Queue,
) -> None:
    run_id = queue.start(queue.save(DELAY_AND_APPROVAL))
    walk(queue)
    parked = queue.clock.now
    wait = queue.one("SELECT kind, node, wake_at FROM waits WHERE run_id = %s", run_id)
    assert wait == ("delay", "pause", parked + timedelta(hours=1)), "wake_at: the delay's due time"
    due = pauses(queue, run_id)
    assert set(due) == {"sign@3", "pause@4"}
    assert due["sign@3"]["kind"] == "approval" and due["pause@4"]["kind"] == "delay"

    queue.clock.advance(timedelta(hours=1))
    walk(queue)
    assert queue.status(run_id) == ("waiting", None)
    row = queue.one("SELECT outcome, reminders_sent, deadline_at FROM approvals WHERE run_id = %s", run_id)
    assert row is not None and row[:2] == (None, 0), "the approval is untouched"
    wait = queue.one("SELECT kind, node, wake_at FROM waits WHERE run_id = %s", run_id)
    assert wait == ("approval", "sign", row[2]), "now the approval's deadline"
    assert list(pauses(queue, run_id)) == ["sign@3"]
    claimed = queue.all(
        "SELECT node, visit FROM journal WHERE run_id = %s AND code = 'wait_claimed' ORDER BY seq", run_id
    )
    assert claimed == [("pause", 4)], "only the due pause was resumed"
    assert "waited" in [r[0] for r in queue.all("SELECT node FROM journal WHERE run_id = %s", run_id)]

    queue.clock.advance(timedelta(days=2))
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert approvals(queue, run_id) == [("sign", "timed_out_rejected")]


FAILING = flow(
    "start:trigger",
    {"id": "both", "type": "parallel", "config": {"wait": "all"}},
    ask("sign"),
    {"id": "pause", "type": "delay", "config": {"duration": "PT1H"}},
    {"id": "each", "type": "foreach", "config": {"items": "{{trigger.lines}}", "as": "line"}},
    note("line"),
    note("after"),
    wires="start>both both.branches>sign both.branches>pause pause>each each.body>line both.done>after",
)


def test_a_branch_that_fails_fails_the_run_and_closes_the_other_branchs_approval(queue: Queue) -> None:
    run_id = queue.start(queue.save(FAILING), input={"lines": "not a list"})
    walk(queue)
    assert approvals(queue, run_id) == [("sign", None)]
    queue.clock.advance(timedelta(hours=1))
    walk(queue)
    assert queue.status(run_id) == ("failed", "foreach_items_invalid")
    row = queue.one("SELECT outcome, decided_by, decided_at FROM approvals WHERE run_id = %s", run_id)
    assert row is not None and row[:2] == ("run_failed", None) and row[2] is not None
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)


FIRST = flow(
    "start:trigger",
    {"id": "both", "type": "parallel", "config": {"wait": "first"}},
    ask("legal", approvers=["user:lea"], remind_after=["PT1H"]),
    ask("finance", approvers=["user:fin"], remind_after=["PT1H"]),
    note("after"),
    wires="start>both both.branches>legal both.branches>finance both.done>after",
)


def test_wait_first_closes_the_other_approval_as_branch_cancelled_and_its_mails_and_reminders_stop(
    queue: Queue,
) -> None:
    people(queue)
    run_id = queue.start(queue.save(FIRST))
    walk(queue)
    mails = queue.all(
        "SELECT a.node, m.status FROM approval_mails AS m JOIN approvals AS a ON a.id = m.approval_id"
        " WHERE a.run_id = %s ORDER BY a.visit",
        run_id,
    )
    assert mails == [("legal", "pending"), ("finance", "pending")], "each approver is called"

    decide(queue, run_id, "finance", "approved", "fin")
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert approvals(queue, run_id) == [("legal", "branch_cancelled"), ("finance", "approved")]
    cancelled = queue.all(
        "SELECT node, visit, data FROM journal WHERE run_id = %s AND code = 'branch_cancelled'", run_id
    )
    assert [(row[0], row[1]) for row in cancelled] == [("legal", 3)]

    # The outbox runs after the close: Legal's call is not sent (Finance's neither: it is decided).
    with smtp_server() as (box, port):
        assert send_mails(queue, port) >= 2
        assert [m["Subject"] for _, m in box.messages if "legal?" in str(m["Subject"])] == []
    skipped = queue.all(
        "SELECT a.node, m.status, m.error FROM approval_mails AS m"
        " JOIN approvals AS a ON a.id = m.approval_id WHERE a.run_id = %s ORDER BY a.visit",
        run_id,
    )
    assert skipped == [
        ("legal", "skipped", "approval_already_decided"),
        ("finance", "skipped", "approval_already_decided"),
    ]

    queue.clock.advance(timedelta(hours=2))  # past the reminder Legal would have had
    walk(queue)
    assert queue.one(
        "SELECT count(*) FROM approval_mails AS m JOIN approvals AS a ON a.id = m.approval_id"
        " WHERE a.run_id = %s AND m.round > 0",
        run_id,
    ) == (0,), "no reminder for a closed approval"
    assert queue.one("SELECT reminders_sent FROM approvals WHERE run_id = %s AND node = 'legal'", run_id) == (
        0,
    )


def test_a_decision_landing_while_another_pause_is_walked_is_not_lost_when_the_walk_parks(
    queue: Queue,
) -> None:
    """The decision's wake-up is written on a claimed wait; the walk's park writes the pauses over it,
    and then makes the decided approval's pause due again (runs are locked first: one of the two waits)."""
    from backend.queue.claims import Claim
    from backend.queue.driver import walk_claim
    from backend.queue.flow_cache import FlowCache, load_run
    from backend.queue.ports import NoActions
    from backend.queue.queries import QUERIES
    from backend.queue.settle import Outcome, settle

    people(queue)
    run_id = queue.start(queue.save(DELAY_AND_APPROVAL))
    walk(queue)
    queue.clock.advance(timedelta(hours=1))  # the delay is due; the approval is not decided
    service = ApprovalsPort(queue.clock)

    async def go() -> None:
        pool = open_pool(queue.url, size=4)
        await pool.open()
        try:
            async with pool.connection() as conn:
                params = {
                    "me": "w",
                    "limit": 1,
                    "answered_limit": 1,
                    "abandoned_limit": 1,
                    "due_limit": 1,
                    "in_hand": [],
                    "now": queue.clock(),
                    "lease": timedelta(seconds=30),
                }
                claim = Claim.from_row((await (await conn.execute(QUERIES["claim"], params)).fetchall())[0])
            run = await load_run(pool, claim, FlowCache())
            walked = await walk_claim(pool, claim, run, NoActions(), service, _always_ours, now=queue.clock())
            async with pool.connection() as conn:
                row = await (
                    await conn.execute("SELECT id FROM approvals WHERE run_id = %s", (run_id,))
                ).fetchone()
                assert row is not None
                await ApprovalDecisions(queue.clock).decide(conn, row[0], "approved", by="lea", comment=None)
                async with conn.transaction():
                    settled = await settle(conn, "w", [Outcome(claim, run, walked, queue.clock())], service)
                assert settled.waits == {claim.wait_id}
        finally:
            await pool.close()

    async def _always_ours() -> bool:
        return True

    queue.run(go)
    due = pauses(queue, run_id)
    assert list(due) == ["sign@3"]
    wait = queue.one("SELECT status, wake_at <= %s FROM waits WHERE run_id = %s", queue.clock.now, run_id)
    assert wait == ("waiting", True), "the decision stands and its pause is due now"
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert approvals(queue, run_id) == [("sign", "approved")]


THEN_ASK = flow(
    "start:trigger",
    {"id": "both", "type": "parallel", "config": {"wait": "all"}},
    {"id": "short", "type": "delay", "config": {"duration": "PT10M"}},
    {"id": "long", "type": "delay", "config": {"duration": "PT20M"}},
    ask("then", deadline="P1D", on_timeout="approve"),
    note("after"),
    wires="start>both both.branches>short both.branches>long both.done>then then.approve>after",
)


def test_after_done_the_run_waits_at_one_pause_again_as_a_sequential_flow_does(queue: Queue) -> None:
    run_id = queue.start(queue.save(THEN_ASK))
    walk(queue)
    assert sorted(pauses(queue, run_id)) == ["long@4", "short@3"]
    queue.clock.advance(timedelta(minutes=10))
    walk(queue)
    assert list(pauses(queue, run_id)) == ["long@4"]
    queue.clock.advance(timedelta(minutes=10))
    walk(queue)
    wait = queue.one("SELECT kind, node, pauses FROM waits WHERE run_id = %s", run_id)
    assert wait == ("approval", "then", None), "one pause: no map, as before issue 24"
    assert approvals(queue, run_id) == [("then", None)]
    queue.clock.advance(timedelta(days=1))
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert approvals(queue, run_id) == [("then", "timed_out_approved")]
