"""The queue's pure parts, no database: the backoff of a resume that threw, a claim read from its row,
and when a pause falls due (`wake_of`), with the exact reason code and data of every refusal."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from backend.queue.claims import FIRST_BACKOFF, MAX_ATTEMPTS, ApprovalRead, Claim, backoff, database_clock
from backend.queue.wake_times import wake_of
from backend.queue.walked import WaitFailed, Wake
from backend.walker import ActionRequest, ApprovalRequest, DelayRequest, EventRequest


def test_the_backoff_doubles_from_one_minute() -> None:
    assert timedelta(minutes=1) == FIRST_BACKOFF
    assert MAX_ATTEMPTS == 5
    assert [backoff(n) for n in range(1, 6)] == [timedelta(minutes=m) for m in (1, 2, 4, 8, 16)]


def test_the_database_clock_defers_to_the_database() -> None:
    assert database_clock() is None


def test_a_claim_reads_its_row_in_order_and_as_integers() -> None:
    wake = datetime(2031, 5, 1, 9, tzinfo=UTC)
    row: tuple[object, ...] = ("7", "8", "delay", {"stack": []}, "d", 3, "2", wake, "11", "4", {"who": "x"})
    assert Claim.from_row(row) == Claim(
        wait_id=7,
        run_id=8,
        kind="delay",
        continuation={"stack": []},
        node="d",
        visit=3,
        attempts=2,
        wake_at=wake,
        flow_id=11,
        version=4,
        input={"who": "x"},
    )
    claim = Claim.from_row(row)
    assert [type(v) for v in (claim.wait_id, claim.run_id, claim.attempts, claim.flow_id, claim.version)] == [
        int
    ] * 5


def _delay(duration: str | None = None, until: str | None = None) -> DelayRequest:
    return DelayRequest(node="d", visit=2, duration=duration, until=until)


def _approval(deadline: str | None) -> ApprovalRequest:
    return ApprovalRequest(
        node="a", visit=1, title="t", explanation="e", approvers=["u"], deadline=deadline, on_timeout=None
    )


def test_a_delay_with_a_duration_wakes_after_it() -> None:
    assert wake_of(_delay("PT1H")) == Wake(kind="delay", after=timedelta(hours=1))
    assert wake_of(_delay("P3660D")) == Wake(kind="delay", after=timedelta(days=3660))


def test_a_delay_until_a_moment_wakes_at_it_in_utc() -> None:
    at = datetime(2031, 5, 1, 9, tzinfo=UTC)
    assert wake_of(_delay(until="2031-05-01T09:00:00")) == Wake(kind="delay", at=at)
    assert wake_of(_delay(until="2031-05-01T11:00:00+02:00")).at == at


def test_an_approval_wakes_at_its_deadline_or_never() -> None:
    day = timedelta(days=1)
    assert wake_of(_approval("P1D")) == Wake(kind="approval", after=day, deadline=day)
    assert wake_of(_approval(None)) == Wake(kind="approval", after=None, deadline=None)
    assert wake_of(_approval("")) == Wake(kind="approval", after=None, deadline=None)


@pytest.mark.parametrize(
    ("request_", "code", "data"),
    [
        (_delay("P1M"), "duration_invalid", {"node": "d", "duration": "P1M"}),
        (_delay("P3661D"), "duration_invalid", {"node": "d", "duration": "P3661D"}),
        (_approval("soon"), "duration_invalid", {"node": "a", "duration": "soon"}),
        (_delay(until="tomorrow"), "delay_until_invalid", {"node": "d", "until": "tomorrow"}),
        (_delay(until=None), "delay_until_invalid", {"node": "d", "until": None}),
        (
            _delay(until="9999-01-01T00:00:00"),
            "duration_invalid",
            {"node": "d", "duration": "9999-01-01T00:00:00"},
        ),
        (None, "wait_corrupt", {"request": "NoneType"}),
    ],
)
def test_a_pause_that_cannot_fall_due_fails_with_its_reason(
    request_: DelayRequest | ApprovalRequest | None, code: str, data: dict[str, object]
) -> None:
    with pytest.raises(WaitFailed) as failed:
        wake_of(request_)
    assert (failed.value.code, failed.value.data, failed.value.args) == (code, data, (code,))


def test_an_until_just_inside_the_cap_is_accepted() -> None:
    soon = (datetime.now(UTC) + timedelta(days=3659)).replace(microsecond=0, tzinfo=None)
    assert wake_of(_delay(until=soon.isoformat())).at == soon.replace(tzinfo=UTC)


def test_an_action_is_no_pause_and_its_type_is_named() -> None:
    with pytest.raises(WaitFailed) as failed:
        wake_of(ActionRequest(node="h", visit=3, type="http", config={}))
    assert (failed.value.code, failed.value.data) == ("wait_corrupt", {"request": "ActionRequest"})


def test_a_claim_row_with_a_final_approval_carries_it_and_its_answered_and_abandoned_marks() -> None:
    wake, decided = datetime(2031, 5, 1, 9, tzinfo=UTC), datetime(2031, 5, 1, 8, tzinfo=UTC)
    claim: tuple[object, ...] = (
        "7",
        "8",
        "approval",
        {"stack": []},
        "ask",
        3,
        "0",
        wake,
        "11",
        "4",
        {"who": "x"},
        1,
        True,  # its last claim was abandoned (a suspect, issue 35)
    )
    approval = (5, "approved", "ann", decided, "ok")
    read = Claim.from_row((*claim, *approval))
    final = ApprovalRead(5, "approved", "ann", decided, "ok")
    assert (read.answered, read.abandoned, read.approval) == (True, True, final)
    # An approval is read only when final: its id, its outcome and when it was decided, all three.
    for partial in [
        (None, "approved", "ann", decided, "ok"),
        (5, None, "ann", decided, "ok"),
        (5, "approved", "ann", None, "ok"),
    ]:
        assert Claim.from_row((*claim, *partial)).approval is None
    plain = Claim.from_row((*claim[:-2], 0, 0, *approval))
    assert (plain.answered, plain.abandoned) == (False, False)


def _event(timeout: str | None) -> EventRequest:
    return EventRequest(node="w", visit=2, events=["paid"], key="A-7", timeout=timeout, keep_early=None)


def test_an_event_wait_wakes_at_its_timeout_or_only_when_answered() -> None:
    assert wake_of(_event("PT2H")) == Wake(kind="event", after=timedelta(hours=2))
    assert wake_of(_event(None)) == Wake(kind="event")
    with pytest.raises(WaitFailed) as failed:
        wake_of(_event("soon"))
    assert (failed.value.code, failed.value.data) == ("duration_invalid", {"node": "w", "duration": "soon"})


def test_an_approval_wakes_at_its_first_reminder_or_escalation_and_keeps_its_deadline() -> None:
    asking = _approval("P1D")
    early = replace(asking, remind_after=("PT3H", "PT1H"), escalate_after="PT2H")
    assert wake_of(early) == Wake(kind="approval", after=timedelta(hours=1), deadline=timedelta(days=1))
    endless = replace(asking, deadline=None, remind_after=("PT5H",))
    assert wake_of(endless) == Wake(kind="approval", after=timedelta(hours=5), deadline=None)
    with pytest.raises(WaitFailed) as failed:
        wake_of(replace(asking, remind_after=("soon",)))
    assert (failed.value.code, failed.value.data) == ("duration_invalid", {"node": "a", "duration": "soon"})
