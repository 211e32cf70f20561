"""`POST /api/events/{name}` and its secret-carrying twin, over the real app and database."""

from __future__ import annotations

from tests.api.support import app_client, auth, make_user
from tests.events.support import drain, logged, waiting_flow
from tests.support import Queue


def test_an_entitled_sender_wakes_the_waiting_run_and_others_are_refused(queue: Queue) -> None:
    sender = make_user(queue.url, "shop", "send_events")
    runner = make_user(queue.url, "runner", "run", "edit")
    with app_client(queue.url) as api:
        saved = api.post("/api/flows", json=waiting_flow(), headers=auth(runner))
        assert saved.status_code == 201, saved.json()
        started = api.post(
            f"/api/flows/{saved.json()['id']}/runs", json={"input": {"order": "API-1"}}, headers=auth(runner)
        )
        run_id = started.json()["run"]
    drain(queue)
    with app_client(queue.url) as api:
        nobody = api.post("/api/events/paid", json={"key": "API-1", "payload": {"amount": 9}})
        assert (nobody.status_code, nobody.json()["error"]["code"]) == (401, "auth_required")
        unentitled = api.post("/api/events/paid", json={"key": "API-1"}, headers=auth(runner))
        assert (unentitled.status_code, unentitled.json()["error"]["code"]) == (403, "right_missing")
        assert queue.one("SELECT count(*) FROM events") == (0,), "a refused event is not stored"

        sent = api.post(
            "/api/events/paid", json={"key": "API-1", "payload": {"amount": 9}}, headers=auth(sender)
        )
        assert sent.status_code == 202
        assert sent.json()["delivered"] is True and sent.json()["kept_until"] is None

        kept = api.post("/api/events/paid", json={"key": "API-1", "payload": {}}, headers=auth(sender))
        assert kept.json()["delivered"] is False and kept.json()["kept_until"] is not None
    drain(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert logged(queue, run_id) == ["paid 9"]
    assert queue.one("SELECT sent_by FROM events WHERE id = %s", sent.json()["event"]) == ("shop",)


def test_bad_names_keys_and_payloads_are_refused_with_reasons(queue: Queue) -> None:
    sender = make_user(queue.url, "shop2", "send_events")
    with app_client(queue.url) as api:
        for name in ("Paid", "timeout", "a" * 65, "9lives"):
            refused = api.post(f"/api/events/{name}", json={"key": "k"}, headers=auth(sender))
            assert (refused.status_code, refused.json()["error"]["code"]) == (422, "event_name_refused"), name
        long_key = api.post("/api/events/paid", json={"key": "k" * 201}, headers=auth(sender))
        assert long_key.status_code == 422
        empty_key = api.post("/api/events/paid", json={"key": ""}, headers=auth(sender))
        assert empty_key.status_code == 422
        not_object = api.post("/api/events/paid", json={"key": "k", "payload": [1]}, headers=auth(sender))
        assert not_object.status_code == 422
    assert queue.one("SELECT count(*) FROM events WHERE sent_by = 'shop2'") == (0,)


def test_a_payload_over_the_value_limit_is_refused_not_truncated(queue: Queue) -> None:
    sender = make_user(queue.url, "shop3", "send_events")
    with app_client(queue.url, max_value_bytes=100) as api:
        big = api.post(
            "/api/events/paid", json={"key": "k", "payload": {"x": "y" * 200}}, headers=auth(sender)
        )
        small = api.post("/api/events/paid", json={"key": "k", "payload": {"x": "y"}}, headers=auth(sender))
    assert (big.status_code, big.json()["error"]["code"]) == (413, "event_payload_too_large")
    assert big.json()["error"]["detail"]["limit"] == 100
    assert small.status_code == 202
    assert queue.one("SELECT count(*) FROM events WHERE sent_by = 'shop3'") == (1,)


def test_an_event_names_secret_sends_without_a_token_and_a_wrong_one_is_refused(queue: Queue) -> None:
    admin = make_user(queue.url, "boss", "admin")
    sender = make_user(queue.url, "shop4", "send_events")
    run_id = queue.start(queue.save(waiting_flow(("shipped",))), input={"order": "HOOK-1"})
    drain(queue)
    with app_client(queue.url) as api:
        not_admin = api.post("/api/events/shipped/secret", headers=auth(sender))
        assert not_admin.status_code == 403
        made = api.post("/api/events/shipped/secret", headers=auth(admin))
        assert made.status_code == 201
        secret, path = made.json()["secret"], made.json()["path"]
        stored = queue.one("SELECT digest FROM event_secrets WHERE name = 'shipped'")
        assert stored is not None and secret not in stored[0]

        wrong = api.post("/hooks/events/shipped/not-it", json={"key": "HOOK-1"})
        other_name = api.post(f"/hooks/events/paid/{secret}", json={"key": "HOOK-1"})
        assert wrong.status_code == other_name.status_code == 404
        assert wrong.json()["error"]["code"] == "event_hook_not_found"
        assert queue.one("SELECT count(*) FROM events WHERE key = 'HOOK-1'") == (0,)

        sent = api.post(path, json={"key": "HOOK-1", "payload": {"amount": 4}})
        assert sent.status_code == 202 and sent.json()["delivered"] is True
    drain(queue)
    assert logged(queue, run_id) == ["shipped 4"]
