"""What every crash of `branch_action_retried_then_failed` (issue 35, item 2) is compared with, held to its
shape: a parallel whose one branch's action fails with no error port, retried alone while the other
branch's approval is requested, until its last attempt fails the run. A module of its own: the sweep makes
its people once per database, and the reduced corpus's module has made them in its own."""

from __future__ import annotations

from tests.actions.servers import recording_server
from tests.crashes.scenarios import BRANCH_RETRY
from tests.crashes.sweep import Sweep


def test_the_branch_retry_scenario_requests_the_approval_and_fails_the_run_at_the_last_attempt(
    database_url: str,
) -> None:
    """What every crash of `branch_action_retried_then_failed` is compared with: the approval requested
    (its mail written) while the branch backs off, four retries journaled, then the run failed."""
    with recording_server() as receiver, Sweep(database_url, receiver) as sweep:
        snapshot, _ = sweep.reference(BRANCH_RETRY)
    assert (snapshot.status, snapshot.error) == ("failed", "action_failed")
    assert [(node, outcome) for node, _, outcome, _, _ in snapshot.approvals] == [("legal", "run_failed")]
    assert [(node, user) for node, _, user, _ in snapshot.mails] == [("legal", "crash_eve")]
    codes = [code for _, _, code in snapshot.walk]
    assert codes.count("action_retry_later") == 4 and codes.count("branch_attempts_exhausted") == 1
    assert len(snapshot.received) == 5 and len(set(snapshot.received)) == 1, "five tries, one effect key"
