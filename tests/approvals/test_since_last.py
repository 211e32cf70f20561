"""`flowyard audit verify --since-last` (since_last.py): it reads only the records added since each chain's
last verified point, moves the point on page by page (an interrupted verify resumes there), still sees a
chain rewritten under its point and a row written past the chain since; a change to a row verified before
is for a full verify, which finds it."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest

from backend.approvals import since_last
from backend.approvals.chain import Verdict, verify
from backend.approvals.since_last import verify_since_last
from tests.approvals import test_chain
from tests.approvals.test_chain import by_hand, cli
from tests.approvals.test_decisions import decide, user
from tests.support import Queue

decided = test_chain.decided  # the fixture: three decided approvals through the real queue


def since(queue: Queue, flow_id: int) -> Verdict:
    async def go() -> Verdict:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return await verify_since_last(conn, flow_id)

    return asyncio.run(go())


def full(queue: Queue, flow_id: int) -> Verdict:
    async def go() -> Verdict:
        async with await psycopg.AsyncConnection.connect(queue.url, autocommit=True) as conn:
            return await verify(conn, flow_id)

    return asyncio.run(go())


def point(queue: Queue, flow_id: int) -> tuple[Any, ...] | None:
    return queue.one("SELECT seq, hash FROM audit_verified WHERE chain = %s", f"flow:{flow_id}")


def hash_at(queue: Queue, flow_id: int, seq: int) -> str:
    row = queue.one("SELECT hash FROM audit_chain WHERE chain = %s AND seq = %s", f"flow:{flow_id}", seq)
    assert row is not None
    return str(row[0])


def one_more_decision(queue: Queue, flow_id: int) -> None:
    run_id = queue.start(flow_id, input={"id": "A-more"})
    queue.clock.advance(timedelta(minutes=1))
    queue.drain()
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert row is not None
    decide(queue, row[0], "approved", user(queue, f"bea{flow_id}", "decide"))
    queue.drain()


def test_since_last_reads_only_the_records_added_since(decided: tuple[Queue, int, list[int]]) -> None:
    queue, flow_id, _ = decided
    first = since(queue, flow_id)
    assert first.intact and first.records == 6, "a chain never verified is read from its first record"
    head = queue.one("SELECT seq, hash FROM audit_chain_heads WHERE chain = %s", f"flow:{flow_id}")
    assert point(queue, flow_id) == head

    again = since(queue, flow_id)
    assert again.intact and again.records == 0
    one_more_decision(queue, flow_id)
    after = since(queue, flow_id)
    assert after.intact and after.records == 2, "the new vote and decision, nothing before them"

    result = cli(queue, "--flow", str(flow_id), "--since-last", "--json")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert (answer["intact"], answer["since_last"], answer["records"]) == (True, True, 0)


def test_a_change_to_a_verified_row_is_for_a_full_verify(decided: tuple[Queue, int, list[int]]) -> None:
    queue, flow_id, approvals = decided
    assert since(queue, flow_id).intact
    by_hand(queue, "approvals", f"UPDATE approvals SET outcome = 'approved' WHERE id = {approvals[1]}")

    unseen = since(queue, flow_id)
    assert unseen.intact and unseen.records == 0, "the changed row is before the point: not read again"
    found = full(queue, flow_id)
    assert [(b.code, b.ref_id) for b in found.breaks] == [("chain_row_changed", approvals[1])]
    result = cli(queue, "--flow", str(flow_id))
    assert result.returncode == 1 and "chain_row_changed" in result.stderr


def test_a_chain_rewritten_under_its_point_is_found(
    decided: tuple[Queue, int, list[int]], tmp_path: Path
) -> None:
    from tests.approvals.test_signed_heads import audit

    queue, flow_id, _ = decided
    assert audit(queue, tmp_path, "sign").returncode == 0
    assert since(queue, flow_id).intact
    by_hand(
        queue,
        "audit_chain",
        f"UPDATE audit_chain SET hash = repeat('e', 64) WHERE chain = 'flow:{flow_id}' AND seq = 6",
    )
    found = since(queue, flow_id)
    assert [(b.code, b.seq) for b in found.breaks] == [("chain_verified_changed", 6)]
    result = audit(queue, tmp_path, "verify", "--flow", str(flow_id), "--since-last", "--json")
    assert result.returncode == 1
    held = json.loads(result.stdout)
    assert [b["code"] for b in held["breaks"]] == ["chain_verified_changed"], "the chain is not read on"


def test_a_row_written_past_the_chain_since_the_last_verify_is_found(
    decided: tuple[Queue, int, list[int]],
) -> None:
    queue, flow_id, approvals = decided
    assert since(queue, flow_id).intact
    by_hand(
        queue,
        "approval_votes",
        "INSERT INTO approval_votes (approval_id, flow_id, voter, vote, cast_at)"
        f" VALUES ({approvals[0]}, {flow_id}, 'mallory', 'approve', now())",
    )
    found = since(queue, flow_id)
    assert [(b.code, b.kind) for b in found.breaks] == [("chain_row_unrecorded", "vote")]
    assert point(queue, flow_id) is not None


def test_an_interrupted_verify_resumes_where_it_stopped(
    decided: tuple[Queue, int, list[int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    queue, flow_id, _ = decided
    monkeypatch.setattr(since_last, "_PAGE", 2)
    reach = since_last.reach
    calls = []

    async def stopped_after_one_page(*args: Any) -> None:
        await reach(*args)
        calls.append(args)
        raise KeyboardInterrupt  # the auditor's Ctrl-C, after the first page was verified

    monkeypatch.setattr(since_last, "reach", stopped_after_one_page)
    with pytest.raises(KeyboardInterrupt):
        since(queue, flow_id)
    assert len(calls) == 1 and point(queue, flow_id) == (2, hash_at(queue, flow_id, 2))

    monkeypatch.setattr(since_last, "reach", reach)
    resumed = since(queue, flow_id)
    assert resumed.intact and resumed.records == 4, "records 3 to 6, in two pages"
    assert point(queue, flow_id) == (6, hash_at(queue, flow_id, 6))
