"""Whose time zone a date is written in: the reader's, an IANA name stored on the user (migration 0011).

The API sets the reader's zone for the length of a request (`reading_in`), so that every `datetime` a
sentence cites (`message(..., at=moment)`) is written in it, with the zone named; a reader without one,
and the command line, read UTC. The audit CSV and the approvers' mail pass the zone explicitly.

Examples:
    >>> from datetime import UTC, datetime
    >>> moment = datetime(2026, 3, 1, 14, 5, tzinfo=UTC)
    >>> format_moment(moment, "de")
    '01.03.2026, 14:05:00 UTC'
    >>> with reading_in(zone("Europe/Berlin")):
    ...     format_moment(moment, "de")
    '01.03.2026, 15:05:00 Mitteleuropäische Normalzeit'
    >>> format_moment(moment, "ja", tz=zone("Asia/Tokyo"))
    '2026/03/01 23:05:00 日本標準時'
    >>> known_zone("Europe/Berlin"), known_zone("Mars/Olympus"), known_zone("../etc/passwd")
    (True, False, False)
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from datetime import UTC, date, datetime, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from babel import Locale, dates

from backend.i18n.formats import babel_locale, medium_datetime
from backend.i18n.locales import DEFAULT_LOCALE, LOCALES

_READER_ZONE: ContextVar[tzinfo] = ContextVar("reader_zone", default=UTC)


@cache
def _known() -> frozenset[str]:
    return frozenset(available_timezones())


def known_zone(name: str) -> bool:
    """Whether `name` is an IANA time zone this machine's tz database has."""
    return name in _known()


def zone(name: str | None) -> tzinfo:
    """A user's time zone; UTC when they have none or it is not a zone this machine knows."""
    if not name or not known_zone(name):
        return UTC
    return ZoneInfo(name)


def reader_zone() -> tzinfo:
    """The zone of whoever the current request or command writes for (UTC unless one is set)."""
    return _READER_ZONE.get()


def set_reader_zone(tz: tzinfo) -> Token[tzinfo]:
    """Write dates in `tz` from now on in this task; `reset_reader_zone(token)` undoes it."""
    return _READER_ZONE.set(tz)


def reset_reader_zone(token: Token[tzinfo]) -> None:
    _READER_ZONE.reset(token)


@contextmanager
def reading_in(tz: tzinfo) -> Iterator[None]:
    """Write every date in `tz` until the block ends (a request's or a mail's reader)."""
    token = _READER_ZONE.set(tz)
    try:
        yield
    finally:
        _READER_ZONE.reset(token)


def format_moment(moment: datetime, locale: str, *, tz: tzinfo | None = None) -> str:
    """A date and time in `tz` (by default the reader's), in the locale's medium format, the zone named.

    The zone is named as the locale names it (Babel's long name: "Mitteleuropäische Sommerzeit"), or
    "UTC", which every reader of a log or a CSV knows by that name.
    """
    return moment_writer(locale, tz or reader_zone())(moment)


class MomentWriter:
    """`format_moment` in one locale and zone, for many moments (an export writes three a row): the text
    around the time, the date and the zone's name, is written once per day and summer time or not."""

    def __init__(self, locale: str, tz: tzinfo) -> None:
        self.locale, self.tz, self.medium = locale, tz, medium_datetime(locale)
        self.around: dict[tuple[date, bool], tuple[str, str]] = {}

    def __call__(self, moment: datetime) -> str:
        here = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(self.tz)
        key = (here.date(), bool(here.dst()))
        around = self.around.get(key)
        if around is None:
            if len(self.around) >= 4096:
                self.around.clear()
            before, after = self.medium.around(key[0])
            around = self.around[key] = (before, f"{after} {zone_name(here, self.locale)}")
        return around[0] + self.medium.clock(here) + around[1]


def moment_writer(locale: str, tz: tzinfo) -> MomentWriter:
    """The `MomentWriter` of a locale and a zone, made once (a few hundred kept: readers' zones)."""
    writer = _WRITERS.get((locale, tz))
    if writer is None:
        if len(_WRITERS) >= 512:
            _WRITERS.clear()
        writer = _WRITERS[(locale, tz)] = MomentWriter(locale, tz)
    return writer


_WRITERS: dict[tuple[str, tzinfo], MomentWriter] = {}


def zone_name(moment: datetime, locale: str) -> str:
    """The zone of an aware `moment` as the locale names it at that moment (Babel's long name, summer time
    too: "Mitteleuropäische Sommerzeit", "Horário Padrão de Brasília"), or "UTC".

    Examples:
        >>> zone_name(datetime(2026, 7, 1, 12, tzinfo=zone("Europe/Berlin")), "de")
        'Mitteleuropäische Sommerzeit'
    """
    tz = moment.tzinfo
    if tz is None or tz is UTC or getattr(tz, "key", None) in ("UTC", "Etc/UTC"):
        return "UTC"
    key = (locale, tz, moment.date(), bool(moment.dst()))
    name = _ZONE_NAMES.get(key)
    if name is None:
        if len(_ZONE_NAMES) >= 4096:
            _ZONE_NAMES.clear()
        name = _ZONE_NAMES[key] = dates.get_timezone_name(moment, width="long", locale=babel_locale(locale))
    return name


# A zone's name by (locale, zone, day, summer time or not): the same for every moment that shares them,
# and Babel takes a tenth of a millisecond to find it (an export names two moments a row).
_ZONE_NAMES: dict[tuple[str, tzinfo, date, bool], str] = {}


def format_minute(moment: datetime, locale: str, tz: tzinfo) -> str:
    """A date and time to the minute in `tz`, in the locale's medium date and short time, zone unnamed
    (a sentence names it): a deadline in a mail reads "01.03.2026, 15:05", never with seconds.

    Examples:
        >>> format_minute(datetime(2026, 3, 1, 14, 5, 59, tzinfo=UTC), "de", zone("Europe/Berlin"))
        '01.03.2026, 15:05'
        >>> format_minute(datetime(2026, 3, 1, 14, 5, tzinfo=UTC), "ja", zone("Asia/Tokyo"))
        '2026/03/01 23:05'
    """
    ours = locale if locale in LOCALES else DEFAULT_LOCALE
    here = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(tz)
    pattern = str(Locale.parse(ours).datetime_formats["medium"])
    date = dates.format_date(here, format="medium", locale=ours)
    return pattern.format(dates.format_time(here, format="short", locale=ours), date)
