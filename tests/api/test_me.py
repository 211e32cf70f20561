"""The user's own language, and the CSRF token a session's /api/me hands back."""

from __future__ import annotations

from tests.api.support import app_client, auth, make_user
from tests.support import Queue


def test_a_user_sets_their_own_language_and_the_api_answers_in_it(queue: Queue) -> None:
    token = make_user(queue.url, "mia", "edit")
    with app_client(queue.url) as api:
        before = api.get("/api/me", headers=auth(token)).json()
        assert before["locale"] == "en"
        assert "csrf_token" not in before, "a bearer token has no CSRF token"
        english = api.get("/api/flows/999", headers=auth(token)).json()["error"]["message"]

        assert api.put("/api/me", json={"locale": "ja"}, headers=auth(token)).json() == {
            "locale": "ja",
            "time_zone": None,
        }
        assert api.get("/api/me", headers=auth(token)).json()["locale"] == "ja"
        japanese = api.get("/api/flows/999", headers=auth(token)).json()["error"]
        assert japanese["code"] == "flow_not_found" and japanese["message"] != english
        assert queue.one("SELECT locale FROM users WHERE name = 'mia'") == ("ja",)


def test_an_unknown_locale_or_an_empty_body_is_refused_and_changes_nothing(queue: Queue) -> None:
    token = make_user(queue.url, "noe", "edit")
    with app_client(queue.url) as api:
        for body in ({"locale": "tlh"}, {}, {"locale": "de", "theme": "dark"}):
            refused = api.put("/api/me", json=body, headers=auth(token))
            assert refused.status_code == 422, body
        assert queue.one("SELECT locale FROM users WHERE name = 'noe'") == (None,)


def test_a_session_gets_its_csrf_token_back_from_me(queue: Queue) -> None:
    make_user(queue.url, "ola", "edit", password="a long enough password")
    with app_client(queue.url) as api:
        login = api.post("/api/session", json={"name": "ola", "password": "a long enough password"}).json()
        assert api.get("/api/me").json()["csrf_token"] == login["csrf_token"]
        stored = api.put("/api/me", json={"locale": "fr"}, headers={"X-CSRF-Token": login["csrf_token"]})
        assert stored.status_code == 200
        forged = api.put("/api/me", json={"locale": "de"})
        assert forged.status_code == 403
        assert queue.one("SELECT locale FROM users WHERE name = 'ola'") == ("fr",)
