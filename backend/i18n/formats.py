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

from datetime import UTC, datetime, timedelta, tzinfo
from decimal import Decimal
from functools import cache

from babel import Locale, dates, lists, numbers, units

from backend.i18n.locales import DEFAULT_LOCALE, LOCALES

# Largest first: a duration is written as each whole unit it has, down to seconds. Days are the largest
# unit because weeks and months would round (ten days is not "1 week").
_UNITS = (("duration-day", 86_400), ("duration-hour", 3_600), ("duration-minute", 60), ("duration-second", 1))


def format_datetime(moment: datetime, locale: str, *, tz: tzinfo | None = None) -> str:
    """A date and time in the locale's medium format, in `tz` (by default its own zone; naive is UTC).

    What Babel's `format_datetime(..., format="medium")` writes, from the locale's patterns parsed once:
    an export writes two a row, and Babel looks the patterns up again each time.
    """
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if tz is not None:
        moment = moment.astimezone(tz)
    ours = babel_locale(locale)
    glue, day, clock = _medium_patterns(ours)
    written_time = clock.apply(moment.timetz(), ours, reference_date=moment.date())
    return glue.replace("{0}", written_time).replace("{1}", day.apply(moment.date(), ours))


@cache
def _medium_patterns(locale: Locale) -> tuple[str, dates.DateTimePattern, dates.DateTimePattern]:
    """A locale's medium date-and-time glue ("{1}, {0}"), date pattern and time pattern."""
    glue = str(dates.get_datetime_format("medium", locale=locale)).replace("'", "")
    day = dates.parse_pattern(dates.get_date_format("medium", locale=locale))
    return glue, day, dates.parse_pattern(dates.get_time_format("medium", locale=locale))


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
