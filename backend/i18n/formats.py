"""Dates, times, numbers and durations as a reader of one of our locales writes them, with Babel.

A locale we do not ship is formatted as English, as every other part of this package falls back to
English; Babel would raise for a name it does not know.

Examples:
    >>> from datetime import UTC, datetime, timedelta
    >>> format_datetime(datetime(2026, 3, 1, 14, 5, tzinfo=UTC), "de")
    '01.03.2026, 14:05:00'
    >>> format_number(1234567.5, "de")
    '1.234.567,5'
    >>> format_duration(timedelta(days=2, minutes=4), "de")
    '2 Tage und 4 Minuten'
    >>> format_duration(timedelta(hours=1), "xx")
    '1 hour'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from decimal import Decimal
from functools import cache
from typing import cast

from babel import Locale, dates, lists, numbers, units

from backend.i18n.locales import DEFAULT_LOCALE, LOCALES

# Largest first: a duration is written as each whole unit it has, down to seconds. Days are the largest
# unit because weeks and months would round (ten days is not "1 week").
_UNITS = (("duration-day", 86_400), ("duration-hour", 3_600), ("duration-minute", 60), ("duration-second", 1))


def format_datetime(moment: datetime, locale: str, *, tz: tzinfo | None = None) -> str:
    """A date and time in the locale's medium format, in `tz` (by default its own zone; naive is UTC).

    What Babel's `format_datetime(..., format="medium")` writes (tests/i18n/test_formats.py holds every
    locale to it), faster: an export writes two a row (`MediumDatetime`).
    """
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if tz is not None:
        moment = moment.astimezone(tz)
    medium = medium_datetime(locale)
    before, after = medium.around(moment.date())
    return before + medium.clock(moment) + after


@dataclass(frozen=True, eq=False)
class MediumDatetime:
    """A locale's medium date and time, its patterns parsed once. The date is written once per day, with
    the glue around it ("{1}, {0}": what comes `around` the time). The time's medium pattern, in each of
    our locales, has only hours, minutes, one seconds field and the AM/PM mark: the text before and
    after the seconds is written for each of a day's 1,440 minutes when the locale is first asked for,
    and a time is that minute's text around its seconds (`clock`), not a walk through Babel's fields.
    """

    locale: Locale
    glue: str
    day: dates.DateTimePattern
    time: dates.DateTimePattern
    # By minute of the day (hour * 60 + minute); none for a pattern with other fields (Babel writes it).
    minutes: tuple[tuple[str, str], ...]
    seconds: tuple[str, ...]  # 0 to 59 as the pattern writes them
    days: dict[date, tuple[str, str]] = field(default_factory=dict)

    def around(self, day: date) -> tuple[str, str]:
        """The text before and after the time on `day`: the glue, the date written in it."""
        found = self.days.get(day)
        if found is None:
            if len(self.days) >= 4096:
                self.days.clear()
            before, _, after = self.glue.replace("{1}", self.day.apply(day, self.locale)).partition("{0}")
            found = self.days[day] = (before, after)
        return found

    def clock(self, moment: datetime) -> str:
        """The time of an aware `moment`, in its own zone."""
        if not self.minutes:
            return self.time.apply(moment.timetz(), self.locale, reference_date=moment.date())
        before, after = self.minutes[moment.hour * 60 + moment.minute]
        return before + self.seconds[moment.second] + after


_MEDIUM: dict[str, MediumDatetime] = {}
# Babel writes H, h, m and s as zero-padded numbers as wide as the field, and a as the AM/PM mark.
_CLOCK_FIELD = re.compile(r"%\((\w+)\)s")
_SECONDS_HERE = "\0"  # where a minute's text is cut around its seconds


def medium_datetime(locale: str) -> MediumDatetime:
    """The medium date and time of one of our locales (any other name is written as English), made once."""
    found = _MEDIUM.get(locale) or _MEDIUM.get(_ours(locale))
    if found is not None:
        return found
    ours = babel_locale(locale)
    glue = str(dates.get_datetime_format("medium", locale=ours)).replace("'", "")
    day = dates.parse_pattern(dates.get_date_format("medium", locale=ours))
    clock_pattern = dates.parse_pattern(dates.get_time_format("medium", locale=ours))
    minutes, seconds = _minutes(clock_pattern, ours)
    found = _MEDIUM[_ours(locale)] = MediumDatetime(ours, glue, day, clock_pattern, minutes, seconds)
    return found


def _minutes(
    pattern: dates.DateTimePattern, ours: Locale
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """Each minute of a day as the time `pattern` writes it, cut around the seconds, and the seconds as it
    writes them; nothing when the pattern has a field other than these or not one seconds field."""
    # The pattern as Babel's %-template ("%(HH)s:%(mm)s"): an attribute that mypy takes for the method.
    template = cast(str, pattern.format)
    fields: list[str] = _CLOCK_FIELD.findall(template)
    written_here = all(part[0] in "Hhmsa" and set(part) == {part[0]} for part in fields)
    seconds = [part for part in fields if part[0] == "s"]
    if not written_here or len(seconds) != 1:
        return (), ()
    width = max((len(part) for part in fields if part[0] == "a"), default=1)
    marks = [dates.DateTimeFormat(time(hour), ours).format_period("a", width) for hour in (0, 12)]
    literal = template.replace("{", "{{").replace("}", "}}")
    clock = _CLOCK_FIELD.sub(lambda f: _clock_field(f.group(1)), literal)
    minutes = []
    for hour in range(24):
        for minute in range(60):
            written = clock.format(H=hour, h=hour % 12 or 12, m=minute, s=_SECONDS_HERE, a=marks[hour >= 12])
            before, _, after = written.partition(_SECONDS_HERE)
            minutes.append((before, after))
    return tuple(minutes), tuple(f"{second:0{len(seconds[0])}d}" for second in range(60))


def _clock_field(field: str) -> str:
    """A Babel time field as a `str.format` field: `HH` as `{H:02d}`, `a` as `{a}`, seconds as `{s}`
    (where the minute's text is cut)."""
    return f"{{{field[0]}}}" if field[0] in "as" else f"{{{field[0]}:0{len(field)}d}}"


def format_number(number: int | float | Decimal, locale: str) -> str:
    """A number with the locale's decimal sign and grouping (at most three decimals, as Babel rounds)."""
    return numbers.format_decimal(number, locale=_ours(locale))


def format_duration(duration: timedelta, locale: str) -> str:
    """A duration as whole days, hours, minutes and seconds, each that is not zero, in a locale's list.

    Babel's `format_timedelta` rounds to one unit ("2 hours" for 1 h 30 min, "1 week" for ten days); a
    deadline or a delay is a promise about time, so every unit is kept, each written with Babel's unit
    patterns, and only fractions of a second are dropped. A negative duration is written as its size,
    as `format_timedelta` does.

    Examples:
        >>> format_duration(timedelta(days=10, hours=1, seconds=5), "en")
        '10 days, 1 hour, and 5 seconds'
        >>> format_duration(timedelta(milliseconds=300), "ja")
        '0 秒'
    """
    locale = _ours(locale)
    left = abs(int(duration.total_seconds()))
    parts: list[str] = []
    for unit, seconds in _UNITS:
        count, left = divmod(left, seconds)
        if count:
            parts.append(units.format_unit(count, unit, locale=locale))
    if not parts:
        return units.format_unit(0, "duration-second", locale=locale)
    return lists.format_list(parts, style="standard", locale=locale)


def _ours(locale: str) -> str:
    return locale if locale in LOCALES else DEFAULT_LOCALE


def babel_locale(locale: str) -> Locale:
    """Babel's Locale of one of ours (English for any other name), parsed once: Babel parses a name on
    every call it is given one in (nine times for one date and time), a third of an export's time."""
    return _parsed(_ours(locale))


@cache
def _parsed(locale: str) -> Locale:  # one of ours: nine at most
    return Locale.parse(locale)
