"""Flow documents an attacker would send to the validator: each one large in the way that hurts a rule.

Every shape fits the API's body limit (5,000,000 bytes); the wire-heavy ones have as many wires as a flow
may have (10,000) and `too_many_wires` as many as the body holds. Most are invalid on purpose, with as many
findings as their size allows. `bench/validate.py` times them and
`tests/graph/test_adversarial.py` holds their finding counts and output sizes to their bounds.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise
from typing import Any

from backend.graph.outline import MAX_WIRES

Document = dict[str, Any]

_CONFIGS: dict[str, dict[str, Any]] = {
    "trigger": {"kind": "manual"},
    "foreach": {"items": "{{trigger.items}}", "as": "item"},
    "log": {"message": "x"},
    "end": {"status": "succeeded"},
}


def _document(nodes: list[tuple[str, str]], wires: list[tuple[str, str, str]]) -> Document:
    return {
        "format": "flowyard.flow/1",
        "name": "adversarial",
        "nodes": [{"id": node_id, "type": kind, "config": dict(_CONFIGS[kind])} for node_id, kind in nodes],
        "wires": [{"from": source, "port": port, "to": target} for source, port, target in wires],
    }


def shared_body(size: int = 1000) -> Document:
    """Issue 12's shape: loops one after the other whose bodies all lead to one shared node."""
    loops = [f"l{i}" for i in range(size - 2)]
    nodes = [("t", "trigger"), ("shared", "log"), *((loop, "foreach") for loop in loops)]
    wires = [("t", "out", loops[0])]
    wires += [(loop, "body", "shared") for loop in loops]
    wires += [(a, "done", b) for a, b in pairwise(loops)]
    return _document(nodes, wires)


def fan_in(size: int = 1000) -> Document:
    """Every node wired to one: loops straight from the trigger, bodies and `done`s into one node."""
    loops = [f"l{i}" for i in range(size - 2)]
    nodes = [("t", "trigger"), ("sink", "log"), *((loop, "foreach") for loop in loops)]
    wires = [("t", "out", loop) for loop in loops]
    wires += [(loop, port, "sink") for loop in loops for port in ("body", "done")]
    return _document(nodes, wires)


def fan_out(size: int = 1000) -> Document:
    """One loop whose body fans out to every other node, each of them also wired from the trigger."""
    others = [f"n{i}" for i in range(size - 2)]
    nodes = [("t", "trigger"), ("each", "foreach"), *((node, "end") for node in others)]
    wires = [("t", "out", "each")]
    wires += [("each", "body", node) for node in others]
    wires += [("t", "out", node) for node in others]
    return _document(nodes, wires)


def deep_nesting(size: int = 1000) -> Document:
    """Loops nested inside each other as deep as the node limit allows, an `end` at the bottom."""
    loops = [f"l{i}" for i in range(size - 2)]
    nodes = [("t", "trigger"), *((loop, "foreach") for loop in loops), ("stop", "end")]
    wires = [("t", "out", loops[0])]
    wires += [(a, "body", b) for a, b in zip(loops, [*loops[1:], "stop"], strict=True)]
    return _document(nodes, wires)


def long_cycle(size: int = 1000) -> Document:
    """One chain closed into a cycle through every node: the longest path a `cycle` finding can name."""
    chain = [f"node-with-a-long-name-{i:05}-{'x' * 30}" for i in range(size - 1)]
    nodes = [("t", "trigger"), *((node, "log") for node in chain)]
    wires = [("t", "out", chain[0])]
    wires += [(a, "out", b) for a, b in zip(chain, [*chain[1:], chain[0]], strict=True)]
    return _document(nodes, wires)


