"""An approval keeps what it showed (issue 31): both ways an approval is written, one by one (`create`)
and a batch's at once (`create_many`), store the request's `shown`; it reads back, and its digest is that
of the canonical JSON of what it asks."""

from __future__ import annotations

import hashlib
from functools import partial
from typing import Any

from backend.approvals.decisions import ApprovalDecisions
from backend.approvals.queue_port import ApprovalsPort
from backend.approvals.records import digest
from backend.graph.model import Flow
from backend.queue.walked import Run
from backend.walker import ApprovalRequest
from tests.approvals.test_decisions import approval_flow
from tests.support import AsyncConnection, Queue

SHOWN: tuple[dict[str, Any], ...] = (
    {"label": "Betrag", "path": "trigger.amount", "value": 98000.5},
    {"label": None, "path": "trigger.bank", "value": {"iban": "DE02", "api_key": "••••"}, "masked": True},
    {"label": "Lieferant", "path": "vendor", "value": "Müller & Söhne"},
)


def _request(visit: int) -> ApprovalRequest:
    return ApprovalRequest(
        node="ask",
        visit=visit,
        title="Rechnung zahlen?",
        explanation="",
        approvers=[],
        deadline=None,
        on_timeout=None,
        shown=SHOWN,
    )


def test_create_many_keeps_what_each_approval_shows(queue: Queue) -> None:
    document = approval_flow()
    flow_id = queue.save(document)
    runs = [
        Run(id=queue.start(flow_id), flow_id=flow_id, version=1, input=None, flow=Flow.load(document))
        for _ in range(3)
    ]

    async def write(conn: AsyncConnection) -> None:
        service = ApprovalsPort(queue.clock)
        await service.create_many(conn, [(run, _request(90), None) for run in runs])

    queue.aconn(write)
    rows = queue.all(
        "SELECT id, run_id, shown FROM approvals WHERE run_id = ANY(%s) AND visit = 90 ORDER BY run_id",
        [run.id for run in runs],
    )
    assert [row[1] for row in rows] == [run.id for run in runs]
    assert [row[2] for row in rows] == [list(SHOWN)] * 3

    for approval_id, run_id, _ in rows:
        read = queue.aconn(partial(ApprovalDecisions().get, approval_id=approval_id))
        assert read is not None
        assert read.to_json()["shown"] == list(SHOWN)
        assert read.to_json()["digest"] == digest(approval_id, run_id, "Rechnung zahlen?", "", list(SHOWN))


def test_the_digest_is_the_sha256_of_the_canonical_json_of_what_is_asked() -> None:
    shown = [{"label": "Betrag", "path": "trigger.amount", "value": 98000}]
    # Written out by hand: keys sorted, no spaces, non-ASCII as it is, in UTF-8.
    canonical = (
        '{"explanation":"Über dem Limit","id":12,"run_id":5,'
        '"shown":[{"label":"Betrag","path":"trigger.amount","value":98000}],"title":"Zahlen?"}'
    )
    expected = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    # The same figure from outside Python: printf '%s' '<canonical>' | sha256sum
    assert expected == "82e10021cfd910dfd963d290f1aa40d4051e1618ddac9cd0aaada7a941121d81"
    assert digest(12, 5, "Zahlen?", "Über dem Limit", shown) == expected
    assert digest(12, 5, "Zahlen?", "Über dem Limit", []) != expected
    assert digest(13, 5, "Zahlen?", "Über dem Limit", shown) != expected
