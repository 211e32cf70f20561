"""What the graph tests share besides the one flow builder (`tests.support.flow`)."""

from __future__ import annotations

from backend.graph import Finding


def found(findings: list[Finding], code: str | None = None) -> list[tuple[str, str | None, int | None]]:
    """(code, node, wire) of each finding, or of those with one code."""
    return [(f.code, f.node, f.wire) for f in findings if code is None or f.code == code]
