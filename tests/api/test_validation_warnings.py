"""Issue 24: POST /api/flows/validate answers the warnings beside the findings; they leave a flow valid."""

from __future__ import annotations

import time

from tests.api.support import app_client, auth, make_user
from tests.support import Queue, flow


def test_a_split_meeting_without_a_join_is_valid_and_answered_as_a_warning(queue: Queue) -> None:
    reader = make_user(queue.url, f"nobody{time.monotonic_ns()}")
    meeting = flow("t:trigger a:log b:log z:log", wires="t>a t>b a>z b>z")
    joined = flow("t:trigger a:log b:log j:join z:log", wires="t>a t>b a>j b>j j>z")
    with app_client(queue.url) as api:
        warned = api.post(
            "/api/flows/validate", json=meeting, headers={**auth(reader), "Accept-Language": "de"}
        )
        clean = api.post("/api/flows/validate", json=joined, headers=auth(reader))
    assert warned.status_code == clean.status_code == 200
    answer = warned.json()
    assert answer["valid"] is True and answer["findings"] == []
    assert [(w["code"], w["node"]) for w in answer["warnings"]] == [("branches_meet_without_join", "z")]
    assert "Zusammenführung" in answer["warnings"][0]["message"]
    assert clean.json() == {"valid": True, "findings": [], "warnings": []}
