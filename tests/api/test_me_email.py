"""A user sets their own address for approval mails; an address that is none is a 400 and changes nothing."""

from __future__ import annotations

from tests.api.support import app_client, auth, make_user
from tests.support import Queue


def test_i_set_and_clear_my_address(queue: Queue) -> None:
    token = make_user(queue.url, "kim", "decide")
    with app_client(queue.url) as api:
        done = api.put("/api/me/email", json={"email": "kim@example.com"}, headers=auth(token))
        assert (done.status_code, done.json()) == (200, {"email": "kim@example.com"})
        bad = api.put(
            "/api/me/email",
            json={"email": "kim@example.com, x@y.z"},
            headers=auth(token, **{"Accept-Language": "de"}),
        )
        assert (bad.status_code, bad.json()["error"]["code"]) == (400, "user_email_invalid")
        assert "E-Mail-Adresse" in bad.json()["error"]["message"]
        assert queue.one("SELECT email FROM users WHERE name = 'kim'") == ("kim@example.com",)
        cleared = api.put("/api/me/email", json={"email": None}, headers=auth(token))
        assert cleared.status_code == 200
    assert queue.one("SELECT email FROM users WHERE name = 'kim'") == (None,)
