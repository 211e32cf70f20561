"""The reviewed list of equivalent mutants is well formed, and the score counts what it says it counts."""

from __future__ import annotations

import tomllib

from tests.mutation.run import EQUIVALENT, PACKAGES, Tally, _package_of


def test_every_equivalent_mutant_names_its_change_and_why_once() -> None:
    entries = tomllib.loads(EQUIVALENT.read_text("utf-8")).get("equivalent", [])
    names = [entry["mutant"] for entry in entries]
    assert len(names) == len(set(names))
    for entry in entries:
        assert set(entry) == {"mutant", "changed", "why"}, entry
        assert entry["changed"].strip() and len(entry["why"].split()) >= 4, entry
        assert _package_of(entry["mutant"]) in PACKAGES, entry


def test_a_mutant_belongs_to_the_package_whose_code_it_changes() -> None:
    assert _package_of("backend.walker.redact.x_redact_url__mutmut_3") == "walker"
    assert _package_of("backend.graph.schema.xǁExplainerǁexplain__mutmut_1") == "graph"
    assert _package_of("backend.queue.claims.x_backoff__mutmut_2") == "queue"
    assert _package_of("backend.queue.wake_times.x__timestamp__mutmut_2") == "queue"
    assert _package_of("backend.queue.driver.x_drive__mutmut_2") is None
    assert _package_of("backend.i18n.codes.x_codes_in_source__mutmut_1") == "i18n"


def test_the_score_leaves_the_equivalent_mutants_out() -> None:
    assert Tally(mutants=110, equivalent=10, killed=95).score == 95.0
    assert Tally(mutants=3, equivalent=3).score == 100.0
