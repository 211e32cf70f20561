"""Delegation through the API and the real queue: a delegate decides in their own name on behalf of the
approver, both names on the vote, the decision and the chain; a delegation passes no right."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from tests.api.support import app_client, auth, make_user
from tests.approvals.test_decisions import approval_flow
from tests.support import Queue


@pytest.fixture(scope="module")
def people(database_url: str) -> dict[str, str]:
    tokens = {name: make_user(database_url, name, "decide") for name in ("ann", "bob", "dee")}
    tokens["eve"] = make_user(database_url, "eve", "run")  # no decide right
    tokens["lou"] = make_user(database_url, "lou", "run")  # named below, but without the decide right
    return tokens


def parked(queue: Queue, approvers: list[str], quorum: int) -> tuple[int, int]:
    run_id = queue.start(queue.save(approval_flow(approvers=approvers, quorum=quorum)), input={"id": "D"})
    queue.clock.advance(timedelta(minutes=1))
    queue.drain()
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert row is not None, queue.codes(run_id)
    return run_id, row[0]


def soon(days: int) -> str:
    return (datetime.now(UTC) + timedelta(days=days)).isoformat()


def test_a_delegate_decides_on_behalf_of_the_approver(database_url: str, people: dict[str, str]) -> None:
    queue = Queue(database_url)
    run_id, approval = parked(queue, ["user:ann", "user:bob"], quorum=2)
    with app_client(database_url) as client:
        refused = client.post(
            f"/api/approvals/{approval}/decision", json={"outcome": "approve"}, headers=auth(people["dee"])
        )
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "approver_not_named"
        made = client.post(
            "/api/me/delegations", json={"to": "dee", "ends_at": soon(7)}, headers=auth(people["ann"])
        )
        assert made.status_code == 201, made.text
        inbox = client.get("/api/approvals", headers=auth(people["dee"])).json()["approvals"]
        assert approval in [a["id"] for a in inbox], "the delegate sees what waits for ann"
        voted = client.post(
            f"/api/approvals/{approval}/decision", json={"outcome": "approve"}, headers=auth(people["dee"])
        )
        assert voted.status_code == 200, voted.text
        assert voted.json()["outcome"] is None and voted.json()["votes"][0]["on_behalf_of"] == "ann"
        again = client.post(
            f"/api/approvals/{approval}/decision", json={"outcome": "approve"}, headers=auth(people["ann"])
        )
        assert again.status_code == 409 and again.json()["error"]["code"] == "approval_vote_already_cast", (
            "ann's seat is taken"
        )
        settled = client.post(
            f"/api/approvals/{approval}/decision", json={"outcome": "approve"}, headers=auth(people["bob"])
        )
        assert settled.json()["outcome"] == "approved"
        ended = client.delete(f"/api/me/delegations/{made.json()['id']}", headers=auth(people["ann"]))
        assert ended.status_code == 200 and ended.json()["revoked_at"] is not None
    queue.drain()
    assert queue.status(run_id) == ("succeeded", None)
    votes = queue.all(
        "SELECT voter, on_behalf_of, seat FROM approval_votes WHERE approval_id = %s ORDER BY id", approval
    )
    assert votes == [("dee", "ann", "ann"), ("bob", None, "bob")]
    recorded = [
        json.loads(c)
        for (c,) in queue.all(
            "SELECT content FROM audit_chain WHERE kind = 'vote' AND content LIKE '%%\"dee\"%%'"
        )
    ]
    assert [(r["voter"], r["on_behalf_of"]) for r in recorded] == [("dee", "ann")], "both names on the trail"
    changes = [json.loads(c) for (c,) in queue.all("SELECT content FROM audit_chain WHERE chain = 'global'")]
    assert [c["change"] for c in changes if c.get("delegate") == "dee"] == ["delegated", "delegation_ended"]


def test_a_delegation_passes_no_right(database_url: str, people: dict[str, str]) -> None:
    queue = Queue(database_url)
    _, approval = parked(queue, ["user:ann", "user:lou"], quorum=1)
    with app_client(database_url) as client:
        for giver, to in (("ann", "eve"), ("lou", "dee")):
            made = client.post(
                "/api/me/delegations", json={"to": to, "ends_at": soon(3)}, headers=auth(people[giver])
            )
            assert made.status_code == 201
        lacking = client.post(
            f"/api/approvals/{approval}/decision", json={"outcome": "approve"}, headers=auth(people["eve"])
        )
        assert lacking.status_code == 403 and lacking.json()["error"]["code"] == "decide_right_missing"
        # dee holds the right, but lou, whom she stands in for, does not: the delegation gives her nothing
        borrowed = client.post(
            f"/api/approvals/{approval}/decision", json={"outcome": "approve"}, headers=auth(people["dee"])
        )
        assert borrowed.status_code == 403 and borrowed.json()["error"]["code"] == "approver_not_named"
        bad = client.post(
            "/api/me/delegations",
            json={"to": "dee", "starts_at": soon(2), "ends_at": soon(1)},
            headers=auth(people["ann"]),
        )
        assert bad.status_code == 422 and bad.json()["error"]["code"] == "delegation_period_invalid"
        nobody = client.post(
            "/api/me/delegations", json={"to": "nobody", "ends_at": soon(1)}, headers=auth(people["ann"])
        )
        assert nobody.status_code == 404 and nobody.json()["error"]["code"] == "delegation_delegate_unknown"
    assert queue.one("SELECT count(*) FROM approval_votes WHERE approval_id = %s", approval) == (0,)


def test_a_delegation_is_on_the_rights_trail_with_its_delegate(database_url: str) -> None:
    """The trail an auditor reads names the delegation and the delegate (the People page says it so)."""
    giver, auditor = make_user(database_url, "gil", "decide"), make_user(database_url, "aud", "audit")
    make_user(database_url, "hal", "decide")
    with app_client(database_url) as client:
        made = client.post("/api/me/delegations", json={"to": "hal", "ends_at": soon(3)}, headers=auth(giver))
        assert made.status_code == 201, made.text
        trail = client.get("/api/rights-trail", params={"user": "gil"}, headers=auth(auditor))
    assert trail.status_code == 200, trail.text
    delegated = [e for e in trail.json()["entries"] if e["change"] == "delegated"]
    assert [(e["user"], e["delegate"]) for e in delegated] == [("gil", "hal")]
