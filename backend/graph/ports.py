"""The out ports of a node: its type's ports, and for a `wait_event` one port per event name it waits for.

Every place that asks "which ports does this node have" asks `ports(node)`, never `PORTS[type]` alone:
a `wait_event`'s ports come from its config (`{"events": ["paid", "cancelled"]}` gives the ports `paid`,
`cancelled` and `timeout`, in that order). An event name that is not valid is still a port here (its own
finding, `event_name_invalid`, says what is wrong with it); a name given twice is one port; `timeout` is
always the last port. A node of an unknown type has no ports.

Examples:
    >>> from backend.graph.model import Node
    >>> ports(Node("ask", "approval", {}))
    ('approve', 'reject')
    >>> ports(Node("wait", "wait_event", {"events": ["paid", "cancelled", "paid"], "key": "{{trigger.id}}"}))
    ('paid', 'cancelled', 'timeout')
    >>> ports(Node("x", "no_such_type", {}))
    ()
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from backend.node_types import PORTS

EVENT_NODE = "wait_event"
TIMEOUT_PORT = "timeout"


class HasPorts(Protocol):
    """Anything with a node's type and config: the walker's `Node`, the validator's `NodeEntry`."""

    @property
    def type(self) -> str: ...

    @property
    def config(self) -> object: ...


def ports(node: HasPorts) -> tuple[str, ...]:
    """The out ports of `node`, in the order the editor draws them."""
    static = PORTS.get(node.type, ())
    if node.type != EVENT_NODE:
        return static
    return (*event_names(node.config), *static)


def event_names(config: object) -> tuple[str, ...]:
    """The event names a wait_event's config lists, in order, each once; `timeout` is never one of them.

    Examples:
        >>> event_names({"events": ["a", 3, "timeout", "b", "a"]}), event_names(None)
        (('a', 'b'), ())
    """
    events = config.get("events") if isinstance(config, Mapping) else None
    if not isinstance(events, list):
        return ()
    names = dict.fromkeys(name for name in events if isinstance(name, str) and name != TIMEOUT_PORT)
    return tuple(names)
