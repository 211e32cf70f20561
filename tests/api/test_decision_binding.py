"""A decision is bound to the approval its decider saw (issue 31): the page sends the approval's id and the
digest of what it showed, and a request that names another approval, or a digest that is not this
approval's, is refused with its reason code before anything is written."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue


def _state(queue: Queue, approval_id: int) -> dict[str, Any]:
    """Everything a decision writes: votes, the approval's outcome, its run's journal and its wait."""
    row = queue.one("SELECT run_id, outcome, decided_by FROM approvals WHERE id = %s", approval_id)
    assert row is not None
    run_id = row[0]
    return {
        "votes": queue.all("SELECT voter, vote FROM approval_votes WHERE approval_id = %s", approval_id),
        "outcome": row[1:],
        "journal": queue.codes(run_id),
        "wait": queue.all("SELECT wake_at, answered_at, status FROM waits WHERE run_id = %s", run_id),
        "trail": queue.all("SELECT kind, ref_id FROM audit_chain ORDER BY chain, seq"),
    }


def _inbox(api: Any, user: str, flow_id: int) -> list[dict[str, Any]]:
    """The user's inbox for one flow (the module's tests share a database), oldest first."""
    found = api.get("/api/approvals", headers=auth(user)).json()["approvals"]
    return [a for a in found if a["flow_id"] == flow_id]


def test_a_decision_naming_another_approval_or_another_digest_is_refused_and_changes_nothing(
    queue: Queue,
) -> None:
    author = make_user(queue.url, "author", "edit", "run", "decide")
    approver = make_user(queue.url, "zoe", "decide", groups=("finance",))
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
        for invoice in ("A-7", "B-12"):
            api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": invoice}}, headers=auth(author))
        queue.drain()
        first, second = sorted(_inbox(api, approver, flow_id), key=lambda a: a["id"])
        assert {first["title"], second["title"]} == {"Pay A-7?", "Pay B-12?"}
        assert first["digest"] != second["digest"]
        before = {a["id"]: _state(queue, a["id"]) for a in (first, second)}

        decide = f"/api/approvals/{first['id']}/decision"
        # The page showed the second approval, but the request went to the first one's address.
        wrong_id = api.post(
            decide,
            json={"outcome": "reject", "comment": "B-12 is a duplicate", "approval": second["id"]},
            headers=auth(approver),
        )
        assert wrong_id.status_code == 409, wrong_id.text
        assert wrong_id.json()["error"]["code"] == "decision_approval_mismatch"
        assert str(second["id"]) in wrong_id.json()["error"]["message"]
        # The right id, but the digest of what another card showed (and one that was never any).
        for seen in (second["digest"], "0" * 64):
            stale = api.post(
                decide,
                json={"outcome": "approve", "approval": first["id"], "seen": seen},
                headers=auth(approver),
            )
            assert stale.status_code == 409, stale.text
            assert stale.json()["error"]["code"] == "approval_changed"
        assert {a["id"]: _state(queue, a["id"]) for a in (first, second)} == before
        assert before[first["id"]]["outcome"] == (None, None)
        assert before[first["id"]]["votes"] == []

        # What the person saw, sent with it: decided, on that approval only.
        right = api.post(
            decide,
            json={"outcome": "approve", "approval": first["id"], "seen": first["digest"]},
            headers=auth(approver),
        )
        assert right.status_code == 200, right.text
        assert right.json()["outcome"] == "approved"
        assert right.json()["digest"] == first["digest"]
        assert _state(queue, first["id"])["votes"] == [("zoe", "approve")]
        untouched = {**_state(queue, second["id"]), "trail": before[second["id"]]["trail"]}
        assert untouched == before[second["id"]]


def test_the_checks_come_before_already_decided(queue: Queue) -> None:
    author = make_user(queue.url, "author2", "edit", "run", "decide")
    approver = make_user(queue.url, "yves", "decide", groups=("finance",))
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
        api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "A-7"}}, headers=auth(author))
        queue.drain()
        [approval] = _inbox(api, approver, flow_id)
        decide = f"/api/approvals/{approval['id']}/decision"
        assert api.post(decide, json={"outcome": "approve"}, headers=auth(approver)).status_code == 200
        late = api.post(decide, json={"outcome": "reject", "seen": "f" * 64}, headers=auth(approver))
        assert late.json()["error"]["code"] == "approval_changed"
        other = api.post(
            decide, json={"outcome": "reject", "approval": approval["id"] + 1}, headers=auth(approver)
        )
        assert other.json()["error"]["code"] == "decision_approval_mismatch"


def test_the_digest_is_that_of_what_the_approval_shows_and_the_same_wherever_it_is_read(queue: Queue) -> None:
    author = make_user(queue.url, "author3", "edit", "run", "decide")
    approver = make_user(queue.url, "xena", "decide", groups=("finance",))
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
        started = api.post(
            f"/api/flows/{flow_id}/runs",
            json={"input": {"invoice": "A-7", "amount": 98000, "bank": {"api_key": "k-1"}}},
            headers=auth(author),
        )
        queue.drain()
        [listed] = _inbox(api, approver, flow_id)
        one = api.get(f"/api/approvals/{listed['id']}", headers=auth(approver)).json()
    shown = [
        {
            "label": None,
            "path": "trigger",
            "value": {"invoice": "A-7", "amount": 98000, "bank": {"api_key": "••••"}},
            "masked": True,
        }
    ]
    assert one["shown"] == listed["shown"] == shown
    canonical = json.dumps(
        {
            "id": listed["id"],
            "run_id": started.json()["run"],
            "title": "Pay A-7?",
            "explanation": "Over the limit",
            "shown": shown,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    assert one["digest"] == listed["digest"] == hashlib.sha256(canonical.encode()).hexdigest()


def test_an_inbox_asked_without_values_lists_the_same_approvals_and_no_digest_to_decide_by(
    queue: Queue,
) -> None:
    """The header's badge counts the inbox on every page: asked with `values=none`, the same approvals come
    back without what each shows (never read from the table) and without a digest, which would not be the
    approval's and so could never bind a decision."""
    author = make_user(queue.url, "counted_author", "edit", "run")
    approver = make_user(queue.url, "counter", "decide", groups=("finance",))
    with app_client(queue.url) as api:
        flow_id = api.post("/api/flows", json=approval_and_delay_flow(), headers=auth(author)).json()["id"]
        for invoice in ("C-1", "C-2"):
            api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": invoice}}, headers=auth(author))
        queue.drain()
        full = _inbox(api, approver, flow_id)
        answer = api.get("/api/approvals", params={"values": "none"}, headers=auth(approver))
        assert answer.status_code == 200, answer.text
        light = [a for a in answer.json()["approvals"] if a["flow_id"] == flow_id]
        assert [a["id"] for a in light] == [a["id"] for a in full] and len(full) == 2
        assert all(a["shown"] and a["digest"] for a in full)
        assert all("shown" not in a and "digest" not in a for a in light)
        assert [a["title"] for a in light] == [a["title"] for a in full]
        unknown = api.get("/api/approvals", params={"values": "some"}, headers=auth(approver))
        assert unknown.status_code == 400, unknown.text
