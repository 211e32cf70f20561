"""The audit search's text filter in any language (issue 38): the text index finds a Japanese phrase inside
a comment (no spaces between words), a word in another case, and a single character; a text that only
appears across two fields (the end of the title and the start of the explanation) is not found."""

from __future__ import annotations

import pytest

from backend.approvals.audit import AuditFilter, search
from backend.approvals.service import ApprovalService
from tests.approvals.test_decisions import approval_flow, user
from tests.support import Queue

COMMENTS = ["請求書の支払いを承認します", "Rechnung geprüft und freigegeben", None]


@pytest.fixture(scope="module")
def decided(database_url: str) -> tuple[Queue, list[int]]:
    queue = Queue(database_url)
    flow_id = queue.save(approval_flow(explanation="over budget"))
    ann = user(queue, "ann", "decide")
    ids = []
    for i, comment in enumerate(COMMENTS):
        run_id = queue.start(flow_id, input={"id": f"K-{i}"})
        queue.drain()
        row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
        assert row is not None
        ids.append(row[0])
        decide_with(queue, row[0], ann, comment)
    return queue, ids


def decide_with(queue: Queue, approval_id: int, by: str, comment: str | None) -> None:
    service = ApprovalService(queue.clock)
    queue.aconn(lambda conn: service.decide(conn, approval_id, "approved", by=by, comment=comment))


def found(queue: Queue, text: str) -> list[int]:
    page = queue.aconn(lambda conn: search(conn, AuditFilter(text=text), cursor=None, limit=100))
    return [row.id for row in page.rows]


def test_a_japanese_phrase_inside_a_comment_is_found(decided: tuple[Queue, list[int]]) -> None:
    queue, ids = decided
    assert found(queue, "支払い") == [ids[0]]
    assert found(queue, "請求書の支払") == [ids[0]]
    assert found(queue, "支払う") == []


def test_case_and_a_single_character_and_the_title(decided: tuple[Queue, list[int]]) -> None:
    queue, ids = decided
    assert found(queue, "RECHNUNG") == [ids[1]]
    assert found(queue, "ü") == [ids[1]]
    assert found(queue, "k-2") == [ids[2]], "the title: Pay K-2?"
    assert found(queue, "BUDGET") == ids


def test_a_text_only_across_two_fields_is_not_found(decided: tuple[Queue, list[int]]) -> None:
    queue, _ = decided
    # The title ends "?" and the explanation starts "over": the index holds "?\\n" and "\\no", never "?o".
    assert found(queue, "?over") == []
    assert found(queue, "? over") == []
