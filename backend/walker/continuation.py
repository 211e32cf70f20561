"""The walk's whole state, and its JSON form: the continuation a paused run is stored as.

The state is the stack of node ids still to visit, the visited marks of each open scope, the variables,
the visit counter and the open loops. A loop's waypoint is its `base`: the height the stack had when the
loop was entered, so "the stack has unwound to the waypoint" is `len(stack) == base`.

The JSON form (`"v": 1`) holds only JSON types: lists, objects with text keys, text, numbers, booleans
and null. `json.loads(json.dumps(c))` is accepted as it is. A later release that changes the shape writes
a new `v` and keeps reading every earlier one; this release refuses any `v` other than 1.
The branches of a parallel, the versions 2 and 3 that hold them, and the reading of every version
(`thaw`, and `from_json` for a `"v": 1`) are in branches.py.

Examples:
    >>> seen = [{"t": None, "ask": None}]
    >>> state = State(stack=["b"], seen=seen, variables={"trigger": 1}, visits=2, loops=[])
    >>> to_json(state, at=("ask", 2))
    {'v': 1, 'at': {'node': 'ask', 'visit': 2}, 'visits': 2, 'stack': ['b'], 'seen': [['t', 'ask']], \
'vars': {'trigger': 1}, 'loops': []}
    >>> import json
    >>> text = json.dumps(to_json(state, at=("ask", 2)))
    >>> from backend.walker.branches import from_json
    >>> thawed, at = from_json(json.loads(text), {"t", "ask", "b"})
    >>> at, thawed == state
    (('ask', 2), True)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from backend.walker.templates import MISSING

VERSION = 1


@dataclass(slots=True)
class Loop:
    """An open loop: its node and visit, its waypoint, the pass it is in, and for a foreach its items.

    `saved` is the value the `as` variable had before the loop, restored when it closes (MISSING: the
    variable did not exist and is removed).
    """

    node: str
    visit: int
    base: int
    passes: int
    items: list[Any] | None = None
    name: str | None = None
    saved: Any = MISSING


@dataclass(slots=True)
class State:
    """The walk's mutable state; `seen[0]` is the run's scope, `seen[i + 1]` the pass of `loops[i]`.

    Visited marks are dicts used as ordered sets, so that a continuation freezes to the same text in
    every process (a set's order depends on the string hash seed).
    """

    stack: list[str]
    seen: list[dict[str, None]]
    variables: dict[str, Any]
    visits: int
    loops: list[Loop]
    # The joins that have arrivals but were not visited yet, by scope (an index into `seen`).
    arrivals: dict[int, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def start(cls, trigger: str, payload: Any) -> State:
        """A run about to visit its trigger, with the payload as `trigger` in the variables."""
        return cls(stack=[trigger], seen=[{}], variables={"trigger": payload}, visits=0, loops=[])


def loop_to_json(loop: Loop) -> dict[str, Any]:
    frozen: dict[str, Any] = {"node": loop.node, "visit": loop.visit, "base": loop.base, "pass": loop.passes}
    if loop.items is not None:
        frozen["items"] = loop.items
        frozen["as"] = loop.name
        if loop.saved is not MISSING:
            frozen["saved"] = loop.saved
    return frozen


def to_json(state: State, *, at: tuple[str, int]) -> dict[str, Any]:
    """The continuation of a walk paused at node `at[0]`, visit `at[1]`, as a JSON-able dict."""
    frozen = {
        "v": VERSION,
        "at": {"node": at[0], "visit": at[1]},
        "visits": state.visits,
        "stack": list(state.stack),
        "seen": [list(scope) for scope in state.seen],
        "vars": dict(state.variables),
        "loops": [loop_to_json(loop) for loop in state.loops],
    }
    if any(state.arrivals.values()):
        frozen["arrivals"] = arrivals_to_json(state.arrivals)
    return frozen


def arrivals_to_json(arrivals: Mapping[int, Mapping[str, int]]) -> list[list[Any]]:
    return [[scope, dict(joins)] for scope, joins in sorted(arrivals.items()) if joins]


def is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def count(frozen: Mapping[str, Any], key: str) -> int:
    value: Any = frozen.get(key)
    if not is_count(value):
        raise ValueError(f"a count as {key!r}")
    return int(value)


def node_ids(value: Any, nodes: Collection[str]) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) and item in nodes for item in value):
        raise ValueError("a list of this flow's node ids")
    return list(value)


def loop_from_json(frozen: Any, nodes: Collection[str], floor: int, height: int) -> Loop:
    if not isinstance(frozen, Mapping) or frozen.get("node") not in nodes:
        raise ValueError("an open loop of this flow")
    base = count(frozen, "base")
    if not floor <= base <= height:
        raise ValueError("an open loop's base within the stack, above the enclosing loop's")
    loop = Loop(node=frozen["node"], visit=count(frozen, "visit"), base=base, passes=count(frozen, "pass"))
    if "items" in frozen:
        if not isinstance(frozen["items"], list) or not isinstance(frozen.get("as"), str):
            raise ValueError("a foreach's items and name")
        loop.items, loop.name = frozen["items"], frozen["as"]
        loop.saved = frozen.get("saved", MISSING)
    return loop
