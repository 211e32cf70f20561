"""The audit export's rows, CSV and JSON, column by column, without a database: what an auditor's
spreadsheet or program reads is pinned here in English and German (the catalogs' words, the two moments
of each row, the codes beside the sentences), so that a changed mapping or a dropped column fails."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import pytest

from backend.approvals.audit import (
    COLUMNS,
    column_label,
    csv_header,
    csv_lines,
    export_csv,
    export_json,
    export_rows,
    outcome_text,
)
from backend.approvals.records import Approval
from backend.i18n.zones import zone

REQUESTED = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
DECIDED = datetime(2026, 3, 2, 14, 5, 9, tzinfo=UTC)
DEADLINE = datetime(2026, 3, 8, 23, 30, tzinfo=UTC)


def approval(**changed: object) -> Approval:
    fields: dict[str, object] = {
        "id": 41,
        "run_id": 7,
        "flow_id": 3,
        "version": 2,
        "node": "approve_invoice",
        "visit": 5,
        "title": "Pay invoice 2026-114",
        "explanation": "",
        "approvers": ["finance"],
        "deadline_at": DEADLINE,
        "on_timeout": "reject",
        "requested_at": REQUESTED,
        "outcome": "approved",
        "decided_by": "fin",
        "decided_at": DECIDED,
        "comment": "=1+1 looks right",
        "started_by": "sal",
        "quorum": 1,
        "reject_rule": "any",
        "allow_self_approval": False,
        "author": "sal",
        "on_behalf_of": None,
    }
    return Approval(**(fields | changed))  # type: ignore[arg-type]


ENGLISH_ROW = {
    "approval": 41,
    "run": 7,
    "flow": 3,
    "version": 2,
    "node": "approve_invoice",
    "title": "Pay invoice 2026-114",
    "outcome": "Approved",
    "outcome_code": "approved",
    "decided_by": "fin",
    "decided_at_utc": "2026-03-02T14:05:09+00:00",
    "decided_at_local": "Mar 2, 2026, 3:05:09\u202fPM Central European Standard Time",
    "comment": "=1+1 looks right",
    "requested_at_utc": "2026-03-01T09:00:00+00:00",
    "deadline_at_utc": "2026-03-08T23:30:00+00:00",
    "on_timeout": "Reject",
    "started_by": "sal",
    "requested_at_local": "Mar 1, 2026, 10:00:00\u202fAM Central European Standard Time",
    "deadline_at_local": "Mar 9, 2026, 12:30:00\u202fAM Central European Standard Time",
    "on_timeout_code": "reject",
}


def test_a_row_has_every_column_in_the_readers_words_beside_the_codes() -> None:
    rows = export_rows([approval()], "en", zone("Europe/Berlin"))
    assert rows == [ENGLISH_ROW]
    assert list(rows[0]) == list(COLUMNS), "a CSV reader by position finds each column where it was"


def test_an_undecided_approval_without_a_deadline_leaves_its_cells_empty() -> None:
    (row,) = export_rows(
        [
            approval(
                outcome=None,
                decided_by=None,
                decided_at=None,
                comment=None,
                deadline_at=None,
                on_timeout=None,
            )
        ],
        "de",
    )
    empty = (
        "outcome",
        "decided_at_utc",
        "decided_at_local",
        "deadline_at_utc",
        "deadline_at_local",
        "on_timeout",
    )
    assert {column: row[column] for column in empty} == dict.fromkeys(empty, "")
    assert (row["outcome_code"], row["on_timeout_code"], row["comment"]) == (None, None, None)


@pytest.mark.parametrize(
    ("outcome", "english"),
    [
        ("approved", "Approved"),
        ("rejected", "Rejected"),
        ("timed_out_approved", "Approved when the deadline passed"),
        ("timed_out_rejected", "Rejected when the deadline passed"),
        ("skipped", "Skipped when the deadline passed"),
        ("cancelled", "Cancelled with its run"),
        ("branch_cancelled", "Closed: its branch was cancelled"),
        ("run_failed", "Closed: the run failed"),
    ],
)
def test_each_outcome_is_said_as_its_own_sentence(outcome: str, english: str) -> None:
    assert outcome_text(outcome, "en") == english
    assert outcome_text(None, "en") == ""


def test_the_csv_has_a_translated_header_quoted_formulas_and_utc_beside_local_times() -> None:
    text = export_csv(
        [approval(), approval(id=42, title="+SUM(A1)", comment="@cmd")], "de", zone("Europe/Berlin")
    )
    assert text.endswith("\r\n") and text == csv_header("de") + csv_lines(
        [approval(), approval(id=42, title="+SUM(A1)", comment="@cmd")], "de", zone("Europe/Berlin")
    )
    header, first, second = list(csv.reader(io.StringIO(text)))
    assert header == [column_label(column, "de") for column in COLUMNS]
    assert header[:3] == ["Genehmigung", "Lauf", "Flow-Nummer"] and len(set(header)) == len(COLUMNS)
    by_name = dict(zip(COLUMNS, first, strict=True))
    assert by_name["comment"] == "'=1+1 looks right"
    assert by_name["outcome"] == "Genehmigt" and by_name["outcome_code"] == "approved"
    assert by_name["decided_at_local"] == "02.03.2026, 15:05:09 Mitteleuropäische Normalzeit"
    assert by_name["decided_at_utc"] == "2026-03-02T14:05:09+00:00"
    assert (second[0], second[COLUMNS.index("title")], second[COLUMNS.index("comment")]) == (
        "42",
        "'+SUM(A1)",
        "'@cmd",
    )


def test_every_column_has_a_label_of_its_own_in_every_language_we_ship() -> None:
    for locale in ("en", "de", "ja"):
        labels = [column_label(column, locale) for column in COLUMNS]
        assert len(set(labels)) == len(COLUMNS), locale
    assert column_label("started_by", "en") == "Run started by"
    assert column_label("on_timeout_code", "en") == "At the deadline (code)"


def test_the_json_export_is_the_rows_unescaped_in_the_readers_zone() -> None:
    berlin = zone("Europe/Berlin")
    text = export_json([approval(title="Prüfung 承認")], "ja", berlin)
    assert "Prüfung 承認" in text
    assert json.loads(text) == export_rows([approval(title="Prüfung 承認")], "ja", berlin)
    assert json.loads(text)[0]["decided_at_local"].startswith("2026/03/02 15:05:09")


def test_a_german_row_says_every_word_and_moment_in_german() -> None:
    (row,) = export_rows([approval()], "de", zone("Europe/Berlin"))
    assert (row["outcome"], row["on_timeout"]) == ("Genehmigt", "Ablehnen")
    assert row["requested_at_local"] == "01.03.2026, 10:00:00 Mitteleuropäische Normalzeit"
    assert row["deadline_at_local"] == "09.03.2026, 00:30:00 Mitteleuropäische Normalzeit"
