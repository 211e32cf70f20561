"""Four eyes around a webhook: whoever set a flow's webhook secret can start its runs without a name, so
for self-approval they count as those runs' starter."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue


def webhook_flow() -> dict[str, Any]:
    document = approval_and_delay_flow()
    document["nodes"][0]["config"] = {"kind": "webhook"}
    return document


def decide(api: TestClient, approval_id: int, token: str) -> tuple[int, str | None]:
    answer = api.post(
        f"/api/approvals/{approval_id}/decision", json={"outcome": "approve"}, headers=auth(token)
    )
    body = answer.json()
    return answer.status_code, body["error"]["code"] if "error" in body else body["outcome"]


def test_who_made_the_webhook_secret_may_not_approve_the_run_they_posted(queue: Queue) -> None:
    author = make_user(queue.url, "author", "edit")
    mallory = make_user(queue.url, "mallory", "edit", "decide", groups=("finance",))
    other = make_user(queue.url, "olga", "decide", groups=("finance",))
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=webhook_flow(), headers=auth(author)).json()["id"]
        # The story of issue 32: Mallory makes the webhook's secret, posts without a name, and approves.
        path = api.post(f"/api/flows/{flow_id}/webhook", headers=auth(mallory)).json()["path"]
        posted = api.post(path, json={"invoice": "M-1"})
        assert posted.status_code == 202
        queue.drain()
        assert queue.one("SELECT started_by FROM runs WHERE id = %s", posted.json()["run"]) == (None,)

        assert api.get("/api/approvals", headers=auth(mallory)).json()["approvals"] == []
        [asked] = api.get("/api/approvals", headers=auth(other)).json()["approvals"]
        assert decide(api, asked["id"], mallory) == (403, "self_approval_refused")

        # Someone else rotating the secret afterwards does not make Mallory's post someone else's.
        api.post(f"/api/flows/{flow_id}/webhook", headers=auth(other))
        assert decide(api, asked["id"], mallory) == (403, "self_approval_refused")
        assert decide(api, asked["id"], other) == (200, "approved")


def test_who_rotated_the_secret_counts_for_the_runs_posted_after(queue: Queue) -> None:
    author = make_user(queue.url, "author2", "edit")
    first = make_user(queue.url, "first", "edit", "decide", groups=("finance",))
    rotator = make_user(queue.url, "rotator", "edit", "decide", groups=("finance",))
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=webhook_flow(), headers=auth(author)).json()["id"]
        api.post(f"/api/flows/{flow_id}/webhook", headers=auth(first))
        path = api.post(f"/api/flows/{flow_id}/webhook", headers=auth(rotator)).json()["path"]
        assert api.post(path, json={"invoice": "R-1"}).status_code == 202
        queue.drain()
        [asked] = api.get("/api/approvals", headers=auth(first)).json()["approvals"]
        assert api.get("/api/approvals", headers=auth(rotator)).json()["approvals"] == []
        assert decide(api, asked["id"], rotator) == (403, "self_approval_refused")
        # The one who made the secret before it was rotated no longer holds it: they may decide.
        assert decide(api, asked["id"], first) == (200, "approved")
