"""A delay's `until` is capped like a duration, 3,660 days (issue 12, item 10): a finding at validation
for a literal one, `duration_invalid` at run time for one a template yields."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from backend.graph import validate
from backend.queue.wake_times import wake_of
from backend.queue.walked import WaitFailed
from backend.walker import DelayRequest
from tests.graph.graph_flows import found
from tests.support import flow

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
CAP = NOW + timedelta(days=3660)


def delay_until(until: str) -> dict[str, object]:
    document = flow("t:trigger d:delay", wires="t>d")
    document["nodes"][1]["config"] = {"until": until}
    return document


@pytest.mark.parametrize("until", ["9999-12-31T00:00:00Z", (CAP + timedelta(seconds=1)).isoformat()])
def test_a_literal_until_further_than_3660_days_is_a_finding(until: str) -> None:
    findings = validate(delay_until(until), now=NOW)
    assert found(findings) == [("node_config_invalid", "d", None)]
    assert findings[0].detail == "/nodes/1/config/until"
    assert "3,660 days" in findings[0].message


@pytest.mark.parametrize("until", [CAP.isoformat(), "2020-01-01T00:00:00", "{{trigger.when}}"])
def test_an_until_within_the_cap_in_the_past_or_from_a_template_is_valid(until: str) -> None:
    assert validate(delay_until(until), now=NOW) == []


def test_a_literal_until_that_is_no_timestamp_is_a_finding_even_without_a_clock() -> None:
    findings = validate(delay_until("next tuesday"))
    assert [(f.code, f.detail) for f in findings] == [("node_config_invalid", "/nodes/1/config/until")]
    # Without `now` the validator reads no clock, so only the form is checked.
    assert validate(delay_until("9999-12-31T00:00:00Z")) == []


def test_an_until_past_the_cap_fails_the_wait_at_run_time_with_duration_invalid() -> None:
    far = (datetime.now(UTC) + timedelta(days=3661)).isoformat()
    with pytest.raises(WaitFailed) as refused:
        wake_of(DelayRequest(node="d", visit=2, duration=None, until=far))
    assert refused.value.code == "duration_invalid"
    near = (datetime.now(UTC) + timedelta(days=3659)).isoformat()
    assert wake_of(DelayRequest(node="d", visit=2, duration=None, until=near)).at is not None
