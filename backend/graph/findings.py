"""Findings: what the validator says about a flow, one reason code each, in the reader's language.

A finding names the node (`node`, its id) or the wire (`wire`, its index in `wires`) it is about, or both
when a wire is the cause of a node's problem. `detail` is for machines: the JSON pointer of the offending
value for schema findings, the loop for loop findings, the path of a cycle.

Every reason code is written as a string literal passed as `code=` to `Report.add`, so that the catalog
guard test can collect them from the source.

Examples:
    >>> report = Report("en")
    >>> report.add(code="node_unreachable", node="orphan")
    >>> finding = report.findings[0]
    >>> finding.code, finding.node, finding.wire
    ('node_unreachable', 'orphan', None)
    >>> sorted(finding.to_json())
    ['code', 'detail', 'message', 'node', 'wire']
    >>> pointer(("nodes", 3, "config", "a/b"))
    '/nodes/3/config/a~1b'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from backend.i18n.catalogs import message


@dataclass(frozen=True, slots=True)
class Finding:
    """One fault in a flow document, tied to the node or wire it is about."""

    code: str
    node: str | None
    wire: int | None
    message: str
    detail: str | None = None

    def to_json(self) -> dict[str, str | int | None]:
        """The finding as the API and `flowyard check --json` write it."""
        return {
            "code": self.code,
            "node": self.node,
            "wire": self.wire,
            "message": self.message,
            "detail": self.detail,
        }


class Report:
    """Findings in the order they are added; the validator adds them rule by rule, in document order."""

    def __init__(self, locale: str) -> None:
        self.locale = locale
        self.findings: list[Finding] = []

    def add(
        self,
        *,
        code: str,
        node: str | None = None,
        wire: int | None = None,
        detail: str | None = None,
        **params: object,
    ) -> None:
        """Add a finding; `params` fill the sentence's placeholders, and `node` is one of them."""
        if node is not None:
            params.setdefault("node", node)
        text = message(code, self.locale, **params)
        # Positional on purpose: the catalog guard reads `code=` keywords, and this one is a variable.
        self.findings.append(Finding(code, node, wire, text, detail))


def pointer(path: Iterable[str | int]) -> str:
    """The JSON pointer (RFC 6901) of a path of keys and indexes; the root is the empty string."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)
