"""Findings: what the validator says about a flow, one reason code each, in the reader's language.

A finding names the node (`node`, its id) or the wire (`wire`, its index in `wires`) it is about, or both
when a wire is the cause of a node's problem. `detail` is for machines: the JSON pointer of the offending
value for schema findings, the loop for loop findings, the path of a cycle.

Every reason code is written as a string literal passed as `code=` to `Report.add`, so that the catalog
guard test can collect them from the source.

A report lists at most `limit` findings. Past it, findings are only counted (no sentence is built), and
`close` adds one `findings_truncated` saying how many more there are: a document with a million faults
costs what its first two hundred cost, plus a count.

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
    >>> report = Report("en", limit=1)
    >>> for name in ("a", "b", "c"):
    ...     report.add(code="node_unreachable", node=name)
    >>> [(f.code, f.node, f.detail) for f in report.close()]
    [('node_unreachable', 'a', None), ('findings_truncated', None, '2')]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from backend.config import DEFAULT_MAX_FINDINGS
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

    def __init__(self, locale: str, limit: int = DEFAULT_MAX_FINDINGS) -> None:
        self.locale = locale
        self.limit = limit
        self.findings: list[Finding] = []
        self.untold = 0  # findings past the limit: counted, never built
        # Warnings: worth a look, but they leave the flow valid (at most `limit` of them, the rest dropped).
        self.warnings: list[Finding] = []

    @property
    def room(self) -> int:
        """How many more findings will be listed; past that they are counted only."""
        return max(0, self.limit - len(self.findings))

    def count(self, findings: int) -> None:
        """Count findings that exist but were not worked out, because the report is full already."""
        self.untold += findings

    def close(self) -> list[Finding]:
        """The findings, and a last `findings_truncated` with the count of the others when there are any."""
        if self.untold:
            count = self.untold
            self.untold = 0
            text = message("findings_truncated", self.locale, count=count, limit=self.limit)
            return [*self.findings, Finding("findings_truncated", None, None, text, str(count))]
        return self.findings

    def add(
        self,
        *,
        code: str,
        node: str | None = None,
        wire: int | None = None,
        detail: str | None = None,
        at: tuple[str | int, ...] | None = None,
        **params: object,
    ) -> None:
        """Add a finding; `params` fill the sentence's placeholders, and `node` is one of them.

        `at`, a path into the document, becomes `detail` as a JSON pointer, built only for a finding that
        is listed: past the limit, a finding costs a count.
        """
        if len(self.findings) >= self.limit:
            self.untold += 1
            return
        if at is not None:
            detail = pointer(at)
        if node is not None:
            params.setdefault("node", node)
            node = cut(node)
        text = message(code, self.locale, **{key: shown(value) for key, value in params.items()})
        # Positional on purpose: the catalog guard reads `code=` keywords, and this one is a variable.
        self.findings.append(Finding(code, node, wire, text, detail))

    def warn(self, *, code: str, node: str | None = None, wire: int | None = None, **params: object) -> None:
        """Add a warning: a finding's shape, in `warnings`, that does not make the flow invalid."""
        if len(self.warnings) >= self.limit:
            return
        if node is not None:
            params.setdefault("node", node)
            node = cut(node)
        text = message(code, self.locale, **{key: shown(value) for key, value in params.items()})
        self.warnings.append(Finding(code, node, wire, text, None))


# How much of a text from the document a finding repeats. An id is at most 64 characters; a longer one is
# a finding of its own, and repeating a 1 MB id in each of 200 findings (in `node` and in the sentence)
# turned a 2 MB document into a 400 MB answer. `detail` is kept whole: it names one place, once.
SHOWN = 100


def shown(value: object) -> object:
    """A text of the document as findings show it: whole up to SHOWN characters, else cut with an ellipsis.

    Examples:
        >>> shown("a" * 101)[-3:], len(shown("a" * 101)), shown("ok"), shown(3)
        ('aa…', 101, 'ok', 3)
    """
    return cut(value) if isinstance(value, str) else value


def cut(text: str) -> str:
    return text if len(text) <= SHOWN else text[:SHOWN] + "…"


def pointer(path: Iterable[str | int]) -> str:
    """The JSON pointer (RFC 6901) of a path of keys and indexes; the root is the empty string."""
    return "".join("/" + str(part).replace("~", "~0").replace("/", "~1") for part in path)
