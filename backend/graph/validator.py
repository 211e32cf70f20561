"""`validate`: every finding about a flow document, in one fixed order.

The order is that of FLOW_FORMAT.md's table of reason codes, and inside a rule that of the document
(schema findings by JSON pointer, the others by node, then wire, position). A document whose nodes and
wires cannot be told apart gets its `format_invalid` findings only: the graph rules need that much.

Examples:
    >>> doc = {"format": "flowyard.flow/1", "name": "Hello",
    ...        "nodes": [{"id": "start", "type": "trigger", "config": {"kind": "manual"}},
    ...                  {"id": "hi", "type": "log", "config": {"message": "hi {{trigger.who}}"}}],
    ...        "wires": [{"from": "start", "to": "hi"}]}
    >>> validate(doc)
    []
    >>> doc["wires"].append({"from": "hi", "to": "start"})
    >>> [(f.code, f.node, f.wire) for f in validate(doc)]
    [('trigger_has_inputs', None, 1), ('cycle', 'start', 1)]
    >>> [f.code for f in validate("not a flow")]
    ['format_invalid']
"""

from __future__ import annotations

from datetime import datetime

from backend.config import DEFAULT_MAX_FINDINGS
from backend.graph.approval_rules import check_approvals
from backend.graph.findings import Finding, Report
from backend.graph.loops import check_loops
from backend.graph.outline import read_outline
from backend.graph.parallels import check_parallels
from backend.graph.rules import check_cycles, check_nodes, check_reachability, check_triggers, check_wires
from backend.graph.schema import Explainer, check_configs, check_document
from backend.graph.topology import analyse


def validate(
    document: object,
    locale: str = "en",
    *,
    limit: int = DEFAULT_MAX_FINDINGS,
    now: datetime | None = None,
    warnings: list[Finding] | None = None,
) -> list[Finding]:
    """Every finding about `document` (any JSON value), with messages in `locale`; empty when valid.

    Never raises on a JSON value: whatever it is, what is wrong with it is a finding. At most `limit`
    findings are listed; a last `findings_truncated` then says how many more there are (at least).
    `now`, when given, is the moment a delay's literal `until` may be at most 3,660 days after.

    Examples:
        >>> [(f.code, f.detail) for f in validate({"format": "flowyard.flow/1", "name": "n",
        ...                                         "nodes": [{"id": "t", "type": "trigger", "config": {}}],
        ...                                         "wires": []})]
        [('node_config_invalid', '/nodes/0/config/kind')]
    """
    findings, found = check_flow(document, locale, limit=limit, now=now)
    if warnings is not None:
        warnings.extend(found)  # the warnings, for a caller that asks for them (`check_flow` too)
    return findings


def check_flow(
    document: object, locale: str = "en", *, limit: int = DEFAULT_MAX_FINDINGS, now: datetime | None = None
) -> tuple[list[Finding], list[Finding]]:
    """`validate`'s findings, and the warnings: worth a look, but the flow is valid with them.

    Examples:
        >>> doc = {"format": "flowyard.flow/1", "name": "n", "nodes": [
        ...     {"id": "t", "type": "trigger", "config": {"kind": "manual"}},
        ...     {"id": "a", "type": "log", "config": {"message": "a"}},
        ...     {"id": "b", "type": "log", "config": {"message": "b"}},
        ...     {"id": "z", "type": "log", "config": {"message": "z"}}],
        ...     "wires": [{"from": "t", "to": "a"}, {"from": "t", "to": "b"}, {"from": "a", "to": "z"},
        ...               {"from": "b", "to": "z"}]}
        >>> findings, warnings = check_flow(doc)
        >>> findings, [(w.code, w.node) for w in warnings]
        ([], [('branches_meet_without_join', 'z')])
    """
    report = Report(locale, limit)
    explainer = Explainer(report)
    check_document(document, report, explainer)
    outline = read_outline(document)
    if outline is None:
        return report.close(), report.warnings
    check_nodes(outline, report)
    check_configs(outline, report, explainer, now)
    topology = analyse(outline)
    check_wires(outline, topology, report)
    check_triggers(topology, report)
    check_cycles(topology, report)
    check_reachability(topology, report)
    check_loops(topology, report)
    check_parallels(outline, topology, report)
    check_approvals(outline, report)
    return report.close(), report.warnings
