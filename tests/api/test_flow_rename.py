"""`PATCH /api/flows/{id}`: a rename or a new description is no new version; refusals change nothing."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue


def state(api: TestClient, token: str, flow_id: int) -> tuple[Any, ...]:
    """What a rename could change, as the API shows it: name, description, document, versions."""
    flow = api.get(f"/api/flows/{flow_id}", headers=auth(token)).json()
    versions = api.get(f"/api/flows/{flow_id}/versions", headers=auth(token)).json()["versions"]
    return flow["name"], flow["description"], flow["document"], [v["version"] for v in versions]


def test_a_rename_and_a_description_make_no_version_and_the_next_save_carries_them(queue: Queue) -> None:
    ann = make_user(queue.url, "ren", "edit", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(ann)).json()["id"]
        renamed = api.patch(
            f"/api/flows/{flow_id}",
            json={"name": "Invoices over the limit", "description": "Finance approves first"},
            headers=auth(ann),
        )
        assert renamed.status_code == 200, renamed.text
        assert renamed.json() == {
            "id": flow_id,
            "name": "Invoices over the limit",
            "description": "Finance approves first",
            "version": 1,
        }
        name, description, document, versions = state(api, ann, flow_id)
        assert (name, description, versions) == ("Invoices over the limit", "Finance approves first", [1])
        assert (document["name"], document["description"]) == (name, description)
        # The version keeps what it was saved with: what ran.
        saved = api.get(f"/api/flows/{flow_id}/versions/1", headers=auth(ann)).json()["document"]
        assert saved["name"] == "Pay approved invoices" and "description" not in saved
        listed = api.get("/api/flows", headers=auth(ann)).json()["flows"]
        assert [(f["name"], f["version"]) for f in listed] == [("Invoices over the limit", 1)]

        # Only the description; null takes it away, the name stays.
        assert api.patch(f"/api/flows/{flow_id}", json={"description": None}, headers=auth(ann)).json()[
            "name"
        ] == ("Invoices over the limit")
        name, description, document, versions = state(api, ann, flow_id)
        assert (name, description, "description" in document, versions) == (
            "Invoices over the limit",
            None,
            False,
            [1],
        )

        # The document as read is what the editor saves next: version 2 carries the new name.
        assert api.put(f"/api/flows/{flow_id}", json=document, headers=auth(ann)).json()["version"] == 2
        saved = api.get(f"/api/flows/{flow_id}/versions/2", headers=auth(ann)).json()["document"]
        assert saved["name"] == "Invoices over the limit"


def test_a_name_another_flow_has_in_any_case_is_refused_and_changes_nothing(queue: Queue) -> None:
    ann = make_user(queue.url, "dup", "edit")
    with app_client(queue.url) as api:
        other = {**approval_and_delay_flow(), "name": "Weekly Report"}
        api.post("/api/flows", json=other, headers=auth(ann))
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(ann)).json()["id"]
        before = state(api, ann, flow_id)
        taken = api.patch(
            f"/api/flows/{flow_id}",
            json={"name": "weekly REPORT", "description": "would change too"},
            headers=auth(ann, **{"Accept-Language": "de"}),
        )
        assert taken.status_code == 409
        error = taken.json()["error"]
        assert (error["code"], error["detail"]) == ("flow_name_taken", {"name": "weekly REPORT"})
        assert "weekly REPORT" in error["message"] and "flow_name_taken" not in error["message"]
        assert state(api, ann, flow_id) == before

        # Its own name in another case is no clash.
        recased = api.patch(
            f"/api/flows/{flow_id}", json={"name": "PAY approved invoices"}, headers=auth(ann)
        )
        assert recased.status_code == 200, recased.text


def test_bad_names_and_bodies_are_refused_with_a_reason_and_change_nothing(queue: Queue) -> None:
    ann = make_user(queue.url, "bad", "edit")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(ann)).json()["id"]
        before = state(api, ann, flow_id)
        refusals = {
            "blank": ({"name": "   "}, 422, "flow_name_blank"),
            "long": ({"name": "x" * 201}, 422, "flow_name_too_long"),
            "empty body": ({}, 422, "request_invalid"),
            "unknown field": ({"nodes": []}, 422, "request_field_unknown"),
            "not a string": ({"name": 7}, 422, "request_invalid"),
        }
        for why, (body, status, code) in refusals.items():
            answer = api.patch(f"/api/flows/{flow_id}", json=body, headers=auth(ann))
            assert (answer.status_code, answer.json()["error"]["code"]) == (status, code), why
        long = api.patch(f"/api/flows/{flow_id}", json={"name": "x" * 201}, headers=auth(ann))
        assert long.json()["error"]["detail"] == {"limit": 200}
        assert state(api, ann, flow_id) == before
        assert api.patch("/api/flows/999999", json={"name": "x"}, headers=auth(ann)).status_code == 404


def test_a_rename_takes_the_edit_right_on_the_flow(queue: Queue) -> None:
    ann = make_user(queue.url, "own", "edit")
    runner = make_user(queue.url, "runner", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(ann)).json()["id"]
        theirs = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(ann)).json()["id"]
        stranger = make_user(queue.url, "stranger", f"edit:{theirs}")
        before = state(api, ann, flow_id)
        refused = api.patch(f"/api/flows/{flow_id}", json={"name": "Mine now"}, headers=auth(runner))
        assert (refused.status_code, refused.json()["error"]["code"]) == (403, "right_missing")
        # A flow one may not read is answered as one that does not exist.
        hidden = api.patch(f"/api/flows/{flow_id}", json={"name": "Mine now"}, headers=auth(stranger))
        assert (hidden.status_code, hidden.json()["error"]["code"]) == (404, "flow_not_found")
        assert state(api, ann, flow_id) == before
        editor = make_user(queue.url, "editor", f"edit:{flow_id}")
        assert (
            api.patch(f"/api/flows/{flow_id}", json={"name": "Theirs"}, headers=auth(editor)).status_code
            == 200
        )
