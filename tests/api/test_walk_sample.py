"""`POST /api/flows/walk`, the editor's "Walk with sample input": the walker's path, pauses answered as
chosen, and nothing written, sent or started."""

from __future__ import annotations

from typing import Any

import psycopg

from backend.config import DEFAULT_MAX_WALK_JOURNAL_BYTES
from tests.actions.servers import recording_server
from tests.api.support import app_client, approval_and_delay_flow, auth, make_user
from tests.support import Queue

TABLES = ("flows", "flow_versions", "runs", "journal", "waits", "approvals", "effects", "approval_mails")


def _rows(url: str) -> dict[str, int]:
    with psycopg.connect(url) as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in TABLES}  # type: ignore[index]


def _with_http(url: str) -> dict[str, Any]:
    document = approval_and_delay_flow()
    document["nodes"].append(
        {
            "id": "pay",
            "type": "http",
            "config": {"method": "POST", "url": f"{url}/pay", "body": "{{trigger}}"},
        }
    )
    document["wires"].append({"from": "paid", "to": "pay"})
    return document


def test_a_walk_answers_its_visits_and_journal_and_writes_and_sends_nothing(queue: Queue) -> None:
    token = make_user(queue.url, "wanda", "edit")
    with recording_server() as server, app_client(queue.url) as api:
        before = _rows(queue.url)
        body = {
            "document": _with_http(server.url),
            "input": {"invoice": "INV-7"},
            "answers": [{"node": "ask", "outcome": "approve"}],
        }
        walked = api.post("/api/flows/walk", json=body, headers=auth(token, **{"Accept-Language": "de"}))
        assert walked.status_code == 200, walked.text
        result = walked.json()
        assert result["status"] == "succeeded" and result["waiting_at"] is None
        assert result["visits"] == ["start", "ask", "cool", "paid", "pay"]
        logged = [
            line for line in result["journal"] if line["node"] == "paid" and line["code"] == "log_written"
        ]
        assert logged and logged[0]["data"]["message"] == "paid INV-7"
        requested = [line for line in result["journal"] if line["code"] == "action_requested"]
        assert [line["node"] for line in requested] == ["pay"]
        # Every line has its sentence, in the asker's language, not the bare code.
        assert all(line["message"] and line["message"] != line["code"] for line in result["journal"])
        assert server.received == []
        assert _rows(queue.url) == before


def test_an_approval_without_an_answer_leaves_the_walk_waiting_there(queue: Queue) -> None:
    token = make_user(queue.url, "wendy", "edit")
    with app_client(queue.url) as api:
        walked = api.post(
            "/api/flows/walk",
            json={"document": approval_and_delay_flow(), "input": {"invoice": "INV-8"}},
            headers=auth(token),
        ).json()
        assert (walked["status"], walked["waiting_at"], walked["visits"]) == (
            "waiting",
            "ask",
            ["start", "ask"],
        )
        rejected = api.post(
            "/api/flows/walk",
            json={"document": approval_and_delay_flow(), "answers": [{"node": "ask", "outcome": "timeout"}]},
            headers=auth(token),
        ).json()
        # on_timeout is reject, and nothing is wired to reject: the run ends there.
        assert (rejected["status"], rejected["visits"]) == ("succeeded", ["start", "ask"])


def test_bad_walks_are_refused_with_a_reason_and_change_nothing(queue: Queue) -> None:
    token = make_user(queue.url, "wilma", "edit")
    invalid = approval_and_delay_flow()
    invalid["wires"].append({"from": "paid", "to": "ask"})  # a back wire: a cycle
    no_timeout = approval_and_delay_flow()
    del no_timeout["nodes"][1]["config"]["on_timeout"], no_timeout["nodes"][1]["config"]["deadline"]
    cases = [
        ({"document": invalid}, "flow_invalid"),
        (
            {"document": approval_and_delay_flow(), "answers": [{"node": "cool", "outcome": "approve"}]},
            "walk_sample_not_approval",
        ),
        (
            {"document": no_timeout, "answers": [{"node": "ask", "outcome": "timeout"}]},
            "walk_sample_cannot_time_out",
        ),
        (
            {"document": approval_and_delay_flow(), "answers": [{"node": "ask", "outcome": "maybe"}]},
            "walk_sample_outcome_unknown",
        ),
        (
            {"document": approval_and_delay_flow(), "answers": [{"node": "ask", "outcome": "Maybe!"}]},
            "request_invalid",
        ),
        ({"document": approval_and_delay_flow(), "extra": 1}, "request_field_unknown"),
    ]
    with app_client(queue.url) as api:
        before = _rows(queue.url)
        for body, code in cases:
            answer = api.post("/api/flows/walk", json=body, headers=auth(token))
            assert (answer.status_code, answer.json()["error"]["code"]) == (422, code)
            assert answer.json()["error"]["message"] != code
        assert api.post("/api/flows/walk", json={"document": approval_and_delay_flow()}).status_code == 401
        assert _rows(queue.url) == before


def parallel_approvals() -> dict[str, Any]:
    approval = {"title": "Sign?", "approvers": ["group:legal"]}
    return {
        "format": "flowyard.flow/1",
        "name": "two signatures",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "both", "type": "parallel", "config": {"wait": "all"}},
            {"id": "legal", "type": "approval", "config": approval},
            {"id": "finance", "type": "approval", "config": approval},
            {"id": "pay", "type": "log", "config": {"message": "paid"}},
        ],
        "wires": [
            {"from": "start", "to": "both"},
            {"from": "both", "port": "branches", "to": "legal"},
            {"from": "both", "port": "branches", "to": "finance"},
            {"from": "both", "port": "done", "to": "pay"},
        ],
    }


