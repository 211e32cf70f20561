"""Attempt deadlines through real workers: a worker frozen mid-request loses its claim; the next worker
waits until the frozen attempt's deadline has passed before it sends again under the same key; the frozen
worker's late answer is kept in the effects log, journaled as `late_result_ignored`, and changes nothing."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from tests.actions.servers import Received, RecordingServer, Reply
from tests.actions.support import effects, journal_data
from tests.queue.test_workers import wait_until_ended, worker
from tests.run_changes import wait_for
from tests.support import Queue, flow

# How long any one step may take on a loaded machine (load average 15): a bound, never a pace.
BOUND_S = 240


def wait_for_line(url: str, run_id: int, code: str, timeout_s: float = 60) -> None:
    """Until the run's journal has a `code` line: looked at again at each run's change (a journal line is
    one), bounded in time."""
    query = "SELECT 1 FROM journal WHERE run_id = %s AND code = %s"
    wait_for(url, query, run_id, code, timeout_s=timeout_s)


def test_an_abandoned_attempt_is_waited_out_and_its_late_answer_changes_nothing(
    queue: Queue, receiver: RecordingServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FLOWYARD_ACTIONS_ALLOW", "127.0.0.1")
    monkeypatch.setenv("FLOWYARD_ACTIONS_ATTEMPT_MARGIN_S", "1")
    first_may_answer = threading.Event()
    answered: list[str] = []
    first_worker: list[int] = []

    def slow_first(request: Received) -> Reply:
        if not answered:
            answered.append("first")
            # Frozen the moment its request arrives, before its own timeout can give the try up (frozen by
            # the test once it heard of the request, a loaded machine let the 2 s timeout pass first: that
            # try failed and was never a late one). Answered only when the test says so.
            os.kill(first_worker[0], signal.SIGSTOP)
            first_may_answer.wait(BOUND_S)
            return Reply(body=b'{"which": "first"}')
        answered.append("again")
        return Reply(body=b'{"which": "again"}')

    receiver.routes["/pay"] = slow_first
    # A timeout well past what the freeze above may take on a loaded machine; the next try waits it out.
    pay = {"method": "POST", "url": "{{trigger.url}}", "timeout_s": 10}
    document = flow(
        "start:trigger",
        {"id": "pay", "type": "http", "config": pay},
        {"id": "note", "type": "log", "config": {"message": "paid: {{pay.body.which}}"}},
        wires=[{"from": "start", "to": "pay"}, {"from": "pay", "to": "note"}],
    )
    flow_id = queue.save(document)

    with worker(queue.url, "--lease", "1") as frozen:
        first_worker.append(frozen.pid)  # before the run starts: its request finds whom to freeze
        try:
            run_id = queue.start(flow_id, input={"url": f"{receiver.url}/pay"})
            receiver.wait_for(1, timeout_s=BOUND_S)
            [row] = effects(queue, run_id)
            assert (row["attempts"], row["outcome"]) == (1, None), "frozen mid-request, its try still open"
            # A lease long enough that a loaded machine never lets this worker's own claim lapse.
            with worker(queue.url, "--lease", "10"):
                wait_until_ended(queue.url, [run_id], timeout_s=BOUND_S)
        finally:
            first_may_answer.set()
            frozen.send_signal(signal.SIGCONT)
        wait_for_line(queue.url, run_id, "late_result_ignored", timeout_s=BOUND_S)

    assert queue.status(run_id) == ("succeeded", None)
    first, again = receiver.received
    [row] = effects(queue, run_id)
    assert first.headers["idempotency-key"] == again.headers["idempotency-key"] == row["key"]
    assert (row["attempts"], row["outcome"], row["output"]["body"]) == (2, "out", {"which": "again"})
    assert journal_data(queue, run_id, "log_written")[0]["message"] == "paid: again"

    late = queue.one(
        "SELECT l.attempt, l.deadline_at <= e.attempted_at FROM late_results AS l"
        " JOIN effects AS e USING (run_id, visit) WHERE l.run_id = %s",
        run_id,
    )
    assert late == (1, True), "kept, and the second attempt started only once the first one's deadline passed"
    [line] = journal_data(queue, run_id, "late_result_ignored")
    assert line["attempt"] == 1
    codes = queue.codes(run_id)
    assert codes[-1] == "late_result_ignored" and codes.count("run_succeeded") == 1
