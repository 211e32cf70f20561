"""The audit CSV byte for byte: what the export writes, held to the plainest writer of the same rows
(Babel's own medium date and time and its long zone name, the catalogs' words, every cell made safe,
Python's csv module), in every locale we ship and the pseudo one, in zones east and west of UTC, in
summer, in winter and on the days the clocks change. The export's writer is tuned for speed (issue 38);
this is what keeps the tuning from changing one byte of what an auditor's spreadsheet reads."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta, tzinfo

import pytest
from babel import dates

from backend.approvals.audit import (
    COLUMNS,
    ExportRow,
    column_label,
    csv_header,
    csv_lines,
    export_csv,
    outcome_text,
)
from backend.approvals.records import Approval
from backend.i18n.formats import babel_locale
from backend.i18n.locales import LOCALES
from backend.i18n.names import timeout_rule_name
from backend.i18n.pseudo import PSEUDO_LOCALE
from backend.i18n.zones import zone
from backend.spreadsheets import FORMULA_STARTS, safe_cell

ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo", "America/Sao_Paulo"]
OUTCOMES = [
    "approved",
    "rejected",
    "timed_out_approved",
    "timed_out_rejected",
    "skipped",
    "cancelled",
    "branch_cancelled",
    "run_failed",
]
# Moments around what a clock or a calendar does: midnight and noon (12 AM, 12 PM), one-digit hours, the
# hours Berlin's and New York's clocks change, a year's end, microseconds.
MOMENTS = [
    datetime(2026, 3, 29, 0, 59, 59, tzinfo=UTC),
    datetime(2026, 3, 29, 1, 0, 0, tzinfo=UTC),
    datetime(2026, 3, 8, 6, 59, 59, 999_999, tzinfo=UTC),
    datetime(2026, 3, 8, 7, 0, 1, tzinfo=UTC),
    datetime(2026, 10, 25, 0, 30, tzinfo=UTC),
    datetime(2026, 10, 25, 1, 30, tzinfo=UTC),
    datetime(2026, 6, 1, 0, 5, 7, tzinfo=UTC),
    datetime(2026, 6, 1, 12, 5, 7, 120, tzinfo=UTC),
    datetime(2026, 6, 1, 3, 0, 0, tzinfo=UTC),
    datetime(2026, 12, 31, 23, 59, 59, 500_000, tzinfo=UTC),
    datetime(2027, 1, 1, 15, 0, tzinfo=UTC),
]
# What a person typed, as a spreadsheet could misread it: each start of a formula, quotes, separators,
# line ends and scripts other than Latin.
TEXTS = [
    *(start + "1+1" for start in FORMULA_STARTS),
    'say "yes", then; go',
    "two\nlines\r\nand a\rreturn",
    "Prüfung 承認 ñandú",
    " =leading space",
    "'already quoted",
    "",
]


def fixture() -> list[Approval]:
    """A decision for each outcome, moment and text, with and without a deadline and a comment."""
    rows = []
    for number, moment in enumerate(MOMENTS * 2):
        text = TEXTS[number % len(TEXTS)]
        other = TEXTS[(number + 3) % len(TEXTS)]
        rows.append(
            Approval(
                id=1000 + number,
                run_id=70 + number,
                flow_id=3,
                version=1 + number % 4,
                node=other or "ask",
                visit=1,
                title=text,
                explanation="",
                approvers=["finance"],
                deadline_at=None if number % 3 == 0 else moment + timedelta(days=number, hours=number),
                on_timeout=(None, "approve", "reject", "skip")[number % 4],
                requested_at=moment - timedelta(hours=number, minutes=7, microseconds=number),
                outcome=OUTCOMES[number % len(OUTCOMES)],  # type: ignore[arg-type]
                decided_by=(None, "fin", "@bob", "-alice")[number % 4],
                decided_at=moment,
                comment=None if number % 5 == 0 else other,
                started_by=(None, "sal", "+carl")[number % 3],
                quorum=1,
                reject_rule="any",
                allow_self_approval=False,
                author=None,
                on_behalf_of=None,
            )
        )
    return rows


def babels_moment(moment: datetime | None, locale: str, tz: tzinfo) -> str:
    """A moment as Babel writes it unaided: its medium date and time, then the zone's long name ("UTC")."""
    if moment is None:
        return ""
    here = moment.astimezone(tz)
    ours = babel_locale(locale)
    named = "UTC" if tz is UTC else dates.get_timezone_name(here, width="long", locale=ours)
    return f"{dates.format_datetime(here, format='medium', locale=ours)} {named}"


def plain_csv(rows: list[Approval], locale: str, tz: tzinfo) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([column_label(column, locale) for column in COLUMNS])
    for r in rows:
        cells = {
            "approval": r.id,
            "run": r.run_id,
            "flow": r.flow_id,
            "version": r.version,
            "node": r.node,
            "title": r.title,
            "outcome": outcome_text(r.outcome, locale),
            "outcome_code": r.outcome,
            "decided_by": r.decided_by,
            "decided_at_utc": r.decided_at and r.decided_at.astimezone(UTC).isoformat(),
            "decided_at_local": babels_moment(r.decided_at, locale, tz),
            "comment": r.comment,
            "requested_at_utc": r.requested_at.astimezone(UTC).isoformat(),
            "deadline_at_utc": r.deadline_at and r.deadline_at.astimezone(UTC).isoformat(),
            "on_timeout": timeout_rule_name(r.on_timeout, locale),
            "started_by": r.started_by,
            "requested_at_local": babels_moment(r.requested_at, locale, tz),
            "deadline_at_local": babels_moment(r.deadline_at, locale, tz),
            "on_timeout_code": r.on_timeout,
        }
        writer.writerow([safe_cell("" if cells[c] is None else str(cells[c])) for c in COLUMNS])
    return out.getvalue()


@pytest.mark.parametrize("locale", [*LOCALES, PSEUDO_LOCALE])
def test_the_export_writes_every_byte_the_plainest_writer_writes(locale: str) -> None:
    rows = fixture()
    for name in ZONES:
        tz = UTC if name == "UTC" else zone(name)
        expected = plain_csv(rows, locale, tz)
        # Streamed in pages of any size, the pieces put together are the same file.
        pages = [rows[at : at + 5] for at in range(0, len(rows), 5)]
        streamed = csv_header(locale) + "".join(csv_lines(page, locale, tz) for page in pages)
        assert export_csv(rows, locale, tz) == expected, (locale, name)
        assert streamed == expected, (locale, name)
        # As the streamed export reads them: the same decisions as `ExportRow`s.
        read = [ExportRow(**{field: getattr(r, field) for field in ExportRow._fields}) for r in rows]
        assert export_csv(read, locale, tz) == expected, (locale, name)


def test_the_fixture_has_a_formula_in_each_text_column_and_every_outcome() -> None:
    """What the byte test covers: a guard against a fixture thinned until it proves nothing."""
    rows = fixture()
    for column in ("node", "title", "comment", "decided_by", "started_by"):
        assert any(str(getattr(r, column) or "").startswith(FORMULA_STARTS) for r in rows), column
    assert {r.outcome for r in rows} == set(OUTCOMES)
    assert {r.on_timeout for r in rows} == {None, "approve", "reject", "skip"}
    assert any(r.deadline_at is None for r in rows) and any(r.comment is None for r in rows)
    text = export_csv(rows, "en", zone("Europe/Berlin"))
    cells = [cell for line in csv.reader(io.StringIO(text)) for cell in line]
    assert "'=1+1" in cells and "'-alice" in cells and not any(c.startswith(("=", "+", "@")) for c in cells)
