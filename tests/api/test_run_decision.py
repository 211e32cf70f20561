"""A run shows the decision that matters beside its status (issue 31): the latest decided approval, in the
runs list and on its page; an approval closed with its run is no decision."""

from __future__ import annotations

from typing import Any

from tests.api.support import app_client, auth, make_user
from tests.support import Queue


def two_approvals() -> dict[str, Any]:
    ask = {"approvers": ["group:finance"]}
    return {
        "format": "flowyard.flow/1",
        "name": "Two steps",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "check", "type": "approval", "config": {"title": "Check {{trigger.invoice}}", **ask}},
            {"id": "pay", "type": "approval", "config": {"title": "Pay {{trigger.invoice}}", **ask}},
        ],
        "wires": [{"from": "start", "to": "check"}, {"from": "check", "port": "approve", "to": "pay"}],
    }


def test_each_run_shows_its_latest_decision_in_the_list_and_on_its_page(queue: Queue) -> None:
    author = make_user(queue.url, "author", "edit", "run")
    zoe = make_user(queue.url, "zoe", "decide", groups=("finance",))
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=two_approvals(), headers=auth(author)).json()["id"]

        def start(invoice: str) -> int:
            started = api.post(
                f"/api/flows/{flow_id}/runs", json={"input": {"invoice": invoice}}, headers=auth(author)
            )
            return int(started.json()["run"])

        def decide(run_id: int, node: str, outcome: str) -> dict[str, Any]:
            queue.drain()
            [approval] = [
                a
                for a in api.get("/api/approvals", headers=auth(zoe)).json()["approvals"]
                if a["run_id"] == run_id and a["node"] == node
            ]
            answer = api.post(
                f"/api/approvals/{approval['id']}/decision", json={"outcome": outcome}, headers=auth(zoe)
            )
            assert answer.status_code == 200, answer.text
            queue.drain()
            return dict(answer.json())

        rejected, undecided, both, cancelled = (start(i) for i in ("A-1", "A-2", "A-3", "A-4"))
        first_no = decide(rejected, "check", "reject")
        decide(both, "check", "approve")
        last_no = decide(both, "pay", "reject")
        kept = decide(cancelled, "check", "approve")
        assert api.post(f"/api/runs/{cancelled}/cancel", headers=auth(author)).status_code == 200

        listed = {
            r["id"]: r for r in api.get(f"/api/runs?flow={flow_id}", headers=auth(author)).json()["runs"]
        }
        assert listed[rejected]["status"] == "succeeded"
        assert listed[rejected]["decision"] == {
            "approval": first_no["id"],
            "node": "check",
            "title": "Check A-1",
            "outcome": "rejected",
            "decided_by": "zoe",
            "decided_at": first_no["decided_at"],
        }
        assert listed[undecided]["decision"] is None
        assert listed[both]["decision"]["approval"] == last_no["id"]
        assert listed[both]["decision"]["outcome"] == "rejected"
        # The cancel closed `pay` undecided: the decision that stands is the approval of `check`.
        assert listed[cancelled]["status"] == "cancelled"
        assert listed[cancelled]["decision"]["approval"] == kept["id"]
        assert listed[cancelled]["decision"]["outcome"] == "approved"
        for run_id in (rejected, undecided, both, cancelled):
            page = api.get(f"/api/runs/{run_id}", headers=auth(author)).json()
            assert page["run"]["decision"] == listed[run_id]["decision"]
