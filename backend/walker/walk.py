"""The walker: an explicit stack machine that visits a flow's nodes in the order of the recursive reference.

The reference (FLOW_FORMAT.md) visits a node, marks it, and calls itself on each target of the chosen
port, in document order, as its last act. Every call is in tail position, so pushing a port's targets in
reverse order and popping them one at a time visits exactly the same nodes in exactly the same order;
and because nothing waits on the Python call stack, the walk can stop at any pause and be written down
as JSON (continuation.py).

Loops are waypoints, not back wires: visiting a foreach or repeat records the stack height (its base),
opens a fresh visited scope and pushes the body. When the stack is back at that height the pass is over
and the loop decides whether there is another; when there is none it follows `done` in the enclosing
scope. A `break` cuts the stack back to the innermost base and follows that loop's `done`.

Examples:
    >>> from backend.graph.model import Flow
    >>> flow = Flow.load({"format": "flowyard.flow/1", "name": "n", "nodes": [
    ...     {"id": "t", "type": "trigger", "config": {"kind": "manual"}},
    ...     {"id": "each", "type": "foreach", "config": {"items": "{{trigger}}", "as": "x"}},
    ...     {"id": "say", "type": "log", "config": {"message": "got {{x}}"}}],
    ...     "wires": [{"from": "t", "to": "each"}, {"from": "each", "port": "body", "to": "say"}]})
    >>> step = walk(flow, None, trigger=["a", "b"])
    >>> step.status, step.visits, step.visit_count
    ('succeeded', ['t', 'each', 'say', 'say'], 4)
    >>> [line.data["message"] for line in step.journal if line.code == "log_written"]
    ['got a', 'got b']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from itertools import pairwise
from typing import Any, NamedTuple

from backend.graph.model import ACTION_TYPES, Flow, Node, join_need
from backend.graph.ports import ports
from backend.walker.branches import Branch, Par, freeze, root_of, thaw
from backend.walker.conditions import holds
from backend.walker.continuation import Loop, State
from backend.walker.errors import ResumeMismatch, WalkFailure
from backend.walker.loops import PASS_LIMIT, Loops
from backend.walker.redact import redact_request
from backend.walker.requests import Request, action_request, approval_request, delay_request, event_request
from backend.walker.sizes import DEFAULT_LIMITS, JournalBudget, Ledger, Limits, text_size, too_large
from backend.walker.step import JournalLine, Resume, Status, Step
from backend.walker.templates import MISSING, evaluate, kind_of, render_text

__all__ = ["PASS_LIMIT", "VISIT_LIMIT", "walk"]

VISIT_LIMIT = 500

_OUTCOMES: Mapping[str, frozenset[str]] = {
    "approval": frozenset({"approve", "reject", "timeout"}),
    "delay": frozenset({"passed"}),
    **{action: frozenset({"out", "error"}) for action in ACTION_TYPES},
}


class _Paused(Exception):
    def __init__(self, request: Request) -> None:
        self.request = request


class _Forked(Exception):
    """A `parallel` node opened its branches: the branch that visited it waits until its rule is met."""

    def __init__(self, par: Par) -> None:
        self.par = par


class _Ended(Exception):
    """An `end` node with status succeeded (one with status failed raises a WalkFailure)."""

    def __init__(self, message: str) -> None:
        self.message = message


def walk(
    flow: Flow,
    continuation: Mapping[str, Any] | None,
    *,
    trigger: Any = None,
    resume: Resume | None = None,
    limits: Limits = DEFAULT_LIMITS,
    budget: JournalBudget | None = None,
) -> Step:
    """Walk `flow` from its trigger, or from a paused continuation, to the next pause or the end.

    With `continuation=None` the run starts at the trigger with `{"trigger": trigger}` as its
    variables (and `resume` must be None). Otherwise `resume` must answer the pause the continuation is
    at, same node and visit, with an outcome that node can take, else `ResumeMismatch`; `trigger` is
    then ignored. The walker performs no side effect: a pause returns a `waiting` Step with the request.
    A rendered value or a variable set past `limits` fails the run with `value_too_large` (sizes.py);
    with a `budget`, a journal past it fails the run with `walk_journal_too_large`, counted as it grows.

    Examples:
        >>> from backend.graph.model import Flow
        >>> flow = Flow.load({"format": "flowyard.flow/1", "name": "n", "nodes": [
        ...     {"id": "t", "type": "trigger", "config": {"kind": "manual"}},
        ...     {"id": "ask", "type": "approval", "config": {"title": "Go?", "approvers": []}},
        ...     {"id": "go", "type": "log", "config": {"message": "approved"}}],
        ...     "wires": [{"from": "t", "to": "ask"}, {"from": "ask", "port": "approve", "to": "go"}]})
        >>> paused = walk(flow, None)
        >>> paused.status, paused.request.title, paused.request.visit
        ('waiting', 'Go?', 2)
        >>> done = walk(flow, paused.continuation, resume=Resume("ask", 2, "approve"))
        >>> done.status, done.visits, done.visit_count
        ('succeeded', ['go'], 3)
    """
    if continuation is None:
        if resume is not None:
            raise ResumeMismatch(
                code="resume_mismatch",
                expected="resume_expected_new_run",
                got=f"{resume.node}@{resume.visit}",
            )
        return _Walk(flow, State.start(flow.trigger, trigger), limits, budget=budget).run()
    state, root = thaw(continuation, flow.nodes)
    walker = _Walk(flow, state, limits, root, budget)
    return walker.resume(resume)


class _Walk:
    """One stretch of a walk: the state it moves, and the journal and visits it writes."""

    # How many of this stretch's journal lines the preview's budget has counted (`_spend`).
    counted = 0

    def __init__(
        self,
        flow: Flow,
        state: State,
        limits: Limits,
        root: Branch | None = None,
        budget: JournalBudget | None = None,
    ) -> None:
        self.flow = flow
        self.state = state
        # The run's own branch; while a parallel is open, the branches under it (continuation.py).
        self.root = root or root_of(state)
        self.requests: list[Request] = []
        # Joins released when their scope unwound: their next pop is a visit, not an arrival.
        self.released: set[str] = set()
        self.limit = limits.value_bytes
        # Counted once per stretch (a thawed run's variables, or the trigger's payload), then kept.
        self.ledger = Ledger(state.variables, limits)
        self.journal: list[JournalLine] = []
        self.budget = budget  # the preview's journal budget, if any
        self.visits: list[str] = []
        # Where the walk is, for the line of a failure: a node and its visit, or a loop deciding a pass.
        self.at: tuple[str | None, int | None] = (None, None)
        self.loops = Loops(flow, state, self.journal, limits, self.ledger)
        self.handlers: Mapping[str, Callable[[Node, int], str | None]] = {
            "trigger": lambda node, visit: "out",
            "set": self._set,
            "condition": lambda node, visit: (
                "true" if holds(node.config, state.variables, self.limit) else "false"
            ),
            "foreach": self.loops.enter_foreach,
            "repeat": self.loops.enter_repeat,
            "break": lambda node, visit: self.loops.leave(),
            "approval": self._approval,
            "delay": self._delay,
            "wait_event": self._wait_event,
            "log": self._log,
            "end": self._end,
            "parallel": self._parallel,
            "join": lambda node, visit: "out",
            **{action: self._action for action in ACTION_TYPES},
        }

    def resume(self, resume: Resume | None) -> Step:
        """Take a pending pause's outcome, follow the port it chooses, and walk that branch on."""
        path = self._path_to(resume)
        branch = path[-1]
        assert branch.at is not None and resume is not None
        node, visit = self.flow.nodes[branch.at[0]], branch.at[1]
        port = _port_of(node, resume.outcome)
        branch.at = None
        self._enter(branch)
        try:
            # Each parallel over items on the way down binds its variable to the item of this branch.
            links = _links(path)
            for _, par, inner, running in links:
                if running and par.name is not None:
                    # Whatever the variable holds now comes back after this stretch.
                    par.saved = self.state.variables.get(par.name, MISSING)
                self._bind(par, inner)
            if resume.output is not None:
                self.state.variables[node.id] = dict(resume.output)
                self.ledger.assign(node.id, self.state.variables[node.id])  # checked as the walk goes on
            self.at = (node.id, visit)
            self._follow(node, visit, resume.outcome, port)
            self.ledger.check()
            self._advance(branch)
            self._close_above(links)
            # Between stretches no branch walks: the variables of the parallels still open or left
            # running go back (one closed in this stretch gave its back as it closed).
            for owner, par, _, running in reversed(links):
                if running or owner.par is par:
                    self._unbind(par)
            self._spend()
        except _Ended as end:
            return self._ended(end.message)
        except WalkFailure as failure:
            return self._failed(failure)
        return self._outcome()

    def _follow(self, node: Node, visit: int, outcome: str, port: str) -> None:
        """Journal the resumed pause and push the targets of the port its outcome chose."""
        if port == "skip":
            self.journal.append(JournalLine(code="approval_skipped", node=node.id, visit=visit))
        elif port == "error" and not self.flow.targets(node.id, "error"):
            self.journal.append(self._resumed(node, visit, outcome, None))
            raise WalkFailure(code="action_failed")
        else:
            self.journal.append(self._resumed(node, visit, outcome, port))
            self.state.stack.extend(reversed(self.flow.targets(node.id, port)))

    def _close_above(self, links: list[_Link]) -> None:
        """The resumed branch may have ended: each parallel above it whose rule that meets closes, and
        the branch that opened it walks on from its `done` port."""
        for owner, par, inner, running in reversed(links):
            # A step up only from a branch that has finished, its own parallels left running included.
            if not inner.finished:
                return
            if running:
                self._arrived_late(owner, par, inner)
            elif par.met():
                self._advance(owner)
            else:
                return

    def _path_to(self, resume: Resume | None) -> list[Branch]:
        """The branches from the run's down to the one paused at the resume's node and visit."""
        pending = list(self.root.pending())
        want = None if resume is None else (resume.node, resume.visit)
        if want is None or want not in pending:
            got = "nothing" if resume is None else f"{resume.node}@{resume.visit}"
            expected = " or ".join(f"{node}@{visit}" for node, visit in pending)
            raise ResumeMismatch(code="resume_mismatch", expected=expected, got=got)
        path = [self.root]
        while path[-1].at != want:
            owner = path[-1]
            pars = [owner.par, *owner.rest] if owner.par is not None else owner.rest
            path.append(next(b for par in pars for b in par.branches if want in b.pending()))
        return path

    def _arrived_late(self, owner: Branch, par: Par, inner: Branch) -> None:
        """A branch of a parallel left running has finished: its arrival is journaled and ignored, and
        once the last has, the parallel is gone from `owner`."""
        self._ignored(par, inner)
        if all(branch.finished for branch in par.branches):
            owner.rest.remove(par)
            data = {"branches": len(par.branches)}
            self.journal.append(
                JournalLine(code="parallel_rest_ended", node=par.node, visit=par.visit, data=data)
            )

    def _ignored(self, par: Par, inner: Branch) -> None:
        number = next(i for i, branch in enumerate(par.branches, 1) if branch is inner)
        data = {"parallel": par.node, "branch": number}
        self.journal.append(
            JournalLine(code="branch_arrival_ignored", node=par.node, visit=par.visit, data=data)
        )

    def run(self) -> Step:
        """Walk a new run until every branch pauses or ends, or the run ends or fails."""
        try:
            self.ledger.check()
            self._advance(self.root)
            self._spend()
        except _Ended as end:
            return self._ended(end.message)
        except WalkFailure as failure:
            return self._failed(failure)
        return self._outcome()

    def _outcome(self) -> Step:
        if self.root.finished:
            line = JournalLine(code="run_succeeded", node=None, visit=None, data={"message": ""})
            self.journal.append(line)
            return self._step("succeeded")
        continuation = freeze(self.state, self.root)
        first = self.requests[0] if self.requests else None
        return self._step("waiting", continuation, first, pending=tuple(self.root.pending()))

    def _ended(self, message: str) -> Step:
        node, visit = self.at
        # An `end` ends the run at once, as a terminate end event does: the pauses of the branches it
        # left running are cancelled, each one said (the driver closes them as `branch_cancelled`).
        self._cancel_rest(self.root)
        data = {"message": message}
        self.journal.append(JournalLine(code="run_succeeded", node=node, visit=visit, data=data))
        return self._step("succeeded")

    def _enter(self, branch: Branch) -> None:
        """Make `branch` the one the stack machine (and the loops) work on."""
        state = self.state
        state.stack, state.seen, state.loops = branch.stack, branch.seen, branch.loops
        state.arrivals = branch.arrivals

    def _advance(self, branch: Branch) -> None:
        """Walk `branch` until it pauses, ends, or waits on a parallel whose rule is not met yet.

        A parallel starts its branches one after another, in the order of the `branches` wires, each
        until it pauses or ends, and stops starting them once its rule is met.
        """
        while True:
            par = branch.par
            if par is not None:
                keep = self._keeps(par)
                for inner in par.branches:
                    met = par.met()
                    if met and not keep:
                        break
                    if not inner.ended and inner.at is None and inner.par is None:
                        self._bind(par, inner)
                        self._advance(inner)
                        self._unbind(par)
                        if met and inner.finished:
                            self._ignored(par, inner)
                if not par.met():
                    return
                self._close(branch, par)
            self._enter(branch)
            try:
                self._walk()
            except _Paused as pause:
                branch.at = (pause.request.node, pause.request.visit)
                self.requests.append(pause.request)
                return
            except _Forked as fork:
                branch.par = fork.par
                continue
            branch.ended = True
            return

    def _keeps(self, par: Par) -> bool:
        """Whether the parallel's branches still open go on walking once its rule is met."""
        return self.flow.nodes[par.node].config.get("rest") == "continue"

    def _close(self, branch: Branch, par: Par) -> None:
        """A parallel's rule is met: cancel the branches still open, or with `rest: continue` leave them
        running under `branch`, and follow `done` in `branch`."""
        ended = sum(1 for inner in par.branches if inner.finished)
        if ended < len(par.branches) and self._keeps(par):
            branch.rest.append(par)
        else:
            self._cancel(par)
        data = {"branches": len(par.branches), "ended": ended}
        self.journal.append(JournalLine(code="parallel_finished", node=par.node, visit=par.visit, data=data))
        self._unbind(par)
        branch.par = None
        branch.stack.extend(reversed(self.flow.targets(par.node, "done")))

    def _cancel(self, par: Par) -> None:
        """Journal `branch_cancelled` for each pause of the parallel's branches still open (one line at
        the parallel for a branch that holds none)."""
        for number, inner in enumerate(par.branches, 1):
            if inner.finished:
                continue
            held = list(inner.pending())
            for node, visit in held or [(par.node, par.visit)]:
                data = {"parallel": par.node, "branch": number, "paused": bool(held)}
                self.journal.append(JournalLine(code="branch_cancelled", node=node, visit=visit, data=data))

    def _cancel_rest(self, branch: Branch) -> None:
        """Cancel every parallel left running under `branch` and under the branches it waits on."""
        for par in branch.rest:
            self._cancel(par)
        branch.rest.clear()
        if branch.par is not None:
            for inner in branch.par.branches:
                self._cancel_rest(inner)

    def _parallel(self, node: Node, visit: int) -> str:
        targets = self.flow.targets(node.id, "branches")
        if "items" not in node.config:
            need = join_need(node.config.get("wait"), len(targets))
            raise _Forked(Par(node.id, visit, need, [Branch.fresh(target) for target in targets]))
        # Over items: one branch per item, each starting at the targets of the one `branches` wire.
        name = node.config.get("as")
        if not isinstance(name, str) or not name:
            raise WalkFailure(code="node_config_invalid", field="as")
        variables = self.state.variables
        items = evaluate(node.config["items"], variables, self.limit)
        if items is MISSING:
            return "done"
        if not isinstance(items, list):
            raise WalkFailure(code="parallel_items_invalid", got=kind_of(items))
        if len(items) > PASS_LIMIT:
            raise WalkFailure(code="iteration_limit_exceeded", limit=PASS_LIMIT, passes=len(items))
        if not items:
            return "done"
        branches = [Branch(stack=list(reversed(targets)), seen=[{}]) for _ in items]
        need = join_need(node.config.get("wait"), len(items))
        saved = variables.get(name, MISSING)
        raise _Forked(Par(node.id, visit, need, branches, list(items), name, saved))

    def _bind(self, par: Par, branch: Branch) -> None:
        """Give a parallel over items' variable the item of `branch`, the one about to walk."""
        if par.items is None or par.name is None:
            return
        # By identity: two branches at the same place compare equal.
        item = par.items[next(i for i, inner in enumerate(par.branches) if inner is branch)]
        self.state.variables[par.name] = item
        self.ledger.assign(par.name, item)
        self.ledger.check()

    def _unbind(self, par: Par) -> None:
        """A branch of a parallel over items stops walking, or the parallel closes: its variable gets back
        the value it had before the parallel, or disappears."""
        if par.items is None or par.name is None:
            return
        if par.saved is MISSING:
            self.state.variables.pop(par.name, None)
            self.ledger.remove(par.name)
        else:
            self.state.variables[par.name] = par.saved
            self.ledger.assign(par.name, par.saved)

    def _release(self) -> bool:
        """The innermost scope unwinds: an `all` join with arrivals is visited now; a `first` or N join
        that can no longer be met is not (`join_not_reached`). True when a join was pushed."""
        depth = len(self.state.seen) - 1
        waiting = self.state.arrivals.pop(depth, None)
        if not waiting:
            return False
        released = []
        for join, arrived in waiting.items():
            if self.flow.nodes[join].config.get("wait", "all") == "all":
                released.append(join)
            else:
                data = {"arrived": arrived, "needed": self.flow.joins[join]}
                self.journal.append(JournalLine(code="join_not_reached", node=join, visit=None, data=data))
        self.released.update(released)
        self.state.stack.extend(reversed(released))
        return bool(released)

    def _arrived(self, join: str) -> bool:
        """An arrival at a join not visited in this scope: True when it is now to be visited."""
        if join in self.released:
            self.released.discard(join)
            return True
        depth = len(self.state.seen) - 1
        waiting = self.state.arrivals.setdefault(depth, {})
        arrived = waiting.get(join, 0) + 1
        if arrived >= self.flow.joins[join]:
            waiting.pop(join, None)
            if not waiting:
                del self.state.arrivals[depth]
            return True
        waiting[join] = arrived
        return False

    def _walk(self) -> None:
        """Visit node after node until none is left to visit; a pause, a fork or an end raises out."""
        while (node_id := self._next()) is not None:
            self._visit(node_id)

    def _next(self) -> str | None:
        """The next node to visit, or None when nothing is left: a loop's pass that is over starts the next
        one, a scope that unwinds releases its joins, and a node not due now is passed by."""
        # The hot loop: names are bound to locals, and `at` is written only when something goes wrong.
        state, joins, budget = self.state, self.flow.joins, self.budget
        stack, loops = state.stack, state.loops
        while True:
            if budget is not None:
                self._spend()
            if loops and len(stack) == loops[-1].base:
                if not (joins and self._release()):
                    self._pass_over(loops[-1])
                continue
            if not stack:
                if joins and self._release():
                    continue
                return None
            node_id = stack.pop()
            if self._due(node_id):
                return node_id

    def _due(self, node_id: str) -> bool:
        """Whether a node taken from the stack is visited now: not when its scope has seen it (at a join,
        the arrival it ignores is journaled), nor at a join that more arrivals are to reach first."""
        joins = self.flow.joins
        if node_id in self.state.seen[-1]:
            if joins and node_id in joins:
                self.journal.append(JournalLine(code="join_arrival_ignored", node=node_id, visit=None))
            return False
        if joins and node_id in joins:
            return self._arrived(node_id)
        return True

    def _visit(self, node_id: str) -> None:
        """Visit a node: mark it seen in its scope, run its handler, journal the visit before the lines the
        handler wrote, and push the targets of the port it chose."""
        state, journal = self.state, self.journal
        if state.visits >= VISIT_LIMIT:
            self.at = (node_id, None)
            raise WalkFailure(code="visit_limit_exceeded", limit=VISIT_LIMIT)
        state.seen[-1][node_id] = None
        state.visits += 1
        visit = state.visits
        self.visits.append(node_id)
        node = self.flow.nodes[node_id]
        # A handler may add lines of its own; the visit's line goes before them, whatever happens.
        mark = len(journal)
        try:
            port = self.handlers.get(node.type, _unknown)(node, visit)
        except _Forked:
            journal.insert(mark, _visited(node, visit, "branches"))
            raise
        except (_Paused, _Ended, WalkFailure):
            self.at = (node_id, visit)
            journal.insert(mark, _visited(node, visit, None))
            raise
        journal.insert(mark, _visited(node, visit, port))
        if port is not None:
            state.stack.extend(reversed(self.flow.wires.get((node_id, port), ())))

    def _pass_over(self, loop: Loop) -> None:
        """A loop's pass is over: it starts the next or follows `done`; a failure names the loop."""
        try:
            self.loops.pass_over(loop)
        except WalkFailure:
            self.at = (loop.node, loop.visit)
            raise

    def _spend(self) -> None:
        """Count the lines written since the last count against the budget (none: nothing to count)."""
        if self.budget is None:
            return
        fresh, self.counted = self.journal[self.counted :], len(self.journal)
        try:
            self.budget.spend(fresh)
        except WalkFailure:
            if self.visits:  # between visits: the line of the failure names the last one
                self.at = (self.visits[-1], self.state.visits)
            raise

    def _set(self, node: Node, visit: int) -> str:
        values = node.config.get("values")
        if not isinstance(values, Mapping):
            raise WalkFailure(code="node_config_invalid", field="values")
        variables, ledger = self.state.variables, self.ledger
        # Every value reads the variables as they were before this node, whatever the order of names.
        evaluated = {name: evaluate(template, variables, self.limit) for name, template in values.items()}
        assigned = {name: value for name, value in evaluated.items() if value is not MISSING}
        for name in evaluated.keys() - assigned.keys():
            variables.pop(name, None)
            ledger.remove(name)
        variables.update(assigned)
        variables[node.id] = assigned
        # The node's output holds the same values again: its size is theirs, counted once each.
        output = 2
        for name, value in assigned.items():
            size = ledger.assign(name, value)
            if size > self.limit:
                raise too_large(self.limit, what="value", name=name)
            output += text_size(name) + 4 + size
        ledger.assign(node.id, assigned, output)
        ledger.check()
        return "out"

    def _log(self, node: Node, visit: int) -> str:
        message = render_text(node.config.get("message", ""), self.state.variables, self.limit)
        data = {"message": message, "level": node.config.get("level") or "info"}
        self.journal.append(JournalLine(code="log_written", node=node.id, visit=visit, data=data))
        return "out"

    def _end(self, node: Node, visit: int) -> None:
        status = node.config.get("status", "succeeded")
        message = render_text(node.config.get("message", ""), self.state.variables, self.limit)
        if status == "failed":
            raise WalkFailure(code="run_ended_failed", message=message)
        if status != "succeeded":
            raise WalkFailure(code="node_config_invalid", field="status")
        raise _Ended(message)

    def _approval(self, node: Node, visit: int) -> None:
        request = approval_request(node, visit, self.state.variables, self.limit)
        data = {
            "title": request.title,
            "explanation": request.explanation,
            "approvers": request.approvers,
            "deadline": request.deadline,
            "on_timeout": request.on_timeout,
        }
        self.journal.append(JournalLine(code="approval_requested", node=node.id, visit=visit, data=data))
        raise _Paused(request)

    def _delay(self, node: Node, visit: int) -> None:
        request = delay_request(node, visit, self.state.variables, self.limit)
        data = {"duration": request.duration, "until": request.until}
        self.journal.append(JournalLine(code="delay_started", node=node.id, visit=visit, data=data))
        raise _Paused(request)

    def _wait_event(self, node: Node, visit: int) -> None:
        request = event_request(node, visit, self.state.variables, self.limit)
        data = {"events": request.events, "key": request.key, "timeout": request.timeout}
        self.journal.append(JournalLine(code="event_awaited", node=node.id, visit=visit, data=data))
        raise _Paused(request)

    def _action(self, node: Node, visit: int) -> None:
        request = action_request(node, visit, self.state.variables, self.limit)
        # The journal is kept for a year and read by anyone who may read the run: no credentials in it.
        data = {"type": request.type, "config": redact_request(request.type, request.config)}
        self.journal.append(JournalLine(code="action_requested", node=node.id, visit=visit, data=data))
        raise _Paused(request)

    def _resumed(self, node: Node, visit: int, outcome: str, port: str | None) -> JournalLine:
        return JournalLine(
            code="run_resumed", node=node.id, visit=visit, data={"outcome": outcome, "port": port}
        )

    def _failed(self, failure: WalkFailure) -> Step:
        node, visit = self.at
        data = {"error": failure.code, **failure.detail}
        self.journal.append(JournalLine(code="run_failed", node=node, visit=visit, data=data))
        return self._step("failed", error=failure.code)

    def _step(
        self,
        status: Status,
        continuation: dict[str, Any] | None = None,
        request: Request | None = None,
        error: str | None = None,
        pending: tuple[tuple[str, int], ...] = (),
    ) -> Step:
        requests = tuple(self.requests) if status == "waiting" else ()
        return Step(
            status,
            continuation,
            request,
            self.journal,
            self.visits,
            error,
            self.state.visits,
            requests,
            pending,
        )


