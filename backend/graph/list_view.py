"""The editor's list view: every node in a stable topological order, with its loop depth.

Ties are broken by document order, so the view only moves when the graph does. A loop node sits at the
depth of the scope it is in (it follows `done` there), its body one level deeper. The view is defined for
any document with an outline, valid or not: the members of a cycle come together, in document order, and a
node whose id is taken by an earlier node is left out (it has its own finding).

Examples:
    >>> doc = {"nodes": [{"id": "t", "type": "trigger"}, {"id": "bye", "type": "log"},
    ...                  {"id": "each", "type": "foreach"}, {"id": "say", "type": "log"}],
    ...        "wires": [{"from": "t", "to": "each"}, {"from": "each", "port": "body", "to": "say"},
    ...                  {"from": "each", "port": "done", "to": "bye"}]}
    >>> [(entry.id, entry.depth) for entry in list_view(doc)]
    [('t', 0), ('each', 0), ('bye', 0), ('say', 1)]
"""

from __future__ import annotations

from dataclasses import dataclass

from backend.graph.outline import read_outline
from backend.graph.topology import analyse


@dataclass(frozen=True, slots=True)
class ListEntry:
    """One row of the list view."""

    id: str
    type: str
    depth: int

    def to_json(self) -> dict[str, str | int]:
        """The row as the API writes it."""
        return {"id": self.id, "type": self.type, "depth": self.depth}


def list_view(document: object) -> list[ListEntry]:
    """The nodes of a flow document in list order; ValueError when it has no readable nodes and wires.

    Examples:
        >>> list_view({"nodes": [{"id": "b", "type": "log"}, {"id": "t", "type": "trigger"}],
        ...            "wires": [{"from": "t", "to": "b"}]})
        [ListEntry(id='t', type='trigger', depth=0), ListEntry(id='b', type='log', depth=0)]
    """
    outline = read_outline(document)
    if outline is None:
        raise ValueError("the document has no readable list of nodes and wires: validate it for details")
    topology = analyse(outline)
    return [
        ListEntry(topology.vertices[v].id, topology.vertices[v].type, topology.depth(v))
        for component in topology.components
        for v in component
    ]