def many_cycles(size: int = 1000) -> Document:
    """Pairs of nodes wired in a ring each, back through a port logs lack: a cycle and a port finding each."""
    pairs = [(f"a{i}", f"b{i}") for i in range((size - 1) // 2)]
    nodes = [("t", "trigger"), *((node, "log") for pair in pairs for node in pair)]
    wires = [("t", "out", a) for a, _ in pairs]
    wires += [edge for a, b in pairs for edge in ((a, "out", b), (b, "sideways", a))]
    return _document(nodes, wires)


def breaks_outside(size: int = 1000) -> Document:
    """Every node a `break` outside any loop, straight from the trigger."""
    document = _document([("t", "trigger")], [(("t", "out", f"b{i}")) for i in range(size - 1)])
    document["nodes"] += [{"id": f"b{i}", "type": "break", "config": {}} for i in range(size - 1)]
    return document


def dense(size: int = 1000, wires: int = MAX_WIRES) -> Document:
    """As many wires as a flow may have, between the nodes of a cycle-free graph, half of them loops.

    The loops' bodies and `done`s lead to later nodes, so that most wires enter some loop's body from
    outside it: a finding per wire.
    """
    names = [f"n{i:x}" for i in range(size - 1)]
    nodes: list[tuple[str, str]] = [("t", "trigger")]
    nodes += [(name, "foreach" if i % 2 == 0 else "log") for i, name in enumerate(names)]
    edges: list[tuple[str, str, str]] = [("t", "out", name) for name in names]
    step = max(1, size * size // (2 * wires))
    for i, source in enumerate(names):
        port = "body" if i % 2 == 0 else "out"
        edges += [(source, port, target) for target in names[i + 1 :: step]]
    return _document(nodes, edges[:wires])


def triggers_with_inputs(size: int = 1000, wires: int = MAX_WIRES) -> Document:
    """Half the nodes triggers, the other half wired into them: a finding per wire and per trigger."""
    half = size // 2
    triggers = [f"t{i}" for i in range(half)]
    others = [f"n{i}" for i in range(size - half)]
    nodes = [*((node, "trigger") for node in triggers), *((node, "log") for node in others)]
    edges = [(source, "out", target) for target in triggers for source in others]
    return _document(nodes, edges[:wires])


def unknown_ends(size: int = 1000, wires: int = MAX_WIRES) -> Document:
    """Wires from unknown nodes through unknown ports to unknown nodes: three findings a wire."""
    nodes = [("t", "trigger"), *((f"n{i}", "log") for i in range(size - 1))]
    return _document(nodes, [(f"a{i}", "p", f"b{i}") for i in range(wires)])


def too_many_wires(size: int = 1000, limit: int = 4_900_000) -> Document:
    """As many wires as the body limit holds (about 100,000): past the wire limit, one finding."""
    document = unknown_ends(size, wires=0)
    document["wires"] = [{"from": "t", "to": f"n{i % (size - 1)}"} for i in range(limit // 30)]
    return document


def bad_configs(size: int = 1000, limit: int = 4_900_000) -> Document:
    """Every node a `set` whose values are all numbers (templates must be text): a finding per value."""
    per_node = max(1, (limit // size - 100) // 13)
    document = _document([("t", "trigger")], [])
    for i in range(size - 1):
        values = {f"v{j}": j for j in range(per_node)}
        document["nodes"].append({"id": f"s{i}", "type": "set", "config": {"values": values}})
        document["wires"].append({"from": "t", "to": f"s{i}"})
    return document


def huge_config(limit: int = 4_900_000) -> Document:
    """One `approval` whose approvers list holds as many principals as the body allows, one of them bad."""
    approvers = ["user:a"] * (limit // 10)
    approvers[-1] = "nobody"
    config = {"title": "Go?", "approvers": approvers}
    document = _document([("t", "trigger")], [("t", "out", "ask")])
    document["nodes"].append({"id": "ask", "type": "approval", "config": config})
    return document


def long_id(length: int = 1_000_000) -> Document:
    """One node whose id is a megabyte, and whose config has a fault for every finding there is room for:
    each finding names the node."""
    document = _document([("t", "trigger")], [])
    node_id = "a" * length
    values = {f"k{i}": i for i in range(300)}
    document["nodes"].append({"id": node_id, "type": "set", "config": {"values": values}})
    document["wires"].append({"from": "t", "to": node_id})
    return document


def duplicate_ids(size: int = 1000) -> Document:
    """Every node with the same id, of a type that does not exist."""
    document = _document([("t", "trigger")], [])
    document["nodes"] += [{"id": "t", "type": "nope", "config": {}} for _ in range(size - 1)]
    return document


SHAPES: dict[str, Callable[[], Document]] = {
    "shared_body": shared_body,
    "fan_in": fan_in,
    "fan_out": fan_out,
    "deep_nesting": deep_nesting,
    "long_cycle": long_cycle,
    "many_cycles": many_cycles,
    "breaks_outside": breaks_outside,
    "dense": dense,
    "triggers_with_inputs": triggers_with_inputs,
    "unknown_ends": unknown_ends,
    "too_many_wires": too_many_wires,
    "bad_configs": bad_configs,
    "huge_config": huge_config,
    "long_id": long_id,
    "duplicate_ids": duplicate_ids,
}
