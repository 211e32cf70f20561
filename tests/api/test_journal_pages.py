"""The run page's journal, a page at a time: the first 100 lines unless asked for more (at most 1,000,
beyond that a coded error), each next page after the last line shown, the visit counts and the error's
sentence of the whole run whatever page is shown."""

from __future__ import annotations

from typing import Any

from tests.api.support import app_client, auth, make_user
from tests.support import Queue


def loop_over(items: Any, then_fail: bool = False) -> dict[str, Any]:
    """A loop logging each item; with `then_fail`, a second loop over what is no list fails the run."""
    nodes = [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
        {"id": "each", "type": "foreach", "config": {"items": "{{trigger.items}}", "as": "item"}},
        {"id": "say", "type": "log", "config": {"message": "item {{item}}"}},
    ]
    wires = [{"from": "start", "to": "each"}, {"from": "each", "port": "body", "to": "say"}]
    if then_fail:
        nodes.append({"id": "again", "type": "foreach", "config": {"items": "{{trigger.bad}}", "as": "x"}})
        wires.append({"from": "each", "port": "done", "to": "again"})
    return {"format": "flowyard.flow/1", "name": "Loop", "nodes": nodes, "wires": wires}


def test_a_long_journal_comes_a_page_at_a_time_and_the_pages_make_the_whole(queue: Queue) -> None:
    lena = make_user(queue.url, "lena", "edit", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=loop_over(None), headers=auth(lena)).json()["id"]
        run_id = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"items": list(range(60))}}, headers=auth(lena)
        ).json()["run"]
        queue.drain()
        whole = api.get(f"/api/runs/{run_id}?limit=1000", headers=auth(lena)).json()
        first = api.get(f"/api/runs/{run_id}", headers=auth(lena)).json()
        pages, after = [first], first["next"]
        while after is not None:
            pages.append(api.get(f"/api/runs/{run_id}?after={after}", headers=auth(lena)).json())
            after = pages[-1]["next"]

    assert whole["run"]["status"] == "succeeded"
    assert whole["next"] is None and len(whole["journal"]) > 100, len(whole["journal"])
    assert len(first["journal"]) == 100 and first["next"] == first["journal"][-1]["seq"]
    assert [len(p["journal"]) <= 100 for p in pages] == [True] * len(pages)
    assert [line for p in pages for line in p["journal"]] == whole["journal"]
    assert [line["seq"] for line in whole["journal"]] == list(range(1, len(whole["journal"]) + 1))
    # The counts are the whole run's, not the page's.
    assert first["visits"]["say"] == 60 and pages[-1]["visits"] == first["visits"]


def test_a_page_longer_than_the_bound_is_refused_with_the_bound(queue: Queue) -> None:
    max_ = make_user(queue.url, "max", "edit", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=loop_over(None), headers=auth(max_)).json()["id"]
        run_id = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"items": [1]}}, headers=auth(max_)
        ).json()["run"]
        too_long = api.get(f"/api/runs/{run_id}?limit=1001", headers=auth(max_))
        empty = api.get(f"/api/runs/{run_id}?limit=0", headers=auth(max_))
        longest = api.get(f"/api/runs/{run_id}?limit=1000", headers=auth(max_))
    error = too_long.json()["error"]
    assert (too_long.status_code, error["code"]) == (400, "run_journal_limit_exceeded")
    assert error["detail"] == {"parameter": "limit", "maximum": 1000}
    assert "1,000" in error["message"], error["message"]  # a count, grouped as English writes it
    assert (empty.status_code, empty.json()["error"]["code"]) == (400, "request_query_invalid")
    assert longest.status_code == 200


def test_a_failed_run_explains_its_error_from_a_line_beyond_the_page(queue: Queue) -> None:
    rita = make_user(queue.url, "rita", "edit", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=loop_over(None, then_fail=True), headers=auth(rita)).json()[
            "id"
        ]
        run_id = api.post(
            f"/api/flows/{flow_id}/runs",
            json={"input": {"items": [1, 2], "bad": "not a list"}},
            headers=auth(rita),
        ).json()["run"]
        queue.drain()
        page = api.get(f"/api/runs/{run_id}?limit=1", headers=auth(rita, **{"Accept-Language": "de"})).json()
    assert (page["run"]["status"], page["run"]["error"]) == ("failed", "foreach_items_invalid")
    assert [line["code"] for line in page["journal"]] != ["run_failed"] and page["next"] == 1
    # Filled from the run_failed line the page does not show: the loop is named, not an ellipsis.
    assert page["run"]["error_message"].startswith("Die Elemente der Schleife again"), page["run"][
        "error_message"
    ]
