"""Which answers a walk in memory may give a pause, for `flowyard walk --answer` and the editor's walk.

A walk answers two kinds of pause the way a person or a sender would: an `approval` takes `approve`,
`reject` or `timeout` (only with an `on_timeout` rule), a `wait_event` takes the name of one of the events
it lists, or `timeout` (only with a `timeout`: without one it waits for ever). Delays and actions are
never answered: they pass at once. `refusal` says why an answer cannot be taken, as a word that each
caller turns into its own reason code (the command line's sentences name `--answer`, the API's do not).

Examples:
    >>> from backend.graph.model import Flow
    >>> flow = Flow.load({"name": "f", "nodes": [
    ...     {"id": "t", "type": "trigger", "config": {"kind": "manual"}},
    ...     {"id": "ask", "type": "approval", "config": {"title": "Pay?"}},
    ...     {"id": "paid", "type": "wait_event", "config": {"events": ["payment"], "key": "k"}}],
    ...     "wires": []})
    >>> [refusal(flow, node, outcome) for node, outcome in
    ...     [("ask", "approve"), ("paid", "payment"), ("t", "approve"), ("ask", "payment")]]
    [None, None, 'not_answerable', 'outcome_unknown']
    >>> refusal(flow, "ask", "timeout"), refusal(flow, "paid", "timeout"), refusal(flow, "paid", "refund")
    ('cannot_time_out', 'event_cannot_time_out', 'event_unknown')
"""

from __future__ import annotations

from typing import Literal

from backend.graph.model import Flow
from backend.graph.ports import EVENT_NODE, TIMEOUT_PORT, event_names

APPROVAL_OUTCOMES = ("approve", "reject", "timeout")
TIMEOUT_RULES = ("approve", "reject", "skip")

Refusal = Literal[
    "not_answerable", "outcome_unknown", "cannot_time_out", "event_unknown", "event_cannot_time_out"
]


def refusal(flow: Flow, node_id: str, outcome: str) -> Refusal | None:
    """Why `outcome` cannot answer a pause at `node_id` of `flow`; None when it can."""
    node = flow.nodes.get(node_id)
    if node is None or node.type not in ("approval", EVENT_NODE):
        return "not_answerable"
    if node.type == "approval":
        if outcome not in APPROVAL_OUTCOMES:
            return "outcome_unknown"
        if outcome == "timeout" and node.config.get("on_timeout") not in TIMEOUT_RULES:
            return "cannot_time_out"
        return None
    if outcome == TIMEOUT_PORT:
        # A wait without a timeout waits for ever: the runtime never answers it with `timeout`.
        return None if node.config.get("timeout") else "event_cannot_time_out"
    return None if outcome in event_names(node.config) else "event_unknown"
