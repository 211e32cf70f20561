"""Survivors of `make mutation` in backend/graph/findings.py: a warning is written in the report's
language, names its wire, and the report keeps exactly `limit` of them."""

from __future__ import annotations

from backend.graph.findings import Finding, Report, cut, shown
from backend.i18n.catalogs import message

CODE = "branches_meet_without_join"


def test_a_warning_is_written_in_the_reports_language_with_its_node_and_wire() -> None:
    report = Report("de")
    report.warn(code=CODE, node="merge", wire=4)
    german = message(CODE, "de", node="merge")
    assert german != message(CODE, "en", node="merge")
    assert report.warnings == [Finding(CODE, "merge", 4, german, None)]
    assert report.findings == []


def test_a_report_keeps_exactly_its_limit_of_warnings() -> None:
    report = Report("en", limit=2)
    for number in range(4):
        report.warn(code=CODE, node=f"m{number}", wire=number)
    assert [(w.node, w.wire) for w in report.warnings] == [("m0", 0), ("m1", 1)]
    assert report.close() == [] and report.untold == 0  # warnings past the limit are dropped, not counted


def test_a_warning_about_a_long_id_repeats_only_its_start() -> None:
    report = Report("en")
    long_id = "n" * 300
    report.warn(code=CODE, node=long_id)
    warning = report.warnings[0]
    assert (warning.node, warning.wire, warning.detail) == (cut(long_id), None, None)
    assert warning.message == message(CODE, "en", node=shown(long_id))
    assert len(warning.message) < 300
