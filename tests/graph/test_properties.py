"""Properties: any JSON gives findings and never an exception; random valid flows pass; one backward wire
makes a cycle; the order of keys in the file changes nothing."""

from __future__ import annotations

import copy
import random
from typing import Any

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.graph import list_view, validate
from backend.graph.model import NODE_TYPES
from backend.node_types import PORTS
from tests.support import CONFIGS

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=25,
)

_ACTIONS = ("set", "approval", "delay", "http", "notify", "command", "log")
_FOLLOW = {"approval": "approve"}


@st.composite
def valid_flows(draw: st.DrawFn) -> dict[str, Any]:
    """A valid flow: actions, conditions whose branches meet, loops nested up to three deep, breaks and
    ends on side branches, and extra wires between nodes of one scope, in a shuffled document order."""
    nodes: list[dict[str, Any]] = [{"id": "n0", "type": "trigger", "config": {"kind": "manual"}}]
    wires: list[dict[str, str]] = []
    scope: dict[str, tuple[str, ...]] = {"n0": ()}
    pending = [("n0", "out")]
    loops: list[str] = []

    def add(node_type: str) -> str:
        node_id = f"n{len(nodes)}"
        nodes.append({"id": node_id, "type": node_type, "config": copy.deepcopy(CONFIGS[node_type])})
        wires.extend({"from": source, "port": port, "to": node_id} for source, port in pending)
        scope[node_id] = tuple(loops)
        return node_id

    for roll in draw(st.lists(st.integers(0, 99), min_size=3, max_size=60)):
        sources = [n for n in nodes if scope[n["id"]] == tuple(loops) and PORTS[n["type"]]]
        if loops and roll < 15:
            pending = [(loops.pop(), "done")]
        elif len(loops) < 3 and roll < 30:
            loops.append(add("foreach" if roll % 2 else "repeat"))
            pending = [(loops[-1], "body")]
        elif roll < 42:
            test = add("condition")
            pending = [(test, "true"), (test, "false")]
        elif roll < 50 and loops:
            test = add("condition")
            pending = [(test, "false")]
            add("break")
            pending = [(test, "true")]
        elif roll < 55 and not loops:
            call = add("http")
            pending = [(call, "error")]
            add("end")
            pending = [(call, "out")]
        elif roll < 70 and sources:
            # An extra wire from an earlier node of the same scope: a merge, never a leak.
            source = draw(st.sampled_from(sources))
            ports = [port for port in PORTS[source["type"]] if port != "body"]
            pending = [*pending, (source["id"], draw(st.sampled_from(ports)))]
            pending = [(add("log"), "out")]
        else:
            node_type = draw(st.sampled_from(_ACTIONS))
            pending = [(add(node_type), _FOLLOW.get(node_type, "out"))]
    order = random.Random(draw(st.integers(0, 2**32))).sample
    return {
        "format": "flowyard.flow/1",
        "name": "random",
        "nodes": order(nodes, len(nodes)),
        "wires": [{k: v for k, v in w.items() if (k, v) != ("port", "out")} for w in wires],
    }


def paths(document: object) -> list[tuple[Any, ...]]:
    """Every path to a value inside `document`, the root excluded."""
    found: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[Any, ...], object]] = [((), document)]
    while stack:
        path, value = stack.pop()
        children = (
            value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        )
        for key, child in children:
            found.append((*path, key))
            stack.append(((*path, key), child))
    return found


@st.composite
def broken_flows(draw: st.DrawFn) -> Any:
    """A valid flow with a few wires added, or values deleted or replaced: types, ports, ids, any JSON."""
    document = draw(valid_flows())
    ids = st.sampled_from([node["id"] for node in document["nodes"]] + ["ghost"])
    ports = st.sampled_from(["out", "body", "done", "true", "error", "x"])
    words = ids | ports | st.sampled_from([*NODE_TYPES, "teleport"])
    added = draw(st.integers(0, 2))
    for _ in range(added):
        wire = {"from": draw(ids), "port": draw(ports), "to": draw(ids)}
        document["wires"].insert(draw(st.integers(0, len(document["wires"]))), wire)
    for _ in range(draw(st.integers(0 if added else 1, 2))):
        path = draw(st.sampled_from(paths(document)))
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.booleans()):
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(words | json_values)
    return document