def _port_of(node: Node, outcome: str) -> str:
    """The port a paused node's outcome chooses; ResumeMismatch for an outcome the node cannot have."""
    known = ports(node) if node.type == "wait_event" else _OUTCOMES.get(node.type, frozenset())
    if outcome not in known:
        raise ResumeMismatch(
            code="resume_mismatch", expected="resume_expected_outcome", type=node.type, got=outcome
        )
    if outcome == "timeout" and node.type == "approval":
        # A timeout takes the port the flow chose for it; an approval without a rule never times out.
        rule = node.config.get("on_timeout")
        if rule not in ("approve", "reject", "skip"):
            raise ResumeMismatch(code="resume_mismatch", expected="resume_expected_timeout_rule", got=outcome)
        return str(rule)  # the configuration is untyped JSON: one of the three ports above
    return "out" if node.type == "delay" else outcome


class _Link(NamedTuple):
    """A branch on the way down to a resumed one, the parallel of it the next is a branch of, that next
    branch, and whether the parallel was left running (`rest: continue`: it closed in an earlier stretch)."""

    owner: Branch
    par: Par
    inner: Branch
    running: bool


def _links(path: list[Branch]) -> list[_Link]:
    """The links of a path from the run's branch down to a paused one, top first."""
    links = []
    for owner, inner in pairwise(path):
        par = _link(owner, inner)
        links.append(_Link(owner, par, inner, par is not owner.par))
    return links


def _link(owner: Branch, inner: Branch) -> Par:
    """The parallel of `owner` that `inner` is a branch of: the open one, or one left running."""
    pars = [owner.par, *owner.rest] if owner.par is not None else owner.rest
    return next(par for par in pars if any(branch is inner for branch in par.branches))


def _visited(node: Node, visit: int, port: str | None) -> JournalLine:
    return JournalLine(code="node_visited", node=node.id, visit=visit, data={"type": node.type, "port": port})


def _unknown(node: Node, visit: int) -> None:
    raise WalkFailure(code="node_type_unknown", type=node.type)
