"""The audit search's text filter in any language (issue 38): the text index finds a Japanese phrase inside
a comment (no spaces between words), a word in another case, and a single character; a text that only
appears across two fields (the end of the title and the start of the explanation) is not found."""

from __future__ import annotations

import pytest

from backend.approvals.audit import AuditFilter, Page, search
from backend.approvals.decisions import ApprovalDecisions
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
    service = ApprovalDecisions(queue.clock)
    queue.aconn(lambda conn: service.decide(conn, approval_id, "approved", by=by, comment=comment))


def _page(queue: Queue, text: str, cursor: str | None, window: int, limit: int) -> Page:
    where = AuditFilter(text=text)
    return queue.aconn(lambda conn: search(conn, where, cursor=cursor, limit=limit, window=window))


def found(queue: Queue, text: str, window: int = 20_000, limit: int = 100) -> list[int]:
    """Every decision holding `text`, page after page."""
    ids: list[int] = []
    cursor: str | None = None
    while True:
        page = _page(queue, text, cursor, window, limit)
        ids.extend(row.id for row in page.rows)
        if page.next_cursor is None:
            return ids
        cursor = page.next_cursor


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


@pytest.mark.parametrize("window", [1, 2, 3])
@pytest.mark.parametrize("limit", [1, 2, 100])
def test_the_text_index_after_the_window_finds_the_same_in_the_same_order(
    decided: tuple[Queue, list[int]], window: int, limit: int
) -> None:
    """A window smaller than the trail: what it lacks comes from the text index, after it, in order."""
    queue, ids = decided
    for text in ("支払い", "RECHNUNG", "k-2", "BUDGET", "ü", "?over", "pay"):
        assert found(queue, text, window, limit) == found(queue, text), (text, window, limit)
    assert found(queue, "budget", window, limit) == ids
