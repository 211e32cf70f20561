"""Loops as waypoints on the stack, not back wires: the graph stays acyclic.

Entering a foreach or repeat records the stack's height as the loop's `base`, opens a fresh visited scope
and starts the first pass (the walk then pushes the `body` targets). The validator keeps a body closed
(`loop_body_leaks`), so everything a pass pushes lies above the base: when the stack is back at the base,
the pass is over, and `pass_over` starts the next one or closes the loop, which follows `done` in the
enclosing scope. A `break` cuts the stack back to the innermost base and closes that loop.

A foreach reads its items once, when it is entered; its `as` variable holds the current item during a
pass and gets back its earlier value (or disappears) when the loop closes. Passes count against
`PASS_LIMIT`: a foreach over more items fails before its first pass, a repeat when it would start one more.

Examples:
    >>> from backend.walker.continuation import State
    >>> from backend.graph.model import Flow, Node
    >>> state, journal = State.start("t", [1, 2]), []
    >>> loops = Loops({}, state, journal)
    >>> loops.enter_foreach(Node("each", "foreach", {"items": "{{trigger}}", "as": "n"}), 2)
    'body'
    >>> state.variables["n"], state.loops[0].passes, journal[0].code
    (1, 1, 'loop_pass_started')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backend.graph.model import Flow, Node
from backend.walker.conditions import holds
from backend.walker.continuation import Loop, State
from backend.walker.errors import WalkFailure
from backend.walker.sizes import DEFAULT_LIMITS, Ledger, Limits
from backend.walker.step import JournalLine
from backend.walker.templates import MISSING, evaluate, kind_of

PASS_LIMIT = 100


class Loops:
    """The loop half of a walk: opens loops, decides their passes, closes them.

    It shares the walk's state and journal lists, and changes them in place.
    """

    def __init__(
        self,
        flow: Flow,
        state: State,
        journal: list[JournalLine],
        limits: Limits = DEFAULT_LIMITS,
        ledger: Ledger | None = None,
    ) -> None:
        self.flow = flow
        self.state = state
        self.journal = journal
        self.ledger = ledger or Ledger(state.variables, limits)
        self.value_limit = limits.value_bytes

    def enter_foreach(self, node: Node, visit: int) -> str:
        """Open a pass over the items ("body"), or follow "done" when there are none or they are missing."""
        name = node.config.get("as")
        if not isinstance(name, str) or not name:
            raise WalkFailure(code="node_config_invalid", field="as")
        variables = self.state.variables
        items = evaluate(node.config.get("items", MISSING), variables, self.value_limit)
        if items is MISSING:
            return "done"
        if not isinstance(items, list):
            raise WalkFailure(code="foreach_items_invalid", got=kind_of(items))
        if len(items) > PASS_LIMIT:
            raise WalkFailure(code="iteration_limit_exceeded", limit=PASS_LIMIT, passes=len(items))
        if not items:
            return "done"
        self._open(Loop(node.id, visit, len(self.state.stack), 0, items, name, variables.get(name, MISSING)))
        return "body"

    def enter_repeat(self, node: Node, visit: int) -> str:
        """Open the first pass when `while` holds ("body"), else follow "done"."""
        if not holds(_while(node), self.state.variables, self.value_limit):
            return "done"
        self._open(Loop(node.id, visit, len(self.state.stack), 0))
        return "body"

    def leave(self) -> None:
        """A `break`: drop what is left of the innermost pass and close its loop."""
        if not self.state.loops:
            raise WalkFailure(code="break_outside_loop")
        loop = self.state.loops[-1]
        del self.state.stack[loop.base :]
        self._close(loop, broken=True)

    def pass_over(self, loop: Loop) -> None:
        """The stack is back at the loop's waypoint: start the next pass, or close the loop."""
        if loop.items is not None:
            more = loop.passes < len(loop.items)
        else:
            more = holds(_while(self.flow.nodes[loop.node]), self.state.variables, self.value_limit)
            if more and loop.passes >= PASS_LIMIT:
                raise WalkFailure(code="iteration_limit_exceeded", limit=PASS_LIMIT, passes=loop.passes + 1)
        if more:
            self._start_pass(loop)
            self.state.stack.extend(reversed(self.flow.targets(loop.node, "body")))
        else:
            self._close(loop, broken=False)

    def _open(self, loop: Loop) -> None:
        self.state.loops.append(loop)
        self.state.seen.append({})
        self._start_pass(loop)

    def _start_pass(self, loop: Loop) -> None:
        loop.passes += 1
        self.state.seen[-1] = {}
        if loop.items is not None and loop.name is not None:
            item = loop.items[loop.passes - 1]
            self.state.variables[loop.name] = item
            self.ledger.assign(loop.name, item)
            self.ledger.check()
        data = {"pass": loop.passes}
        self.journal.append(
            JournalLine(code="loop_pass_started", node=loop.node, visit=loop.visit, data=data)
        )

    def _close(self, loop: Loop, *, broken: bool) -> None:
        self.state.loops.pop()
        self.state.seen.pop()
        if loop.name is not None:
            if loop.saved is MISSING:
                self.state.variables.pop(loop.name, None)
                self.ledger.remove(loop.name)
            else:
                self.state.variables[loop.name] = loop.saved
                self.ledger.assign(loop.name, loop.saved)
        data: dict[str, Any] = {"passes": loop.passes}
        if broken:
            self.journal.append(JournalLine(code="loop_broken", node=loop.node, visit=loop.visit, data=data))
        else:
            self.journal.append(
                JournalLine(code="loop_finished", node=loop.node, visit=loop.visit, data=data)
            )
        self.state.stack.extend(reversed(self.flow.targets(loop.node, "done")))


def _while(node: Node) -> Mapping[str, Any]:
    test = node.config.get("while")
    if not isinstance(test, Mapping):
        raise WalkFailure(code="node_config_invalid", field="while")
    return test
