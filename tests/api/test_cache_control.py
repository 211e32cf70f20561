"""API answers are never kept by a cache (issue 32, item 11): a browser's disk cache or a proxy in
between would keep a webhook's secret, a run's variables or a token as long as it likes."""

from __future__ import annotations

from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.api.test_sessions_and_hooks import webhook_flow
from tests.support import Queue


def test_every_json_answer_and_every_api_answer_says_no_store(queue: Queue) -> None:
    admin = make_user(queue.url, "cache_admin", "admin", "edit", "run", "audit")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=webhook_flow(), headers=auth(admin)).json()["id"]
        hook = api.post(f"/api/flows/{flow_id}/webhook", headers=auth(admin))
        answers = {
            "a webhook's secret": hook,
            "the webhook's run": api.post(hook.json()["path"], json={"invoice": "C-1"}),
            "me": api.get("/api/me", headers=auth(admin)),
            "a token made": api.post("/api/tokens", json={"user": "cache_admin"}, headers=auth(admin)),
            "a walk": api.post(
                "/api/flows/walk", json={"document": approval_and_delay_flow()}, headers=auth(admin)
            ),
            "a refusal": api.get("/api/me"),
            "an unknown path": api.get("/api/nothing-here", headers=auth(admin)),
            "a CSV export": api.get("/api/audit/export", headers=auth(admin)),
            "a probe": api.get("/readyz"),
        }
    assert [answers[what].status_code for what in ("a token made", "a refusal", "an unknown path")] == [
        201,
        401,
        404,
    ]
    for what, answer in answers.items():
        assert answer.status_code < 500, (what, answer.text)
        assert answer.headers.get_list("cache-control") == ["no-store"], what
