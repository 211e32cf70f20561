"""Every rule's finding, whole: code, node, wire, pointer, and the sentence its parameters fill in.

A finding with the right code but the wrong node, wire or wording names the wrong thing to its author:
these tests compare the whole finding, so a parameter that is dropped or swapped fails them.
"""

from __future__ import annotations

import pytest

from backend.graph import Finding, validate
from tests.graph.test_validator import everything_wrong
from tests.support import flow


def test_the_graph_rules_say_exactly_what_is_wrong_and_where() -> None:
    document = flow(
        "t:trigger t2:trigger a:log a:log x:teleport c:condition l:log m:log",
        wires="t>a ghost>a a>nowhere c.nope>a t>t2 t>c l>m m>l",
    )
    assert validate(document) == [
        Finding(
            "node_id_duplicate",
            "a",
            None,
            "Another node already has the id a: node ids must be unique.",
            "/nodes/3/id",
        ),
        Finding(
            "node_type_unknown",
            "x",
            None,
            "Node x has the type teleport, which is not a node type.",
            "/nodes/4/type",
        ),
        Finding(
            "wire_endpoint_unknown",
            None,
            1,
            "The wire from ghost to a names ghost, which is not a node of this flow.",
            "/wires/1/from",
        ),
        Finding(
            "wire_endpoint_unknown",
            None,
            2,
            "The wire from a to nowhere names nowhere, which is not a node of this flow.",
            "/wires/2/to",
        ),
        Finding(
            "wire_port_unknown",
            None,
            3,
            "The wire from c to a leaves port nope, which a Condition node does not have.",
            "/wires/3/port",
        ),
        Finding(
            "trigger_multiple",
            "t2",
            None,
            "Node t2 is a second trigger: a flow has exactly one, and t is it.",
            None,
        ),
        Finding(
            "trigger_has_inputs",
            None,
            4,
            "The wire from t leads into the trigger t2: nothing may lead into a trigger.",
            "/wires/4/to",
        ),
        Finding(
            "cycle",
            "l",
            7,
            "The wires form a cycle (l -> m -> l): to repeat steps, use a foreach or repeat loop.",
            "l -> m -> l",
        ),
        Finding("node_unreachable", "x", None, "Node x cannot be reached from the trigger.", None),
        Finding("node_unreachable", "l", None, "Node l cannot be reached from the trigger.", None),
        Finding("node_unreachable", "m", None, "Node m cannot be reached from the trigger.", None),
    ]


def test_the_loop_and_schema_rules_say_exactly_what_is_wrong_and_where() -> None:
    findings = validate(everything_wrong())
    assert findings[0] == Finding(
        "format_invalid",
        None,
        None,
        "The flow does not match its format at /name: The value must not be empty.",
        "/name",
    )
    assert findings[3] == Finding(
        "node_config_invalid",
        "a",
        None,
        "In node a, “Message” is not valid: A value is required here.",
        "/nodes/2/config/message",
    )
    assert findings[-4:] == [
        Finding(
            "loop_body_leaks",
            "e",
            8,
            "Node e is in the body of loop l1 but can also be reached without passing through its body port.",
            "l1",
        ),
        Finding(
            "loop_nesting_too_deep",
            "l4",
            None,
            "Loop l4 is nested too deep (depth 4): loops nest at most 3 levels.",
            None,
        ),
        Finding(
            "break_outside_loop", "stop", None, "Break node stop is not inside the body of any loop.", None
        ),
        Finding(
            "end_inside_loop",
            "e",
            None,
            "End node e is inside the body of loop l4: a run cannot be ended from inside a loop.",
            "l4",
        ),
    ]


def test_the_sentences_come_from_the_locales_catalog() -> None:
    german = validate(everything_wrong(), "de")
    assert [(f.code, f.message) for f in german[1:3]] == [
        ("node_id_duplicate", "Ein anderer Knoten hat bereits die ID a: Knoten-IDs müssen eindeutig sein."),
        ("node_type_unknown", "Der Knoten x hat den Typ teleport, der kein Knotentyp ist."),
    ]


def test_every_finding_past_the_limit_is_counted_once_whichever_rule_counts_it() -> None:
    document = flow("t:trigger a:log b:log c:log d:log e:log f:log", wires="t>a a>b b>a c>d d>c e>f f>e")
    everything = validate(document, limit=10**6)
    assert [f.code for f in everything] == ["cycle"] * 3 + ["node_unreachable"] * 4
    capped = validate(document, limit=1)
    assert capped[:1] == everything[:1]
    assert [(f.code, f.detail) for f in capped[1:]] == [("findings_truncated", "6")]


def test_a_document_without_nodes_and_wires_has_no_list_view() -> None:
    from backend.graph.list_view import list_view

    with pytest.raises(ValueError) as refused:
        list_view({"nodes": "none"})
    assert (
        str(refused.value) == "the document has no readable list of nodes and wires: validate it for details"
    )


def test_a_capped_validation_lists_a_node_before_the_wires_the_document_got_wrong() -> None:
    # Found by the capped-validation property: the document's own fault (`wires` is no list) was explained
    # first and took the only room, so the capped report listed /wires and counted /nodes/0, which comes
    # first in the full report.
    document = {
        "format": "flowyard.flow/1",
        "name": "random",
        "nodes": ["n1", {"id": "n0", "type": "trigger", "config": {"kind": "manual"}}],
        "wires": "n1",
    }
    everything = validate(document, limit=10**6)
    assert [(f.code, f.detail) for f in everything[:2]] == [
        ("format_invalid", "/nodes/0"),
        ("format_invalid", "/wires"),
    ]
    capped = validate(document, limit=1)
    assert capped[0] == everything[0]
    assert [(f.code, f.detail) for f in capped[1:]] == [("findings_truncated", str(len(everything) - 1))]
