"""The branches of a walk and the continuation that holds them: `"v": 2` while a parallel is open, `"v": 3`
while a parallel with `rest: continue` has branches still running past its `done` (docs/walker.md).

The run itself is the root branch. `freeze` writes exactly the `"v": 1` of continuation.py while no
parallel is open or left running, so a sequential flow's continuations never change; `thaw` reads all
three versions.

Examples:
    >>> from backend.walker.continuation import State
    >>> state = State(stack=[], seen=[{"t": None, "p": None}], variables={}, visits=3, loops=[])
    >>> root = root_of(state)
    >>> root.par = Par("p", 2, 2, [Branch([], [{}], [], {}, at=("a", 3)), Branch(ended=True)])
    >>> frozen = freeze(state, root)
    >>> frozen["v"], list(thaw(frozen, {"t", "p", "a"})[1].pending())
    (2, [('a', 3)])
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from backend.walker.continuation import (
    VERSION,
    Loop,
    State,
    arrivals_to_json,
    count,
    is_count,
    loop_from_json,
    loop_to_json,
    node_ids,
    to_json,
)
from backend.walker.errors import ContinuationInvalid
from backend.walker.templates import MISSING


@dataclass(slots=True)
class Branch:
    """One line of the walk: its own stack, visited marks, open loops and join arrivals.

    The run itself is the root branch. A branch is either walking, paused `at` a pause, waiting on the
    parallel it opened (`par`), or `ended`. Variables and the visit counter belong to the run.
    """

    # An ended branch holds nothing of its own but the parallels it left running.
    stack: list[str] = field(default_factory=list)
    seen: list[dict[str, None]] = field(default_factory=list)
    loops: list[Loop] = field(default_factory=list)
    arrivals: dict[int, dict[str, int]] = field(default_factory=dict)
    at: tuple[str, int] | None = None
    par: Par | None = None
    ended: bool = False
    # Parallels with `rest: continue` this branch went on past: their branches still open keep walking.
    rest: list[Par] = field(default_factory=list)

    @classmethod
    def fresh(cls, target: str) -> Branch:
        """A branch about to visit `target`, the target of one `branches` wire."""
        return cls(stack=[target], seen=[{}])

    def pending(self) -> Iterator[tuple[str, int]]:
        """Every pause this branch and the branches under it wait on, in branch order."""
        if self.at is not None:
            yield self.at
        if self.par is not None:
            for branch in self.par.branches:
                yield from branch.pending()
        for par in self.rest:
            for branch in par.branches:
                yield from branch.pending()

    @property
    def finished(self) -> bool:
        """Ended, and so has every branch it left running: what a parallel around it counts."""
        return self.ended and not self.rest


@dataclass(slots=True)
class Par:
    """An open parallel: its node and visit, how many branches must end (`need`), and the branches.

    A parallel over `items` has one branch per item, in the items' order: while branch i walks, the
    variable `name` holds `items[i]`; `saved` is the value it had before the parallel (MISSING: none),
    put back when the parallel closes.
    """

    node: str
    visit: int
    need: int
    branches: list[Branch]
    items: list[Any] | None = None
    name: str | None = None
    saved: Any = MISSING

    def met(self) -> bool:
        return sum(1 for branch in self.branches if branch.finished) >= self.need


def root_of(state: State, at: tuple[str, int] | None = None) -> Branch:
    """The run's own branch, sharing the state's lists."""
    return Branch(state.stack, state.seen, state.loops, state.arrivals, at)


def freeze(state: State, root: Branch) -> dict[str, Any]:
    """The continuation of a paused walk: `"v": 1` exactly as before while no parallel is open, `"v": 2`
    with the open parallel's branches under `par`, and `"v": 3` once some branch went on past a parallel
    whose other branches still run (`rest: continue`): those parallels are under its `rest`. Version 3
    is written only then, so that a release which knows only 1 and 2 refuses it instead of dropping the
    branches it cannot see."""
    if root.par is None and not _has_rest(root):
        assert root.at is not None
        own = State(root.stack, root.seen, state.variables, state.visits, root.loops, root.arrivals)
        return to_json(own, at=root.at)
    version = 3 if _has_rest(root) else 2
    frozen: dict[str, Any] = {"v": version, "visits": state.visits, "vars": dict(state.variables)}
    frozen.update(_branch_to_json(root))
    return frozen


def _has_rest(branch: Branch) -> bool:
    if branch.rest:
        return True
    return branch.par is not None and any(_has_rest(inner) for inner in branch.par.branches)


def _par_to_json(par: Par) -> dict[str, Any]:
    frozen: dict[str, Any] = {
        "node": par.node,
        "visit": par.visit,
        "need": par.need,
        "branches": [_branch_to_json(inner) for inner in par.branches],
    }
    if par.items is not None:
        frozen["items"] = par.items
        frozen["as"] = par.name
        if par.saved is not MISSING:
            frozen["saved"] = par.saved
    return frozen


def _branch_to_json(branch: Branch) -> dict[str, Any]:
    if branch.ended:
        if branch.rest:
            return {"ended": True, "rest": [_par_to_json(par) for par in branch.rest]}
        return {"ended": True}
    frozen: dict[str, Any] = {
        "stack": list(branch.stack),
        "seen": [list(scope) for scope in branch.seen],
        "loops": [loop_to_json(loop) for loop in branch.loops],
    }
    if any(branch.arrivals.values()):
        frozen["arrivals"] = arrivals_to_json(branch.arrivals)
    if branch.at is not None:
        frozen["at"] = {"node": branch.at[0], "visit": branch.at[1]}
    if branch.par is not None:
        frozen["par"] = _par_to_json(branch.par)
    if branch.rest:
        frozen["rest"] = [_par_to_json(par) for par in branch.rest]
    return frozen


def thaw(continuation: Mapping[str, Any], nodes: Collection[str]) -> tuple[State, Branch]:
    """The state a continuation of any version holds, and the run's root branch (its pauses, its open
    parallel, the parallels it left running). Raises `ContinuationInvalid` for anything this release
    does not write."""
    version = continuation.get("v") if isinstance(continuation, Mapping) else None
    if type(version) is not int or version not in (1, 2, 3):
        raise ContinuationInvalid(
            code="continuation_invalid", reason="continuation_version_unknown", found=json.dumps(version)
        )
    try:
        root = _branch_from_json(continuation, nodes, depth=0, rest=version == 3)
        if version == 1 and (root.at is None or root.par is not None):
            raise ValueError("a pause at one of this flow's nodes")
        if version == 2 and (root.par is None or root.at is not None):
            raise ValueError("an open parallel")
        if version == 3 and not _has_rest(root):
            raise ValueError("a parallel left running")
        variables = continuation["vars"]
        if not isinstance(variables, Mapping):
            raise ValueError("variables as an object")
        state = State(
            stack=root.stack,
            seen=root.seen,
            variables=dict(variables),
            visits=count(continuation, "visits"),
            loops=root.loops,
            arrivals=root.arrivals,
        )
    except (KeyError, TypeError, ValueError) as error:
        # What is wrong stays for machines (`detail`); a person reads that the saved state is damaged.
        raise ContinuationInvalid(
            code="continuation_invalid", reason="continuation_damaged", detail=str(error)
        ) from None
    return state, root


def from_json(continuation: Mapping[str, Any], nodes: Collection[str]) -> tuple[State, tuple[str, int]]:
    """The state a `"v": 1` continuation holds and the pause it is at; `nodes` are the flow's node ids.

    Raises `ContinuationInvalid` for another version or a shape this release does not write. The
    containers are copied, so the walk never changes the caller's continuation.
    """
    version = continuation.get("v") if isinstance(continuation, Mapping) else None
    if type(version) is not int or version != VERSION:  # JSON's true and 1.0 equal 1 in Python
        raise ContinuationInvalid(
            code="continuation_invalid", reason="continuation_version_unknown", found=json.dumps(version)
        )
    state, root = thaw(continuation, nodes)
    assert root.at is not None  # a v1 continuation always waits at one pause
    return state, root.at


# Parallels nest no deeper than loops and parallels together may (the validator's limit is 3).
_MAX_DEPTH = 8


def _rest_from_json(frozen: Mapping[str, Any], nodes: Collection[str], depth: int, rest: bool) -> list[Par]:
    """The parallels a branch left running; only a `"v": 3` continuation has them, never an empty list."""
    if "rest" not in frozen:
        return []
    running = frozen["rest"]
    if not rest or not isinstance(running, list) or not running:
        raise ValueError("parallels left running only in version 3")
    pars = [_par_from_json(par, nodes, depth, rest) for par in running]
    if any(all(branch.finished for branch in par.branches) for par in pars):
        raise ValueError("a parallel left running with a branch still open")
    return pars


def _par_from_json(frozen: Any, nodes: Collection[str], depth: int, rest: bool) -> Par:
    if not isinstance(frozen, Mapping) or frozen.get("node") not in nodes:
        raise ValueError("an open parallel of this flow")
    branches = frozen["branches"]
    if not isinstance(branches, list):
        raise ValueError("a parallel's branches")
    par = Par(
        node=frozen["node"],
        visit=count(frozen, "visit"),
        need=count(frozen, "need"),
        branches=[_branch_from_json(branch, nodes, depth + 1, rest) for branch in branches],
    )
    if "items" in frozen:
        items = frozen["items"]
        if (
            not isinstance(items, list)
            or len(items) != len(branches)
            or not isinstance(frozen.get("as"), str)
        ):
            raise ValueError("a parallel's items (one per branch) and name")
        par.items, par.name = items, frozen["as"]
        par.saved = frozen.get("saved", MISSING)
    return par


def _branch_from_json(frozen: Any, nodes: Collection[str], depth: int, rest: bool) -> Branch:
    if not isinstance(frozen, Mapping) or depth > _MAX_DEPTH:
        raise ValueError("a branch")
    if frozen.get("ended") is True and (depth or rest):
        # The run's own branch ends before the parallels it left running only in version 3.
        running = _rest_from_json(frozen, nodes, depth, rest)
        return Branch(ended=True, rest=running)
    stack = node_ids(frozen["stack"], nodes)
    loops = _loops_from_json(frozen["loops"], nodes, len(stack))
    seen = frozen["seen"]
    if not isinstance(seen, list) or len(seen) != len(loops) + 1:
        raise ValueError("one visited list per open scope")
    arrivals = _arrivals_from_json(frozen.get("arrivals", ()), nodes, len(loops))
    pause = _pause_from_json(frozen.get("at"), nodes)
    par = _waited_par_from_json(frozen, nodes, depth, rest, pause)
    if depth and pause is None and par is None:
        # Between stretches no branch walks: each has paused, opened a parallel of its own, or ended.
        raise ValueError("a branch paused, waiting on a parallel, or ended")
    return Branch(
        stack=stack,
        seen=[dict.fromkeys(node_ids(scope, nodes)) for scope in seen],
        loops=loops,
        arrivals=arrivals,
        at=pause,
        par=par,
        rest=_rest_from_json(frozen, nodes, depth, rest),
    )


def _waited_par_from_json(
    frozen: Mapping[str, Any], nodes: Collection[str], depth: int, rest: bool, pause: tuple[str, int] | None
) -> Par | None:
    """The parallel a branch opened and waits on, if any; a paused branch waits on none."""
    if "par" not in frozen:
        return None
    if pause is not None:
        raise ValueError("an open parallel of this flow")
    par = _par_from_json(frozen["par"], nodes, depth, rest)
    if par.met():
        # The walk closes a parallel the moment its rule is met: one still open and met is not ours.
        raise ValueError("an open parallel whose rule is not met yet")
    return par


def _loops_from_json(frozen: Any, nodes: Collection[str], height: int) -> list[Loop]:
    """A branch's open loops, innermost last: each one's base at or above the one around it."""
    loops: list[Loop] = []
    for loop in frozen:
        loops.append(loop_from_json(loop, nodes, loops[-1].base if loops else 0, height))
    return loops


def _arrivals_from_json(frozen: Any, nodes: Collection[str], deepest: int) -> dict[int, dict[str, int]]:
    """The arrivals at joins counted in each open scope, by scope (0 up to `deepest`)."""
    arrivals: dict[int, dict[str, int]] = {}
    for scope, joins in frozen:
        if not is_count(scope) or scope > deepest or not isinstance(joins, Mapping):
            raise ValueError("join arrivals by open scope")
        arrivals[scope] = {join: count(joins, join) for join in node_ids(list(joins), nodes)}
    return arrivals


def _pause_from_json(at: Any, nodes: Collection[str]) -> tuple[str, int] | None:
    """Where a branch is paused: a node of this flow and its visit, or None."""
    if at is None:
        return None
    if not isinstance(at, Mapping) or at.get("node") not in nodes or not is_count(at.get("visit")):
        raise ValueError("a pause at one of this flow's nodes")
    return (at["node"], at["visit"])
