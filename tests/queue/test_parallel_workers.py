"""Issue 24's example through the real queue: worker processes, decisions through the API, and a worker
SIGKILLed between the two decisions, in the middle of the walk the first one resumed."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from tests.actions.servers import recording_server
from tests.api.support import app_client, auth, make_user
from tests.queue.test_workers import wait_until_ended, worker
from tests.run_changes import wait_for
from tests.support import Queue

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "parallel-approvals.json"
CONTRACT = {"contract": "C-42", "supplier": "Acme", "amount": 50000, "currency": "EUR"}


@pytest.mark.parametrize("order", [("legal", "finance"), ("finance", "legal")])
def test_legal_and_finance_decide_in_either_order_with_a_worker_killed_between_and_pay_once(
    queue: Queue, monkeypatch: pytest.MonkeyPatch, order: tuple[str, str]
) -> None:
    monkeypatch.setenv("FLOWYARD_ACTIONS_ALLOW", "127.0.0.1")  # the workers' environment
    suffix = "".join(name[0] for name in order)
    deciders = {
        "legal": make_user(queue.url, f"lea-{suffix}", "decide", groups=("legal",)),
        "finance": make_user(queue.url, f"fin-{suffix}", "decide", groups=("finance",)),
    }
    with recording_server() as receiver:
        document = json.loads(EXAMPLE.read_text(encoding="utf-8"))
        run_id = queue.start(queue.save(document), input={**CONTRACT, "payment_url": f"{receiver.url}/pay"})
        with worker(queue.url, "--lease", "1"):
            wait_for(queue.url, "SELECT count(*) FROM approvals WHERE run_id = %s", run_id, want=(2,))
            wait_for(queue.url, "SELECT status FROM waits WHERE run_id = %s", run_id, want=("waiting",))
        rows = queue.all("SELECT node, id, outcome FROM approvals WHERE run_id = %s ORDER BY visit", run_id)
        assert [(node, outcome) for node, _, outcome in rows] == [("legal", None), ("finance", None)]
        ids = {node: approval_id for node, approval_id, _ in rows}

        with app_client(queue.url) as api:
            first, second = order
            answer = api.post(
                f"/api/approvals/{ids[first]}/decision",
                json={"outcome": "approve"},
                headers=auth(deciders[first]),
            )
            assert answer.status_code == 200, answer.text
            # A worker takes the decision's resume and dies in the middle of it, its outcome unwritten.
            with worker(queue.url, "--lease", "1", "--fault-point", "before_outcome") as doomed:
                assert doomed.stdout is not None
                assert doomed.stdout.readline().strip() == "fault point before_outcome reached"
                doomed.send_signal(signal.SIGKILL)
            assert queue.one("SELECT status FROM waits WHERE run_id = %s", run_id) == ("claimed",)
            assert queue.status(run_id) == ("waiting", None)
            # The second decision lands while the dead worker's claim is still on the wait.
            answer = api.post(
                f"/api/approvals/{ids[second]}/decision",
                json={"outcome": "approve"},
                headers=auth(deciders[second]),
            )
            assert answer.status_code == 200, answer.text

        with worker(queue.url, "--lease", "1"):
            wait_until_ended(queue.url, [run_id], timeout_s=120)

        assert queue.status(run_id) == ("succeeded", None)
        assert [r.path for r in receiver.received] == ["/pay"], "paid exactly once"
        body = receiver.received[0].json()
        assert (body["legal"], body["finance"]) == (f"lea-{suffix}", f"fin-{suffix}")
    decided = queue.all("SELECT node, outcome FROM approvals WHERE run_id = %s ORDER BY visit", run_id)
    assert decided == [("legal", "approved"), ("finance", "approved")]
    assert queue.one("SELECT count(*) FROM effects WHERE run_id = %s", run_id) == (1,)
    codes = queue.codes(run_id)
    assert codes.count("run_succeeded") == 1 and codes.count("parallel_finished") == 1
    assert codes.count("approval_vote_approve") == 2
    visited = queue.all(
        "SELECT node FROM journal WHERE run_id = %s AND code = 'node_visited' ORDER BY seq", run_id
    )
    assert [row[0] for row in visited] == [
        "start",
        "both",
        "legal",
        "finance",
        f"{order[0]}_yes",  # both resumed by one claim, the first decided first
        f"{order[1]}_yes",
        "legal_ok",
        "finance_ok",
        "pay",
        "paid",
    ]
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)
