"""Dates, numbers and durations formatted with Babel for the reader's locale."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from backend.i18n.formats import format_datetime, format_duration, format_number

MOMENT = datetime(2026, 3, 1, 14, 5, 9, tzinfo=UTC)


def test_german_date_number_and_duration() -> None:
    assert format_datetime(MOMENT, "de") == "01.03.2026, 14:05:09"
    assert format_number(1234567.891, "de") == "1.234.567,891"
    assert format_duration(timedelta(days=2, hours=1, minutes=30), "de") == "2 Tage, 1 Stunde und 30 Minuten"


def test_a_duration_keeps_every_unit_instead_of_rounding_to_one() -> None:
    assert format_duration(timedelta(days=10), "en") == "10 days"
    assert format_duration(timedelta(hours=1, minutes=30), "en") == "1 hour and 30 minutes"
    assert format_duration(timedelta(seconds=0.4), "en") == "0 seconds"
    assert format_duration(timedelta(minutes=-5), "en") == "5 minutes"


def test_other_locales_write_their_own_way() -> None:
    assert format_number(1234.5, "fr") == "1\u202f234,5"
    assert format_duration(timedelta(minutes=5), "ja") == "5 分"
    assert format_duration(timedelta(days=1, seconds=1), "pl") == "1 dzień i 1 sekunda"
    assert format_datetime(MOMENT, "ja") == "2026/03/01 14:05:09"


def test_a_time_zone_converts_and_an_unknown_locale_is_english() -> None:
    assert format_datetime(MOMENT, "de", tz=timezone(timedelta(hours=2))) == "01.03.2026, 16:05:09"
    assert format_datetime(MOMENT, "tlh") == format_datetime(MOMENT, "en")
    assert format_number(1234.5, "tlh") == "1,234.5"


def test_format_datetime_writes_what_babels_own_writes_in_every_locale_and_zone() -> None:
    """format_datetime parses each locale's patterns once (an export writes two dates a row); what it
    writes must stay Babel's medium date and time, in summer and in winter, naive moments as UTC."""
    from babel import dates

    from backend.i18n.locales import LOCALES
    from backend.i18n.zones import zone

    zones = [None, zone("UTC"), zone("Europe/Berlin"), zone("Asia/Tokyo"), zone("America/Sao_Paulo")]
    moments = [datetime(2026, month, 28, 23, 59, 30, tzinfo=UTC) for month in (1, 3, 7, 10, 12)]
    moments.append(datetime(2026, 3, 29, 0, 59, 59))  # naive, an hour before Berlin's clocks change
    # Midnight and noon (12 AM, 12 PM where the clock has twelve hours), a morning with one-digit hours.
    moments += [datetime(2026, 6, 1, hour, 5, 7, tzinfo=UTC) for hour in (0, 3, 12, 13)]
    for locale in LOCALES:
        for tz in zones:
            for moment in moments:
                babels = dates.format_datetime(moment, format="medium", tzinfo=tz, locale=locale)
                assert format_datetime(moment, locale, tz=tz) == babels, (locale, tz, moment)


def test_every_minute_of_a_day_is_written_as_babel_writes_it() -> None:
    """A time is its minute's text, made once per locale, around its seconds: each of the 1,440 minutes
    (a different second in each) is held to Babel's own writing, in every locale."""
    from babel import dates

    from backend.i18n.locales import LOCALES

    day = datetime(2026, 6, 1, tzinfo=UTC)
    for locale in LOCALES:
        for minute in range(24 * 60):
            moment = day + timedelta(minutes=minute, seconds=minute % 60)
            babels = dates.format_datetime(moment, format="medium", tzinfo=UTC, locale=locale)
            assert format_datetime(moment, locale) == babels, (locale, moment)
