"""The editor's session (cookie + CSRF token on writes), and webhook triggers with their own secret."""

from __future__ import annotations

from typing import Any

import psycopg

from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue


def test_login_sets_an_httponly_cookie_and_writes_need_the_csrf_token(queue: Queue) -> None:
    make_user(queue.url, "editor", "edit", password="correct horse battery staple")
    with app_client(queue.url) as api:
        wrong = api.post("/api/session", json={"name": "editor", "password": "nope"})
        nobody = api.post("/api/session", json={"name": "ghost", "password": "nope"})
        assert wrong.json()["error"]["code"] == nobody.json()["error"]["code"] == "login_failed"

        login = api.post("/api/session", json={"name": "editor", "password": "correct horse battery staple"})
        assert login.status_code == 201
        cookie = login.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=strict" in cookie
        csrf = login.json()["csrf_token"]

        assert api.get("/api/me").json()["name"] == "editor", "reads need no CSRF token"
        forged = api.post("/api/flows", json=approval_and_delay_flow())
        assert (forged.status_code, forged.json()["error"]["code"]) == (403, "csrf_token_invalid")
        assert queue.one("SELECT count(*) FROM flows") == (0,)
        saved = api.post("/api/flows", json=approval_and_delay_flow(), headers={"X-CSRF-Token": csrf})
        assert saved.status_code == 201

        assert api.request("DELETE", "/api/session", headers={"X-CSRF-Token": csrf}).status_code == 204
        assert api.get("/api/me").status_code == 401


def webhook_flow() -> dict[str, Any]:
    document = approval_and_delay_flow()
    document["nodes"][0]["config"] = {"kind": "webhook"}
    return document


def test_a_webhook_with_its_secret_starts_one_run_per_idempotency_key(queue: Queue) -> None:
    author = make_user(queue.url, "hooker", "edit", "run")
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=webhook_flow(), headers=auth(author)).json()["id"]
        hook = api.post(f"/api/flows/{flow_id}/webhook", headers=auth(author)).json()
        path = hook["path"]
        assert hook["secret"] in path
        stored = queue.one("SELECT webhook_secret_hash FROM flows WHERE id = %s", flow_id)
        assert stored is not None and hook["secret"] not in stored[0]

        first = api.post(path, json={"invoice": "B-1"}, headers={"Idempotency-Key": "delivery-1"})
        again = api.post(path, json={"invoice": "B-1"}, headers={"Idempotency-Key": "delivery-1"})
        other = api.post(path, json={"invoice": "B-2"}, headers={"Idempotency-Key": "delivery-2"})
        assert first.status_code == 202 and first.json()["created"] is True
        assert again.json() == {"run": first.json()["run"], "created": False}
        assert other.json()["run"] != first.json()["run"]

        wrong = api.post(f"/hooks/{flow_id}/not-the-secret", json={})
        assert (wrong.status_code, wrong.json()["error"]["code"]) == (404, "webhook_not_found")
        manual = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
        secret = api.post(f"/api/flows/{manual}/webhook", headers=auth(author)).json()["path"]
        assert api.post(secret, json={}).status_code == 404, "a flow without a webhook trigger takes no calls"
    runs = queue.all("SELECT trigger_kind, input FROM runs WHERE flow_id = %s ORDER BY id", flow_id)
    assert runs == [("webhook", {"invoice": "B-1"}), ("webhook", {"invoice": "B-2"})]


def test_ten_wrong_passwords_stop_the_guessing_for_a_while(queue: Queue) -> None:
    make_user(queue.url, "target", "edit", password="the right one")
    with app_client(queue.url) as api:
        for _ in range(10):
            wrong = api.post("/api/session", json={"name": "target", "password": "guess"})
            assert wrong.json()["error"]["code"] == "login_failed"
        right = api.post("/api/session", json={"name": "target", "password": "the right one"})
        ghost = [api.post("/api/session", json={"name": "ghost", "password": "x"}) for _ in range(11)][-1]
    assert (right.status_code, right.json()["error"]["code"]) == (429, "login_throttled")
    assert (ghost.status_code, ghost.json()["error"]["code"]) == (429, "login_throttled"), (
        "names that do not exist too"
    )
    with psycopg.connect(queue.url) as conn:
        conn.execute("UPDATE login_failures SET at = at - interval '16 minutes' WHERE user_name = 'target'")
    with app_client(queue.url) as api:
        assert (
            api.post("/api/session", json={"name": "target", "password": "the right one"}).status_code == 201
        )
    assert queue.one("SELECT count(*) FROM login_failures WHERE user_name = 'target'") == (0,)