def shuffled_keys(value: Any, rng: random.Random) -> Any:
    """The same JSON value with the keys of every object in another order."""
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {key: shuffled_keys(item, rng) for key, item in items}
    if isinstance(value, list):
        return [shuffled_keys(item, rng) for item in value]
    return value


def assert_well_formed(document: Any) -> None:
    findings = validate(document)
    wires = document.get("wires") if isinstance(document, dict) else None
    for finding in findings:
        assert isinstance(finding.message, str) and finding.message
        assert finding.node is None or isinstance(finding.node, str)
        assert finding.wire is None or (isinstance(wires, list) and 0 <= finding.wire < len(wires))
    try:
        view = list_view(document)
    except ValueError:
        assert any(f.code == "format_invalid" for f in findings)
    else:
        assert len({entry.id for entry in view}) == len(view)


@settings(max_examples=200, deadline=None)
@given(document=json_values)
def test_any_json_gives_findings_and_never_an_exception(document: Any) -> None:
    assert_well_formed(document)
    assert validate(document)


@settings(max_examples=200, deadline=None)
@given(document=broken_flows())
def test_a_broken_flow_gives_findings_and_never_an_exception(document: Any) -> None:
    assert_well_formed(document)


@settings(max_examples=150, deadline=None)
@given(document=valid_flows())
def test_random_valid_flows_pass(document: dict[str, Any]) -> None:
    assert validate(document) == []
    view = list_view(document)
    assert sorted(entry.id for entry in view) == sorted(node["id"] for node in document["nodes"])
    placed = {entry.id: i for i, entry in enumerate(view)}
    assert all(placed[wire["from"]] < placed[wire["to"]] for wire in document["wires"])


@settings(max_examples=150, deadline=None)
@given(document=valid_flows(), data=st.data())
def test_one_backward_wire_makes_a_cycle(document: dict[str, Any], data: st.DataObject) -> None:
    graph: nx.DiGraph[str] = nx.DiGraph((wire["from"], wire["to"]) for wire in document["wires"])
    later = [node for node in document["nodes"] if graph.in_degree(node["id"])]
    assert later  # every step of valid_flows adds a node wired from the trigger's side
    node = data.draw(st.sampled_from(later))
    earlier = data.draw(st.sampled_from(sorted(nx.ancestors(graph, node["id"]))))
    port = next(iter(PORTS[node["type"]]), "out")
    document["wires"].insert(
        data.draw(st.integers(0, len(document["wires"]))), {"from": node["id"], "port": port, "to": earlier}
    )
    codes = [finding.code for finding in validate(document)]
    assert codes.count("cycle") == 1


@settings(max_examples=150, deadline=None)
@given(document=st.one_of(valid_flows(), broken_flows(), json_values), seed=st.integers(0, 2**32))
def test_the_order_of_keys_changes_nothing(document: Any, seed: int) -> None:
    assert validate(shuffled_keys(document, random.Random(seed))) == validate(document)


@given(document=st.one_of(valid_flows(), broken_flows(), json_values), limit=st.integers(1, 12))
def test_a_capped_validation_lists_the_first_findings_and_counts_at_least_the_rest(
    document: Any, limit: int
) -> None:
    everything = validate(document, limit=10**6)
    capped = validate(document, limit=limit)
    if len(everything) <= limit:
        assert capped == everything
        return
    assert capped[:limit] == everything[:limit]
    assert [f.code for f in capped[limit:]] == ["findings_truncated"]
    # Exact for the graph rules; at least one for each piece that fails its schema past the cap.
    assert 1 <= int(capped[-1].detail or 0) <= len(everything) - limit


@given(document=st.one_of(broken_flows(), valid_flows()))
def test_no_two_findings_are_about_the_same_thing(document: Any) -> None:
    # One finding per offending node, wire or place: nothing is said twice, however the graph is shaped.
    findings = validate(document, limit=10**6)
    said = [(f.code, f.node, f.wire, f.detail) for f in findings]
    assert len(said) == len(set(said))
