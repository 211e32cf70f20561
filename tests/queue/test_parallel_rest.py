"""`parallel` with `rest: continue` through the real queue and PostgreSQL (issue 35, workflow pattern 9):
the run goes on past `done` at the first branch, the slower branch's approval stays open and can still be
decided, its arrival is journaled and ignored, and the run ends only after it."""

from __future__ import annotations

from datetime import timedelta

from tests.queue.test_parallel import approvals, ask, decide, note, pauses, people, walk
from tests.support import Queue, flow


def racing(*after: dict[str, object], wires: str) -> dict[str, object]:
    return flow(
        "start:trigger",
        {"id": "race", "type": "parallel", "config": {"wait": "first", "rest": "continue"}},
        note("quick"),
        ask("legal", approvers=["user:lea"]),
        note("signed"),
        note("after"),
        *after,
        wires="start>race race.branches>quick race.branches>legal legal.approve>signed race.done>after "
        + wires,
    )


def lines(queue: Queue, run_id: int, code: str) -> list[tuple[str, int | None]]:
    rows = queue.all(
        "SELECT node, visit FROM journal WHERE run_id = %s AND code = %s ORDER BY seq", run_id, code
    )
    return [(row[0], row[1]) for row in rows]


def test_the_slower_approval_stays_open_past_done_and_the_run_ends_after_it(queue: Queue) -> None:
    people(queue)
    run_id = queue.start(queue.save(racing(wires="")))
    walk(queue)
    journal = [row[0] for row in queue.all("SELECT node FROM journal WHERE run_id = %s ORDER BY seq", run_id)]
    assert "after" in journal and "signed" not in journal, "went on past done at the first branch"
    assert queue.status(run_id) == ("waiting", None), "the run waits for the branch still running"
    assert approvals(queue, run_id) == [("legal", None)], "not cancelled"
    assert list(pauses(queue, run_id)) == ["legal@4"]
    assert lines(queue, run_id, "branch_cancelled") == []

    decide(queue, run_id, "legal", "approved", "lea")
    walk(queue)
    assert queue.status(run_id) == ("succeeded", None)
    assert approvals(queue, run_id) == [("legal", "approved")]
    assert lines(queue, run_id, "branch_arrival_ignored") == [("race", 2)]
    assert lines(queue, run_id, "parallel_rest_ended") == [("race", 2)]
    assert lines(queue, run_id, "parallel_finished") == [("race", 2)], "done was followed once"
    assert queue.one("SELECT count(*) FROM waits WHERE run_id = %s", run_id) == (0,)


def test_an_approval_after_done_and_the_slower_one_are_open_together_in_either_order(queue: Queue) -> None:
    people(queue)
    document = racing(
        ask("then", approvers=["user:fin"]), note("closed"), wires="after>then then.approve>closed"
    )
    for order in (("legal", "then"), ("then", "legal")):
        run_id = queue.start(queue.save(document))
        walk(queue)
        assert approvals(queue, run_id) == [("legal", None), ("then", None)]
        assert sorted(pauses(queue, run_id)) == ["legal@4", "then@6"]
        for node in order:
            decide(queue, run_id, node, "approved", "lea" if node == "legal" else "fin")
            queue.clock.advance(timedelta(seconds=1))
            walk(queue)
        assert queue.status(run_id) == ("succeeded", None)
        assert approvals(queue, run_id) == [("legal", "approved"), ("then", "approved")]
        assert lines(queue, run_id, "branch_arrival_ignored") == [("race", 2)]
