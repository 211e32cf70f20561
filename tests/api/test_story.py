"""Seed 004's story end to end through the API: save, run, inbox, approve, resume, delay, audit."""

from __future__ import annotations

from datetime import timedelta

import psycopg

from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue


def test_the_whole_story_and_its_refusals(queue: Queue) -> None:
    author = make_user(queue.url, "author", "edit", "run")
    approver = make_user(queue.url, "approver", "decide", groups=("finance",))
    reader = make_user(queue.url, "reader", "audit")
    with app_client(queue.url) as api:
        saved = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author))
        assert saved.status_code == 201, saved.text
        flow_id = saved.json()["id"]

        started = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "A-7"}}, headers=auth(author)
        )
        assert started.status_code == 201
        run_id = started.json()["run"]
        queue.drain()  # the worker, with the clock the test moves

        inbox = api.get("/api/approvals", headers=auth(approver)).json()["approvals"]
        assert [(a["run_id"], a["title"]) for a in inbox] == [(run_id, "Pay A-7?")]
        approval_id = inbox[0]["id"]
        assert api.get("/api/approvals", headers=auth(author)).json()["approvals"] == []

        refused = api.post(
            f"/api/approvals/{approval_id}/decision", json={"outcome": "approve"}, headers=auth(author)
        )
        assert (refused.status_code, refused.json()["error"]["code"]) == (403, "decide_right_missing")

        decided = api.post(
            f"/api/approvals/{approval_id}/decision",
            json={"outcome": "approve", "comment": "ok"},
            headers=auth(approver),
        )
        assert decided.status_code == 200 and decided.json()["outcome"] == "approved"
        stale = api.post(
            f"/api/approvals/{approval_id}/decision", json={"outcome": "reject"}, headers=auth(approver)
        )
        assert stale.status_code == 409
        assert stale.json()["error"]["code"] == "approval_already_decided"
        assert stale.json()["error"]["detail"]["standing"]["outcome"] == "approved"

        queue.drain()
        waiting = api.get(f"/api/runs/{run_id}", headers=auth(author)).json()
        assert waiting["run"]["status"] == "waiting" and waiting["wait"]["kind"] == "delay"
        queue.clock.advance(timedelta(hours=1))
        queue.drain()

        done = api.get(f"/api/runs/{run_id}", headers=auth(author)).json()
        assert done["run"]["status"] == "succeeded"
        codes = [line["code"] for line in done["journal"]]
        assert codes[0] == "run_created" and codes[-1] == "run_succeeded"
        assert all(line["message"] for line in done["journal"])

        found = api.get("/api/audit", params={"flow": flow_id}, headers=auth(reader)).json()["decisions"]
        assert [(d["id"], d["outcome"], d["decided_by"], d["comment"]) for d in found] == [
            (approval_id, "approved", "approver", "ok")
        ]
        assert api.get("/api/audit", headers=auth(author)).status_code == 403

        cannot_save = api.put(f"/api/flows/{flow_id}", json=approval_and_delay_flow(), headers=auth(reader))
        assert (cannot_save.status_code, cannot_save.json()["error"]["code"]) == (403, "right_missing")
        assert (
            api.get(f"/api/flows/{flow_id}/versions", headers=auth(author)).json()["versions"][0]["version"]
            == 1
        )


def test_the_inbox_pages_through_every_open_approval(queue: Queue) -> None:
    author = make_user(queue.url, "pager", "edit", "run")
    approver = make_user(queue.url, "paged", "decide", groups=("finance",))
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
        runs = [
            api.post(
                f"/api/flows/{flow_id}/runs", json={"input": {"invoice": i}}, headers=auth(author)
            ).json()["run"]
            for i in range(5)
        ]
        queue.drain()
        seen, cursor = [], None
        while True:
            params = {"limit": 2, **({"cursor": cursor} if cursor else {})}
            page = api.get("/api/approvals", params=params, headers=auth(approver)).json()
            assert len(page["approvals"]) <= 2
            seen += [a["run_id"] for a in page["approvals"]]
            cursor = page["next"]
            if cursor is None:
                break
        bad = api.get("/api/approvals", params={"cursor": "yesterday"}, headers=auth(approver))
    assert sorted(seen) == sorted(runs) and len(seen) == 5
    assert (bad.status_code, bad.json()["error"]["code"]) == (400, "audit_cursor_invalid")


def test_a_run_whose_wait_a_worker_holds_reads_as_running(queue: Queue) -> None:
    author = make_user(queue.url, "watcher", "edit", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
        run_id = api.post(f"/api/flows/{flow_id}/runs", json={"input": {}}, headers=auth(author)).json()[
            "run"
        ]
        with psycopg.connect(queue.url) as conn:
            conn.execute(
                "UPDATE waits SET status = 'claimed', claimed_by = 'w',"
                " claim_expires_at = now() + interval '1 minute' WHERE run_id = %s",
                (run_id,),
            )
        one = api.get(f"/api/runs/{run_id}", headers=auth(author)).json()["run"]["status"]
        running = api.get("/api/runs", params={"status": "running"}, headers=auth(author)).json()["runs"]
        waiting = api.get("/api/runs", params={"status": "waiting"}, headers=auth(author)).json()["runs"]
    assert one == "running"
    assert [r["id"] for r in running] == [run_id]
    assert run_id not in [r["id"] for r in waiting]
