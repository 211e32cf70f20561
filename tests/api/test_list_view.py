"""The list view endpoint answers for a document the author is still fixing, and refuses one without an
outline with its findings."""

from __future__ import annotations

from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue


def test_an_invalid_document_with_an_outline_gets_its_list_and_one_without_gets_findings(
    queue: Queue,
) -> None:
    token = make_user(queue.url, "lia", "edit")
    document = approval_and_delay_flow()
    document["nodes"][1]["config"]["title"] = ""  # a finding: the title must not be empty
    with app_client(queue.url) as api:
        assert api.post("/api/flows/validate", json=document, headers=auth(token)).json()["valid"] is False
        listed = api.post("/api/flows/list-view", json=document, headers=auth(token))
        assert listed.status_code == 200
        assert [(n["id"], n["depth"]) for n in listed.json()["nodes"]] == [
            ("start", 0),
            ("ask", 0),
            ("cool", 0),
            ("paid", 0),
        ]
        refused = api.post("/api/flows/list-view", json={"nodes": "none"}, headers=auth(token))
        assert refused.status_code == 422 and refused.json()["error"]["code"] == "flow_invalid"
        assert refused.json()["error"]["detail"]["findings"]
