"""Four eyes around a webhook: whoever set a flow's webhook secret can start its runs without a name, so
for self-approval they count as those runs' starter."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

from backend.approvals.policy_commands import policy_command
from backend.cli import ArgumentsRefused, _parser
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


def self_approving_flow() -> dict[str, Any]:
    document = approval_and_delay_flow()
    document["nodes"][1]["config"]["allow_self_approval"] = True
    return document


def set_policy(api: TestClient, token: str, value: str) -> tuple[int, Any]:
    answer = api.put("/api/policies/self_approval", json={"value": value}, headers=auth(token))
    return answer.status_code, answer.json()


def test_an_admin_requires_four_eyes_for_every_approval_those_saved_before_included(queue: Queue) -> None:
    admin = make_user(queue.url, "root", "admin")
    ann = make_user(queue.url, "ann", "edit", "run", "decide", groups=("finance",))
    ben = make_user(queue.url, "ben", "decide", groups=("finance",))
    with app_client(queue.url) as api:
        assert api.get("/api/policies", headers=auth(ann)).json()["self_approval"] == {
            "value": "per_node",
            "set_by": None,
            "set_at": None,
        }
        # Saved while the node's word held: Ann may approve what she wrote and started herself.
        flow_id = api.post("/api/flows", json=self_approving_flow(), headers=auth(ann)).json()["id"]
        runs = [
            api.post(f"/api/flows/{flow_id}/runs", json={}, headers=auth(ann)).json()["run"] for _ in "ab"
        ]
        queue.drain()
        asked = {
            a["run_id"]: a["id"] for a in api.get("/api/approvals", headers=auth(ann)).json()["approvals"]
        }
        assert sorted(asked) == sorted(runs)
        assert decide(api, asked[runs[0]], ann) == (200, "approved")

        assert set_policy(api, ann, "never")[0] == 403
        assert api.get("/api/policies", headers=auth(ann)).json()["self_approval"]["value"] == "per_node"
        status, policy = set_policy(api, admin, "never")
        assert (status, policy["value"], policy["set_by"]) == (200, "never", "root")

        # The version saved before is held to four eyes when decided, and her inbox no longer offers it.
        assert api.get("/api/approvals", headers=auth(ann)).json()["approvals"] == []
        assert decide(api, asked[runs[1]], ann) == (403, "self_approval_refused")
        assert decide(api, asked[runs[1]], ben) == (200, "approved")

        # Saving a node that allows self-approval is a finding now, with the node it is about.
        refused = api.put(f"/api/flows/{flow_id}", json=self_approving_flow(), headers=auth(ann))
        assert (refused.status_code, refused.json()["error"]["code"]) == (422, "flow_invalid")
        [finding] = refused.json()["error"]["detail"]["findings"]
        assert (finding["code"], finding["node"]) == ("self_approval_forbidden", "ask")
        assert "never" in finding["message"]
        checked = api.post("/api/flows/validate", json=self_approving_flow(), headers=auth(ann)).json()
        assert checked["valid"] is False
        assert [f["code"] for f in checked["findings"]] == ["self_approval_forbidden"]
        assert (
            api.put(f"/api/flows/{flow_id}", json=approval_and_delay_flow(), headers=auth(ann)).status_code
            == 200
        )

        assert set_policy(api, admin, "per_node")[0] == 200
        assert (
            api.put(f"/api/flows/{flow_id}", json=self_approving_flow(), headers=auth(ann)).status_code == 200
        )
        bad = api.put("/api/policies/self_approval", json={"value": "sometimes"}, headers=auth(admin))
        assert bad.status_code == 422
    assert queue.one("SELECT value, set_by FROM policies") == ("per_node", "root")


def test_the_policy_is_set_and_shown_at_the_terminal(
    queue: Queue, capsys: pytest.CaptureFixture[str]
) -> None:
    def flowyard(*argv: str) -> int:
        return policy_command(_parser().parse_args(["policy", *argv]), queue.url)

    assert flowyard("set", "self_approval", "never") == 0
    assert flowyard("show") == 0
    set_line, shown = capsys.readouterr().out.splitlines()
    assert set_line == shown
    assert shown.startswith("Self-approval: never allowed, whatever an approval node says")
    assert "Set by cli at " in shown
    with pytest.raises(ArgumentsRefused):
        _parser().parse_args(["policy", "set", "self_approval", "sometimes"])
