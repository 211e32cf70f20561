"""An answer that comes after its try was given up at its timeout is kept with the effect (`late`, its
status, when it came), journaled, shown on the run page and by `flowyard runs show`, and changes nothing
in the run: the run took the timeout's path, and that stays its path and its outcome."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from typing import Any

import pytest

from tests.actions.servers import Received, RecordingServer, Reply
from tests.actions.support import effects, journal_data
from tests.actions.test_deadlines import wait_for_line
from tests.api.support import app_client, auth, make_user
from tests.queue.test_workers import wait_until_ended, worker
from tests.support import Queue, flow

PAY = flow(
    "start:trigger",
    {"id": "pay", "type": "http", "config": {"method": "POST", "url": "{{trigger.url}}", "timeout_s": 1}},
    {"id": "paid", "type": "log", "config": {"message": "paid"}},
    {"id": "slow", "type": "log", "config": {"message": "timed out: {{pay.code}}"}},
    wires=[
        {"from": "start", "to": "pay"},
        {"from": "pay", "to": "paid"},
        {"from": "pay", "port": "error", "to": "slow"},
    ],
)


def test_an_answer_after_the_timeout_is_kept_shown_and_changes_nothing(
    queue: Queue, receiver: RecordingServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FLOWYARD_ACTIONS_ALLOW", "127.0.0.1")
    # The try's deadline (timeout + margin) bounds how long a given-up request is still listened to: wide
    # enough that a loaded machine answers within it once the run has ended.
    monkeypatch.setenv("FLOWYARD_ACTIONS_ATTEMPT_MARGIN_S", "120")
    may_answer = threading.Event()

    def after_the_timeout(_request: Received) -> Reply:
        may_answer.wait(120)  # released once the run has ended on the timeout's path
        return Reply(status=202, body=b'{"accepted": "late"}')

    receiver.routes["/pay"] = after_the_timeout
    run_id = queue.start(queue.save(PAY), input={"url": f"{receiver.url}/pay"})

    with worker(queue.url, "--lease", "10"):
        try:
            wait_until_ended(queue.url, [run_id], timeout_s=120)
            before = _what_the_run_is(queue, run_id)
        finally:
            may_answer.set()
        wait_for_line(queue.url, run_id, "action_answered_late", timeout_s=120)

    # The run's path is the timeout's, and everything it was before the answer came, it still is.
    assert before["status"] == ("succeeded", None)
    assert journal_data(queue, run_id, "log_written")[0]["message"] == "timed out: action_timeout"
    after = _what_the_run_is(queue, run_id)
    assert after["codes"] == [*before["codes"], "action_answered_late"]
    assert {k: v for k, v in after.items() if k != "codes"} == {
        k: v for k, v in before.items() if k != "codes"
    }
    assert len(receiver.received) == 1, "sent once: the late answer starts no second walk"

    # Kept with the effect: its attempt, what came back, and when.
    [late] = queue.all(
        "SELECT l.attempt, l.outcome, l.output -> 'status', l.output -> 'body', l.at >= e.completed_at"
        " FROM late_results AS l JOIN effects AS e USING (run_id, visit) WHERE l.run_id = %s",
        run_id,
    )
    assert late == (1, "out", 202, {"accepted": "late"}, True)
    [line] = journal_data(queue, run_id, "action_answered_late")
    assert line == {"attempt": 1, "status": 202}

    # The run page: the effect is `late`, with the status that came back beside the outcome that stands.
    ann = make_user(queue.url, "ann", "edit", "run", "audit")
    with app_client(queue.url) as api:
        page = api.get(f"/api/runs/{run_id}", headers=auth(ann)).json()
    [shown] = page["effects"]
    assert (shown["state"], shown["late_status"], shown["code"]) == ("late", 202, "action_timeout")
    assert shown["late_at"] is not None
    [journaled] = [entry for entry in page["journal"] if entry["code"] == "action_answered_late"]
    assert "202" in journaled["message"]

    # `flowyard runs show`: the run's state, and under it the late answer.
    shown_lines = subprocess.run(
        [sys.executable, "-m", "backend.cli", "runs", "show", str(run_id)],
        env={**_env(), "DATABASE_URL": queue.url},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    assert len(shown_lines) == 2, shown_lines
    assert "pay" in shown_lines[1] and "202" in shown_lines[1]


def _what_the_run_is(queue: Queue, run_id: int) -> dict[str, Any]:
    effect = effects(queue, run_id)
    return {
        "status": queue.status(run_id),
        "ended_at": queue.one("SELECT ended_at FROM runs WHERE id = %s", run_id),
        "codes": queue.codes(run_id),
        "effect": [(e["attempts"], e["outcome"], e["output"]["code"]) for e in effect],
        "waits": queue.all("SELECT id FROM waits WHERE run_id = %s", run_id),
        "record": queue.one("SELECT status, ended_at FROM run_records WHERE run_id = %s", run_id),
    }


def _env() -> dict[str, str]:
    return dict(os.environ)
