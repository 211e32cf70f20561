"""`GET /api/schedules/next`: what the editor's trigger panel shows is the scheduler's own next_fire."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from tests.api.support import app_client, auth, make_user
from tests.support import Queue


def test_the_next_fire_times_are_in_the_triggers_zone_and_bad_ones_are_refused(queue: Queue) -> None:
    token = make_user(queue.url, "cora")
    with app_client(queue.url) as api:
        answer = api.get(
            "/api/schedules/next",
            params={"cron": "30 9 * * 1", "timezone": "Europe/Berlin"},
            headers=auth(token),
        )
        assert answer.status_code == 200, answer.text
        fires = [datetime.fromisoformat(f) for f in answer.json()["fires"]]
        assert len(fires) == 5 and fires == sorted(fires) and len(set(fires)) == 5
        berlin = [f.astimezone(ZoneInfo("Europe/Berlin")) for f in fires]
        assert {(f.weekday(), f.hour, f.minute) for f in berlin} == {(0, 9, 30)}
        assert all(f.utcoffset() is not None and f.utcoffset().total_seconds() == 0 for f in fires)  # type: ignore[union-attr]

        two = api.get("/api/schedules/next", params={"cron": "0 * * * *", "count": 2}, headers=auth(token))
        assert len(two.json()["fires"]) == 2
        refused = {
            "schedule_cron_invalid": {"cron": "0 0 30 2 *"},
            "schedule_timezone_unknown": {"cron": "0 9 * * *", "timezone": "Mars/Olympus"},
        }
        for code, params in refused.items():
            bad = api.get("/api/schedules/next", params=params, headers=auth(token))
            assert (bad.status_code, bad.json()["error"]["code"]) == (422, code)
        wrong: list[dict[str, str | int]] = [{"timezone": "UTC"}, {"cron": "0 * * * *", "count": 11}]
        for query in wrong:
            bad = api.get("/api/schedules/next", params=query, headers=auth(token))
            assert (bad.status_code, bad.json()["error"]["code"]) == (400, "request_query_invalid")
        assert api.get("/api/schedules/next", params={"cron": "0 * * * *"}).status_code == 401