def test_a_parallel_walk_lists_every_pending_pause_and_takes_answers_in_the_order_given(queue: Queue) -> None:
    token = make_user(queue.url, "wes", "edit")
    with app_client(queue.url) as api:

        def walk(*answers: tuple[str, str]) -> dict[str, Any]:
            given = [{"node": node, "outcome": outcome} for node, outcome in answers]
            body = {"document": parallel_approvals(), "answers": given}
            answered = api.post("/api/flows/walk", json=body, headers=auth(token))
            assert answered.status_code == 200, answered.text
            result: dict[str, Any] = answered.json()
            return result

        waiting = walk()
        assert (waiting["status"], waiting["waiting_at"]) == ("waiting", "legal")
        assert waiting["pending"] == [{"node": "legal", "visit": 3}, {"node": "finance", "visit": 4}]
        assert walk(("finance", "approve"))["pending"] == [{"node": "legal", "visit": 3}]
        both = walk(("finance", "approve"), ("legal", "reject"))
        resumed = [line["node"] for line in both["journal"] if line["code"] == "run_resumed"]
        assert (both["status"], both["pending"], resumed) == ("succeeded", [], ["finance", "legal"])


def test_a_walk_takes_edit_or_run_on_the_flow_it_drafts(queue: Queue) -> None:
    """Issue 32, item 3: a token with no right walked a 1 MB document into a 180 MB answer."""
    flow_id = queue.save(approval_and_delay_flow())
    other_id = queue.save(approval_and_delay_flow())
    nobody = make_user(queue.url, "nobody")
    runner = make_user(queue.url, "rhea", f"run:{flow_id}")
    editor = make_user(queue.url, "ed", f"edit:{flow_id}")
    reader = make_user(queue.url, "audrey", f"audit:{flow_id}")
    document = approval_and_delay_flow()

    def walk(token: str, **more: Any) -> tuple[int, str | None]:
        answer = api.post("/api/flows/walk", json={"document": document, **more}, headers=auth(token))
        return answer.status_code, (answer.json().get("error") or {}).get("code")

    with app_client(queue.url) as api:
        before = _rows(queue.url)
        assert walk(nobody) == (403, "right_missing")
        assert walk(nobody, flow=flow_id) == (404, "flow_not_found")
        assert walk(runner) == (403, "right_missing"), "a right on one flow is no right to walk any document"
        assert walk(runner, flow=other_id) == (404, "flow_not_found")
        assert walk(reader, flow=flow_id) == (403, "right_missing")
        assert walk(runner, flow=flow_id) == (200, None)
        assert walk(editor, flow=flow_id) == (200, None)
        refused = api.post("/api/flows/walk", json={"document": document}, headers=auth(nobody)).json()
        assert refused["error"]["detail"] == {"right": "edit"}
        assert _rows(queue.url) == before


def amplifier(message_bytes: int, passes: int) -> tuple[dict[str, Any], list[int]]:
    """A small document whose walk logs a large text at every pass of a loop: the issue's amplifier."""
    document = {
        "format": "flowyard.flow/1",
        "name": "amplifier",
        "nodes": [
            {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
            {"id": "each", "type": "foreach", "config": {"items": "{{trigger}}", "as": "i"}},
            {"id": "say", "type": "log", "config": {"message": "x" * message_bytes}},
        ],
        "wires": [{"from": "start", "to": "each"}, {"from": "each", "port": "body", "to": "say"}],
    }
    return document, list(range(passes))


def test_an_amplifying_walk_stops_at_its_journal_limit_as_it_walks(queue: Queue) -> None:
    token = make_user(queue.url, "amp", "edit")
    document, items = amplifier(50_000, 100)  # 5 MB of journal, 10 MB of answer, unbounded
    with app_client(queue.url, max_walk_journal_bytes=200_000) as api:
        answer = api.post("/api/flows/walk", json={"document": document, "input": items}, headers=auth(token))
    assert answer.status_code == 200, answer.text[:300]
    walked = answer.json()
    assert (walked["status"], walked["error"]) == ("failed", "walk_journal_too_large")
    # Counted as it walks: it stopped at the first visit past the limit, not after 100 passes.
    assert walked["visits"].count("say") == 4
    [failed] = [line for line in walked["journal"] if line["code"] == "run_failed"]
    assert failed["data"] == {"error": "walk_journal_too_large", "limit": 200000}
    assert "200000" in failed["message"] or "200,000" in failed["message"]
    assert len(answer.content) < 500_000


def test_the_issues_megabyte_document_gets_a_small_answer_at_the_default_limit(queue: Queue) -> None:
    token = make_user(queue.url, "amp2", "edit")
    document, items = amplifier(900_000, 100)  # the issue's figure: 180 MB of answer, unbounded
    with app_client(queue.url) as api:
        answer = api.post("/api/flows/walk", json={"document": document, "input": items}, headers=auth(token))
    walked = answer.json()
    assert (walked["status"], walked["error"]) == ("failed", "walk_journal_too_large")
    assert walked["visits"].count("say") == 3
    assert len(answer.content) < 3 * DEFAULT_MAX_WALK_JOURNAL_BYTES
