"""Findings carry a sentence from the catalogs, in the reader's language, and serialize as the API says."""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from backend.graph import Finding, validate
from backend.graph.findings import Report, pointer
from backend.i18n import catalogs
from tests.support import flow


def fake_catalogs(monkeypatch: pytest.MonkeyPatch, sentences: Mapping[str, Mapping[str, str]]) -> None:
    monkeypatch.setattr(catalogs, "catalog", lambda locale: sentences.get(locale, {}))


def test_a_finding_serializes_with_exactly_its_five_keys() -> None:
    finding = Finding("cycle", "a", 3, "There is a cycle.", "a -> b -> a")
    assert finding.to_json() == {
        "code": "cycle",
        "node": "a",
        "wire": 3,
        "message": "There is a cycle.",
        "detail": "a -> b -> a",
    }


def test_the_message_is_the_catalog_sentence_in_the_asked_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_catalogs(
        monkeypatch,
        {
            "en": {"node_unreachable": "Node {node} cannot be reached."},
            "de": {"node_unreachable": "Knoten {node} ist nicht erreichbar."},
        },
    )
    document = flow("t:trigger a:log", wires="")
    assert [f.message for f in validate(document)] == ["Node a cannot be reached."]
    assert [f.message for f in validate(document, "de")] == ["Knoten a ist nicht erreichbar."]
    assert [f.message for f in validate(document, "fr")] == ["Node a cannot be reached."]


def test_without_a_sentence_the_message_is_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_catalogs(monkeypatch, {})
    assert [f.message for f in validate(flow("a:log", wires=""))] == ["trigger_missing"]


def test_report_passes_the_node_and_the_other_parameters_to_the_sentence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake_catalogs(monkeypatch, {"en": {"end_inside_loop": "{node} ends inside {loop}."}})
    report = Report("en")
    report.add(code="end_inside_loop", node="stop", detail="each", loop="each")
    assert report.findings == [Finding("end_inside_loop", "stop", None, "stop ends inside each.", "each")]


def test_pointers_escape_tilde_and_slash() -> None:
    assert pointer(()) == ""
    assert pointer(("a~b", "c/d", 0)) == "/a~0b/c~1d/0"
