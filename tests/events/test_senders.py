"""Outside events from one sender: an Idempotency-Key makes a provider's retry one event (the first
answer again, as a webhook's key does), and a quota on what a sender has kept, refused with its reason."""

from __future__ import annotations

from tests.api.support import app_client, auth, make_user
from tests.events.support import waiting_flow
from tests.support import Queue


def test_a_retry_under_the_same_idempotency_key_is_one_event(queue: Queue) -> None:
    shop = make_user(queue.url, "shop", "send_events")
    other = make_user(queue.url, "other_shop", "send_events")
    admin = make_user(queue.url, "root", "admin")
    with app_client(queue.url) as api:
        hook = api.post("/api/events/refunded/secret", headers=auth(admin)).json()["path"]
        first = api.post(
            "/api/events/refunded", json={"key": "K-1"}, headers=auth(shop, **{"Idempotency-Key": "d-1"})
        )
        again = api.post(
            "/api/events/refunded", json={"key": "K-1"}, headers=auth(shop, **{"Idempotency-Key": "d-1"})
        )
        assert (first.status_code, again.status_code) == (202, 202)
        assert first.json()["repeated"] is False
        assert again.json() == {**first.json(), "repeated": True}
        # Keys are the sender's own: another sender's same key is another event, as is a post without one.
        theirs = api.post(
            "/api/events/refunded", json={"key": "K-1"}, headers=auth(other, **{"Idempotency-Key": "d-1"})
        )
        assert theirs.json()["event"] != first.json()["event"]
        # Through the name's hook too.
        hooked = [api.post(hook, json={"key": "K-2"}, headers={"Idempotency-Key": "h-1"}) for _ in range(3)]
        assert len({answer.json()["event"] for answer in hooked}) == 1
        assert [answer.json()["repeated"] for answer in hooked] == [False, True, True]
        long_key = api.post(
            "/api/events/refunded", json={"key": "K-3"}, headers=auth(shop, **{"Idempotency-Key": "x" * 201})
        )
        assert (long_key.status_code, long_key.json()["error"]["code"]) == (400, "idempotency_key_invalid")
    assert queue.all("SELECT sent_by, key FROM events WHERE name = 'refunded' ORDER BY id") == [
        ("shop", "K-1"),
        ("other_shop", "K-1"),
        ("hook:refunded", "K-2"),
    ]


def test_a_sender_past_its_quota_of_kept_events_is_refused_with_a_reason(queue: Queue) -> None:
    flood = make_user(queue.url, "flood", "send_events")
    calm = make_user(queue.url, "calm", "send_events")
    with app_client(queue.url, events_max_kept=3, events_max_kept_bytes=2000) as api:

        def send(token: str, key: str, note: str = "") -> tuple[int, str | None]:
            answer = api.post(
                "/api/events/paid", json={"key": key, "payload": {"note": note}}, headers=auth(token)
            )
            return answer.status_code, answer.json().get("error", {}).get("code")

        assert [send(flood, f"F-{n}") for n in range(3)] == [(202, None)] * 3
        assert send(flood, "F-3") == (429, "event_quota_events")
        assert send(calm, "C-1") == (202, None), "the quota is each sender's own"
        # An event a waiting run takes at once is never refused for the quota: it is not kept.
        run_id = queue.start(queue.save(waiting_flow()), input={"order": "W-1"})
        queue.drain()
        assert send(flood, "W-1") == (202, None)
        queue.drain()
        assert queue.status(run_id)[0] == "succeeded"
        # The bytes of what is kept count too.
        assert send(calm, "C-2", "x" * 1500) == (202, None)
        assert send(calm, "C-3", "y" * 600) == (429, "event_quota_bytes")
    kept = queue.all(
        "SELECT sent_by, count(*) FROM events WHERE name = 'paid' AND consumed_run IS NULL"
        " GROUP BY 1 ORDER BY 1"
    )
    assert kept == [("calm", 2), ("flood", 3)]
