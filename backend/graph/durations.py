"""ISO 8601 durations as flows write them: `P2D`, `PT30M`, `P1DT12H`, `PT0.5S`, `P1W`.

Years and months are refused: their length depends on the calendar date they start from, and a deadline
that means 28 days in one run and 31 in another is a surprise, not a feature.

Examples:
    >>> parse_duration("P1DT2H30M")
    datetime.timedelta(days=1, seconds=9000)
    >>> parse_duration("PT0.5S")
    datetime.timedelta(microseconds=500000)
    >>> parse_duration("P1M")
    Traceback (most recent call last):
    ...
    ValueError: not an ISO 8601 duration of weeks, days, hours, minutes and seconds: 'P1M'
    >>> parse_duration("P999999999D")
    Traceback (most recent call last):
    ...
    ValueError: longer than 3660 days, the longest a run may wait
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

DURATION_PATTERN = (
    r"^P(?!$)(?:(?P<weeks>\d+)W)?(?:(?P<days>\d+)D)?"
    r"(?:T(?=\d)(?:(?P<hours>\d+)H)?(?:(?P<minutes>\d+)M)?(?:(?P<seconds>\d+(?:\.\d+)?)S)?)?$"
)
_DURATION = re.compile(DURATION_PATTERN)
# A limit, not a truncation: ten years (and leap days) is longer than any flow should wait, and keeps
# every deadline far inside what a timestamp can hold.
MAX_DURATION = timedelta(days=3660)


def parse_duration(text: str) -> timedelta:
    """The length of an ISO 8601 duration; ValueError when it is not one we accept."""
    match = _DURATION.match(text)
    if match is None:
        raise ValueError(f"not an ISO 8601 duration of weeks, days, hours, minutes and seconds: {text!r}")
    parts = {name: float(value) for name, value in match.groupdict().items() if value is not None}
    try:
        duration = timedelta(**parts)
    except OverflowError:
        duration = MAX_DURATION + timedelta(days=1)
    if duration > MAX_DURATION:
        raise ValueError(f"longer than {MAX_DURATION.days} days, the longest a run may wait")
    return duration


def parse_moment(text: str) -> datetime:
    """A delay's `until`: an ISO 8601 timestamp; one without an offset is UTC, as everywhere in our API.

    Examples:
        >>> parse_moment("2031-05-01T09:00:00")
        datetime.datetime(2031, 5, 1, 9, 0, tzinfo=datetime.timezone.utc)
    """
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def check_moment(moment: datetime, now: datetime) -> None:
    """ValueError when `moment` is further from `now` than a run may wait: `until` is capped as durations are.

    Examples:
        >>> now = parse_moment("2026-11-30T12:00:00")
        >>> check_moment(parse_moment("2036-11-30T12:00:00"), now)
        >>> check_moment(parse_moment("9999-12-31T00:00:00"), now)
        Traceback (most recent call last):
        ...
        ValueError: more than 3660 days ahead, the longest a run may wait
    """
    if moment - now > MAX_DURATION:
        raise ValueError(f"more than {MAX_DURATION.days} days ahead, the longest a run may wait")
