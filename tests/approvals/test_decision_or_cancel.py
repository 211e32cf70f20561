"""A decision and a cancel landing together: one of them wins and the other is a 409 naming what stands.

Through the API, concurrently, on a pool: ten decisions and a cancel per round, for several rounds.
Whichever wins, the audit and the run agree: never an `approved` approval on a cancelled run.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx

from backend.api.app import create_app
from tests.api.support import approval_and_delay_flow, auth, make_user
from tests.support import Queue

ROUNDS = 6
DECIDERS = 10


async def race(
    url: str, approval_id: int, run_id: int, approver: str, canceller: str
) -> list[httpx.Response]:
    app = create_app(url)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://flowyard") as api:
            decisions = [
                api.post(
                    f"/api/approvals/{approval_id}/decision",
                    json={"outcome": "approve" if i % 2 else "reject"},
                    headers=auth(approver),
                )
                for i in range(DECIDERS)
            ]
            cancel = api.post(f"/api/runs/{run_id}/cancel", headers=auth(canceller))
            # The cancel goes in the middle, so that it meets decisions on both sides of it.
            return await asyncio.gather(*decisions[:5], cancel, *decisions[5:])


def test_a_decision_and_a_cancel_never_both_stand(queue: Queue) -> None:
    author = make_user(queue.url, "author", "edit", "run")
    approver = make_user(queue.url, "approver", "decide", groups=("finance",))
    winners: dict[str, int] = {"cancel": 0, "decision": 0}
    flow_id = queue.save(approval_and_delay_flow())
    for _ in range(ROUNDS):
        run_id = queue.start(flow_id, input={"invoice": "A-7"})
        (now,) = queue.one("SELECT now()") or ()
        queue.clock.now = now + timedelta(seconds=1)  # the run's start is due by the test's clock
        queue.drain()
        row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
        assert row is not None
        answers = asyncio.run(race(queue.url, row[0], run_id, approver, author))
        cancel, decisions = answers[5], answers[:5] + answers[6:]
        decided = [a for a in decisions if a.status_code == 200]
        refused: list[dict[str, Any]] = [a.json()["error"] for a in decisions if a.status_code != 200]
        assert all(a.status_code in (200, 409) for a in answers), [a.text for a in answers]
        outcome, decided_by = (
            queue.one("SELECT outcome, decided_by FROM approvals WHERE id = %s", row[0]) or ()
        )
        status, _error = queue.status(run_id)
        if cancel.status_code == 200:
            winners["cancel"] += 1
            assert decided == []
            assert {e["code"] for e in refused} == {"approval_cancelled"}
            assert all(e["detail"]["standing"]["outcome"] == "cancelled" for e in refused)
            assert (outcome, decided_by, status) == ("cancelled", "author", "cancelled")
        else:
            winners["decision"] += 1
            stands = cancel.json()["error"]
            assert stands["code"] == "run_decision_stands"
            assert len(decided) == 1
            assert {e["code"] for e in refused} == {"approval_already_decided"}
            assert stands["detail"]["standing"]["outcome"] == outcome == decided[0].json()["outcome"]
            assert status != "cancelled"
            queue.drain()  # the run goes on with the decision that stood
            assert queue.status(run_id)[0] != "cancelled"
    assert sum(winners.values()) == ROUNDS
