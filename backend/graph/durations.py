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
from datetime import timedelta

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
