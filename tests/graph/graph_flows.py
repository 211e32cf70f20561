"""Flow documents for the graph tests, written the way one draws them.

`flow("t:trigger a:log", "t>a")` is a valid document: nodes are `id:type` with a valid config for the
type, wires are `from>to` (no port key: the default `out`) or `from.port>to`, in document order.
"""

from __future__ import annotations

import copy
from typing import Any

from backend.graph import Finding

CONFIGS: dict[str, dict[str, Any]] = {
    "trigger": {"kind": "manual"},
    "set": {"values": {"total": "{{trigger.amount}}"}},
    "condition": {"left": "{{trigger.amount}}", "op": "gt", "right": 1000},
    "foreach": {"items": "{{trigger.items}}", "as": "item"},
    "repeat": {"while": {"left": "{{count}}", "op": "lt", "right": 3}},
    "break": {},
    "approval": {"title": "Pay?", "deadline": "P2D", "on_timeout": "skip", "approvers": ["group:finance"]},
    "delay": {"duration": "PT30M"},
    "http": {"method": "POST", "url": "https://example.test/pay", "timeout_s": 10},
    "notify": {"channel": "email", "to": "finance@example.test", "message": "paid"},
    "command": {"server": "web-1", "template": "uptime"},
    "log": {"message": "hello {{trigger.who}}"},
    "end": {"status": "succeeded"},
}


def flow(nodes: str, wires: str = "") -> dict[str, Any]:
    """A flow document from `id:type` nodes and `from>to` / `from.port>to` wires."""
    node_list = []
    for text in nodes.split():
        node_id, node_type = text.split(":")
        config = copy.deepcopy(CONFIGS.get(node_type, {}))
        node_list.append({"id": node_id, "type": node_type, "config": config})
    wire_list: list[dict[str, str]] = []
    for text in wires.split():
        source, target = text.split(">")
        start, _, port = source.partition(".")
        wire_list.append(
            {"from": start, "port": port, "to": target} if port else {"from": start, "to": target}
        )
    return {"format": "flowyard.flow/1", "name": "test", "nodes": node_list, "wires": wire_list}


def found(findings: list[Finding], code: str | None = None) -> list[tuple[str, str | None, int | None]]:
    """(code, node, wire) of each finding, or of those with one code."""
    return [(f.code, f.node, f.wire) for f in findings if code is None or f.code == code]
