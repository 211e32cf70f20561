"""What the People page needs from the admin API beyond issue 12's: a new user's e-mail address and
language, and the rights trail newest first."""

from __future__ import annotations

from tests.api.support import app_client, auth, make_user
from tests.support import Queue


def test_a_new_user_gets_an_address_and_a_language_and_bad_ones_change_nothing(queue: Queue) -> None:
    admin = make_user(queue.url, "root", "admin")
    with app_client(queue.url) as api:
        created = api.post(
            "/api/users",
            json={"name": "gus", "email": "gus@example.com", "locale": "pt_BR", "rights": ["decide:1"]},
            headers=auth(admin),
        )
        assert created.status_code == 422, created.text  # flow 1 does not exist: nothing is written
        assert created.json()["error"]["code"] == "grant_flow_unknown"
        created = api.post(
            "/api/users",
            json={"name": "gus", "email": "gus@example.com", "locale": "pt_BR"},
            headers=auth(admin),
        )
        assert created.status_code == 201, created.text
        assert (created.json()["email"], created.json()["locale"]) == ("gus@example.com", "pt_BR")
        for bad, code in (
            ({"name": "hal", "email": "Hal <hal@example.com>"}, "user_email_invalid"),
            ({"name": "hal", "locale": "xx"}, "request_invalid"),
        ):
            refused = api.post("/api/users", json=bad, headers=auth(admin))
            assert refused.status_code in (400, 422), refused.text
            assert refused.json()["error"]["code"] == code
    assert queue.one("SELECT email, locale FROM users WHERE name = 'gus'") == ("gus@example.com", "pt_BR")
    assert queue.one("SELECT count(*) FROM users WHERE name = 'hal'") == (0,)


def test_the_trail_reads_newest_first_before_an_id(queue: Queue) -> None:
    admin = make_user(queue.url, "boss", "admin")
    auditor = make_user(queue.url, "eye", "audit")
    with app_client(queue.url) as api:
        for right in ("run", "edit", "decide"):
            granted = api.post("/api/users/eye/rights", json={"rights": [right]}, headers=auth(admin))
            assert granted.status_code == 200, granted.text
        newest = api.get(
            "/api/rights-trail", params={"user": "eye", "order": "newest", "limit": 2}, headers=auth(auditor)
        ).json()
        assert [(e["change"], e["right"]) for e in newest["entries"]] == [
            ("granted", "decide"),
            ("granted", "edit"),
        ]
        older = api.get(
            "/api/rights-trail",
            params={"user": "eye", "order": "newest", "before": newest["next"]},
            headers=auth(auditor),
        ).json()
        assert [(e["change"], e["right"]) for e in older["entries"]] == [
            ("granted", "run"),
            ("token_created", None),
            ("granted", "audit"),
            ("user_added", None),
        ]
        assert older["next"] is None
        mixed = api.get("/api/rights-trail", params={"order": "newest", "after": 1}, headers=auth(auditor))
        assert mixed.status_code == 400 and mixed.json()["error"]["code"] == "trail_order_mismatch"
