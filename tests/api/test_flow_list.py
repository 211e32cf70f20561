"""The flows list as the editor's flows page shows it: trigger kind, who changed it when, last run."""

from __future__ import annotations

from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue


def test_the_list_names_trigger_kind_newest_version_author_and_last_run_status(queue: Queue) -> None:
    ann = make_user(queue.url, "ann", "edit", "run")
    bob = make_user(queue.url, "bob", "edit")
    with app_client(queue.url) as api:
        document = approval_and_delay_flow()
        flow_id = api.post("/api/flows", json=document, headers=auth(ann)).json()["id"]
        document["nodes"][0]["config"] = {"kind": "webhook"}
        assert api.put(f"/api/flows/{flow_id}", json=document, headers=auth(bob)).status_code == 200
        listed = api.get("/api/flows", headers=auth(ann)).json()["flows"]
        assert [(f["trigger_kind"], f["version"], f["changed_by"], f["last_run_status"]) for f in listed] == [
            ("webhook", 2, "bob", None)
        ]
        assert listed[0]["created_by"] == "ann" and listed[0]["changed_at"] >= listed[0]["created_at"]

        started = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "A-1"}}, headers=auth(ann)
        )
        assert started.status_code in (201, 202), started.text
        run_status = queue.one("SELECT status FROM runs WHERE flow_id = %s", flow_id)
        assert run_status is not None
        again = api.get("/api/flows", headers=auth(ann)).json()["flows"]
        assert again[0]["last_run_status"] == run_status[0]
