"""What the run page reads: the pinned flow, visit counts, the wait's approval, effects, masked data;
and the runs list's filters."""

from __future__ import annotations

from typing import Any

from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue


def looping_flow() -> dict[str, Any]:
    return {
        "format": "flowyard.flow/1",
        "name": "Three passes",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "each", "type": "foreach", "config": {"items": "{{trigger.items}}", "as": "item"}},
            {"id": "say", "type": "log", "config": {"message": "item {{item}}"}},
        ],
        "wires": [
            {"from": "start", "to": "each"},
            {"from": "each", "port": "body", "to": "say"},
        ],
    }


def test_a_waiting_run_shows_its_flow_visits_approval_and_masked_data(queue: Queue) -> None:
    ann = make_user(queue.url, "ann", "edit", "run", "audit")
    make_user(queue.url, "bea", "decide", groups=("finance",))
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(ann)).json()["id"]
        run_id = api.post(
            f"/api/flows/{flow_id}/runs",
            json={"input": {"invoice": "A-7", "api_token": "s3cr3t"}},
            headers=auth(ann),
        ).json()["run"]
        queue.drain()
        page = api.get(f"/api/runs/{run_id}", headers=auth(ann, **{"Accept-Language": "de"})).json()

    assert page["flow"]["name"] == "Pay approved invoices"
    assert [n["id"] for n in page["flow"]["document"]["nodes"]][:2] == ["start", "ask"]
    assert page["visits"] == {"start": 1, "ask": 1}
    assert page["wait"]["kind"] == "approval"
    [approval] = page["approvals"]
    assert approval["visit"] == page["wait"]["visit"]
    assert (approval["approvers"], approval["on_timeout"], approval["outcome"]) == (
        ["group:finance"],
        "reject",
        None,
    )
    assert approval["deadline_at"] is not None
    assert page["run"]["input"] == {"invoice": "A-7", "api_token": "[redacted]"}
    assert page["variables"]["trigger"]["api_token"] == "[redacted]"
    assert "s3cr3t" not in str(page)
    assert all(line["message"] and line["message"] != line["code"] for line in page["journal"])
    assert page["effects"] == []


def test_visit_counts_count_every_pass_of_a_loop(queue: Queue) -> None:
    ann = make_user(queue.url, "cal", "edit", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=looping_flow(), headers=auth(ann)).json()["id"]
        run_id = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"items": [1, 2, 3]}}, headers=auth(ann)
        ).json()["run"]
        queue.drain()
        page = api.get(f"/api/runs/{run_id}", headers=auth(ann)).json()
    assert page["run"]["status"] == "succeeded", page["journal"]
    assert page["visits"]["say"] == 3
    assert page["variables"] is None, "an ended run keeps no variables"


def test_the_runs_list_filters_by_trigger_and_time_and_refuses_a_time_without_offset(queue: Queue) -> None:
    dan = make_user(queue.url, "dan", "edit", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=looping_flow(), headers=auth(dan)).json()["id"]
        run_id = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"items": []}}, headers=auth(dan)
        ).json()["run"]
        created = api.get(f"/api/runs/{run_id}", headers=auth(dan)).json()["run"]["created_at"]

        def ids(**query: str) -> list[int]:
            answer = api.get("/api/runs", params={"flow": str(flow_id), **query}, headers=auth(dan))
            assert answer.status_code == 200, answer.text
            return [r["id"] for r in answer.json()["runs"]]

        assert ids(trigger="manual") == [run_id]
        assert ids(trigger="webhook") == []
        assert ids(since=created) == [run_id]
        assert ids(until=created) == []
        refused = api.get("/api/runs", params={"since": "2026-01-01T00:00:00"}, headers=auth(dan))
        assert (refused.status_code, refused.json()["error"]["code"]) == (400, "request_query_invalid")
