"""The node types of the flow format and the out ports of each: the vocabulary that the graph checks, the
walker follows and the catalogs translate (`node_type_*`, `port_*`). It imports nothing, so the catalogs'
guard (backend/i18n/gaps.py) reads it without importing the graph, which speaks through the catalogs.
"""

from __future__ import annotations

from collections.abc import Mapping

# The out ports of each node type, in the order the editor draws them (FLOW_FORMAT.md).
PORTS: Mapping[str, tuple[str, ...]] = {
    "trigger": ("out",),
    "set": ("out",),
    "condition": ("true", "false"),
    "foreach": ("body", "done"),
    "repeat": ("body", "done"),
    "break": (),
    "approval": ("approve", "reject"),
    "delay": ("out",),
    "http": ("out", "error"),
    "notify": ("out", "error"),
    "command": ("out", "error"),
    "log": ("out",),
    "end": (),
    # Issue 24. A wait_event's ports are these plus one per event name in its config: read a node's ports
    # through backend.graph.ports.ports(node), never from this table alone.
    "parallel": ("branches", "done"),
    "join": ("out",),
    "wait_event": ("timeout",),
}
