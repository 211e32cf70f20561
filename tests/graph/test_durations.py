"""ISO 8601 durations and `until` moments, exactly: each part's unit, the 3,660-day cap and its message."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from backend.graph.durations import DURATION_PATTERN, MAX_DURATION, check_moment, parse_duration, parse_moment


@pytest.mark.parametrize(
    ("text", "length"),
    [
        ("P2W", timedelta(weeks=2)),
        ("P3D", timedelta(days=3)),
        ("PT4H", timedelta(hours=4)),
        ("PT5M", timedelta(minutes=5)),
        ("PT6S", timedelta(seconds=6)),
        ("PT0.25S", timedelta(milliseconds=250)),
        ("P1W2DT3H4M5.5S", timedelta(weeks=1, days=2, hours=3, minutes=4, seconds=5.5)),
        ("P3660D", timedelta(days=3660)),
        ("PT87840H", timedelta(days=3660)),
    ],
)
def test_each_part_counts_in_its_own_unit(text: str, length: timedelta) -> None:
    assert parse_duration(text) == length


@pytest.mark.parametrize(
    "text", ["P", "PT", "P1M", "P1Y", "1D", "P1DT", "PT1D", "P-1D", "p1d", "P1.5D", " P1D"]
)
def test_what_is_no_duration_we_accept_says_so(text: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_duration(text)
    assert (
        str(refused.value) == f"not an ISO 8601 duration of weeks, days, hours, minutes and seconds: {text!r}"
    )


@pytest.mark.parametrize("text", ["P3661D", "P523W", "PT87841H", "P99999999999999999999W"])
def test_longer_than_the_longest_wait_is_refused_with_the_limit(text: str) -> None:
    assert timedelta(days=3660) == MAX_DURATION
    with pytest.raises(ValueError) as refused:
        parse_duration(text)
    assert str(refused.value) == "longer than 3660 days, the longest a run may wait"


def test_the_pattern_is_what_the_schema_holds_a_duration_to() -> None:
    assert DURATION_PATTERN.startswith("^P(?!$)") and DURATION_PATTERN.endswith(")?$")


def test_a_moment_without_an_offset_is_utc_and_one_with_an_offset_keeps_it() -> None:
    assert parse_moment("2031-05-01T09:00:00") == datetime(2031, 5, 1, 9, tzinfo=UTC)
    paris = parse_moment("2031-05-01T11:00:00+02:00")
    assert paris.utcoffset() == timedelta(hours=2)
    assert paris == datetime(2031, 5, 1, 9, tzinfo=UTC)
    assert paris.tzinfo == timezone(timedelta(hours=2))


def test_a_moment_exactly_at_the_cap_is_accepted_and_one_second_more_is_not() -> None:
    now = datetime(2026, 11, 30, 12, tzinfo=UTC)
    check_moment(now + MAX_DURATION, now)
    check_moment(now - timedelta(days=10_000), now)  # the past is not limited: it falls due at once
    with pytest.raises(ValueError) as refused:
        check_moment(now + MAX_DURATION + timedelta(seconds=1), now)
    assert str(refused.value) == "more than 3660 days ahead, the longest a run may wait"
