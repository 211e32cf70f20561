"""The shapes an attacker would send (bench/adversarial.py): bounded findings and bounded output.

Each would fail on the validator of issue 12 by its finding count or its output's size (a million
`loop_body_leaks` for the shared body); none is held to a time, which bench/validate.py prints instead.
"""

from __future__ import annotations

import json

import pytest

from backend.graph import validate
from backend.graph.findings import Finding
from bench.adversarial import SHAPES, deep_nesting, fan_in, huge_config, shared_body, unknown_ends
from tests.support import flow

LIMIT = 200
# The longest finding is a cycle through all 1,000 nodes named in full in `detail` (60 KB; its sentence
# shows the first 100 characters): before issue 12 it was named twice, 124 KB.
MAX_OUTPUT_BYTES = 100_000


def output(findings: list[Finding]) -> bytes:
    return json.dumps([f.to_json() for f in findings]).encode()


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_shape_lists_at_most_the_limit_and_then_says_how_many_more(name: str) -> None:
    findings = validate(SHAPES[name]())
    assert findings, "every shape is invalid"
    listed = [f for f in findings if f.code != "findings_truncated"]
    assert len(listed) <= LIMIT
    assert [f.code for f in findings].count("findings_truncated") <= 1
    if len(listed) == LIMIT:
        assert findings[-1].code == "findings_truncated"
        assert int(findings[-1].detail or 0) >= 1
    assert len(output(findings)) <= MAX_OUTPUT_BYTES


def test_a_node_that_a_thousand_loop_bodies_share_is_one_finding_per_wire() -> None:
    document = shared_body()
    findings = validate(document, limit=10**6)
    wires = [f.wire for f in findings if f.code == "loop_body_leaks"]
    body_wires = [i for i, wire in enumerate(document["wires"]) if wire["port"] == "body"]
    # Issue 12: 997 loops gave 993,012 findings, one per wire and loop; each body wire is one now.
    assert wires == body_wires
    assert [f.code for f in findings] == ["loop_body_leaks"] * len(body_wires)


def test_the_count_of_findings_past_the_limit_is_exact_for_the_graph_rules() -> None:
    document = shared_body()
    everything = validate(document, limit=10**6)
    capped = validate(document, limit=LIMIT)
    assert capped[:LIMIT] == everything[:LIMIT]
    assert capped[-1].code == "findings_truncated"
    assert capped[-1].detail == str(len(everything) - LIMIT)
    assert str(len(everything) - LIMIT) in capped[-1].message


def test_every_wire_into_one_node_is_one_finding_each() -> None:
    document = fan_in()
    findings = validate(document, limit=10**6)
    leaks = [f for f in findings if f.code == "loop_body_leaks"]
    # Each of the 998 bodies and 998 `done`s enters the bodies of the loops other than its own.
    assert len(leaks) == len({f.wire for f in leaks}) == 2 * 998


def test_loops_nested_a_thousand_deep_are_one_finding_per_loop_past_the_third() -> None:
    findings = validate(deep_nesting(), limit=10**6)
    assert [f.code for f in findings].count("loop_nesting_too_deep") == 998 - 3
    assert len(findings) == 998 - 3 + 1  # and the `end` at the bottom


def test_unknown_ends_are_counted_past_the_limit_without_being_described() -> None:
    findings = validate(unknown_ends(wires=5000))
    assert findings[-1].code == "findings_truncated"
    # Two unknown ends a wire, then an unknown port is not asked (no node), and 999 unreachable nodes.
    assert int(findings[-1].detail or 0) == 2 * 5000 + 999 - LIMIT


def test_a_validation_with_room_for_everything_has_no_truncation_finding() -> None:
    document = flow("t:trigger a:log b:log", wires="a>b")
    assert [f.code for f in validate(document, limit=2)] == ["node_unreachable", "node_unreachable"]
    assert [f.code for f in validate(document, limit=1)] == ["node_unreachable", "findings_truncated"]


def test_the_truncation_finding_is_in_the_readers_language() -> None:
    document = flow("t:trigger a:log b:log", wires="a>b")
    english = validate(document, limit=1)[-1].message
    german = validate(document, "de", limit=1)[-1].message
    assert "1" in english and "1" in german and english != german


def test_a_config_too_large_to_explain_is_one_finding_at_its_root() -> None:
    # Before issue 12, jsonschema entered its 490,000 approvers to name two faults; now it is not asked.
    findings = validate(huge_config())
    assert [(f.code, f.detail) for f in findings] == [("node_config_invalid", "/nodes/1/config")]
    assert findings[0].message.endswith("the document is too large to say why.")
