"""The approvals of an outcome batch go in by one set-based statement (`insert_approvals`): the same rows
and mails as the one-by-one `create`, for every run of the batch, without falling back to one by one."""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

import pytest

from backend.people.accounts import Grant, add_user
from tests.queue.test_batch import _walk_all
from tests.support import Queue, flow

COLUMNS = (
    "node, visit, title, explanation, approvers, deadline, deadline_at - requested_at, on_timeout, quorum,"
    " reject_rule, allow_self_approval, remind_after, escalate_after, escalate_to, outcome,"
    " started_by IS NOT DISTINCT FROM (SELECT started_by FROM runs WHERE id = a.run_id),"
    " author IS NOT DISTINCT FROM (SELECT created_by FROM flow_versions AS v"
    "                              WHERE v.flow_id = a.flow_id AND v.version = a.version)"
)


def asking(**config: Any) -> dict[str, Any]:
    ask = {"id": "ask", "type": "approval", "config": {"title": "Pay {{trigger.n}}?", **config}}
    return flow("start:trigger", ask, wires=[{"from": "start", "to": "ask"}])


def person(queue: Queue, name: str, *grants: str, email: str | None, groups: tuple[str, ...] = ()) -> None:
    queue.aconn(
        lambda conn: add_user(
            conn, name, grants=[Grant.parse(g) for g in grants], email=email, groups=list(groups)
        )
    )


def test_a_batch_asks_all_its_approvals_in_one_statement(
    queue: Queue, caplog: pytest.LogCaptureFixture
) -> None:
    person(queue, "ann", "decide", email="ann@example.com")
    person(queue, "bob", "decide", email="bob@example.com", groups=("finance",))
    person(queue, "cy", "decide", email=None, groups=("finance",))  # no address: no mail
    person(queue, "dee", "run", email="dee@example.com", groups=("finance",))  # no decide right: no mail
    full = asking(
        explanation="Over the limit",
        approvers=["user:ann", "group:finance"],
        deadline="P2D",
        on_timeout="reject",
        quorum=2,
        reject="quorum",
        allow_self_approval=True,
        remind_after=["PT1H", "PT2H30M"],
        escalate_after="P1D",
        escalate_to=["user:bob"],
    )
    bare = asking(approvers=["user:ann"])
    flows = [queue.save(full), queue.save(bare)]
    runs = [queue.start(flows[n % 2], input={"n": n}) for n in range(4)]

    with caplog.at_level(logging.WARNING, logger="flowyard.worker"):
        assert _walk_all(queue, 4) == [None] * 4
    assert not [r for r in caplog.records if "one by one" in r.getMessage()], "the set-based write held"

    rows = [queue.one(f"SELECT {COLUMNS} FROM approvals AS a WHERE run_id = %s", run_id) for run_id in runs]
    assert [row[:4] if row else None for row in rows] == [
        ("ask", 2, f"Pay {n}?", "Over the limit" if n % 2 == 0 else "") for n in range(4)
    ]
    hour, day = timedelta(hours=1), timedelta(days=1)
    full_row: tuple[Any, ...] = (["user:ann", "group:finance"], 2 * day, 2 * day, "reject", 2, "quorum")
    full_row += (True, [hour, 2.5 * hour], day, ["user:bob"], None, True, True)
    bare_row: tuple[Any, ...] = (
        ["user:ann"],
        None,
        None,
        None,
        1,
        "any",
        False,
        [],
        None,
        [],
        None,
        True,
        True,
    )
    assert [row[4:] if row else None for row in rows] == [full_row, bare_row] * 2

    mails = (
        "SELECT array_agg(user_name ORDER BY user_name) FROM approval_mails AS m"
        " JOIN approvals AS a ON a.id = m.approval_id WHERE a.run_id = %s"
    )
    assert [queue.one(mails, run_id) for run_id in runs] == [(["ann", "bob"],), (["ann"],)] * 2
    assert queue.one("SELECT count(DISTINCT key) FROM approval_mails") == (6,)
    assert [queue.status(run_id)[0] for run_id in runs] == ["waiting"] * 4
