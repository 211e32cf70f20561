"""The JSON Schemas of the flow document and of each node type's config, and the findings they give.

The schemas are files in `schemas/` (draft 2020-12), the API serves them as they are. The document is
checked in pieces, each against its part of `flow.schema.json`: the document's own keys, each node, each
wire; then each node's config against `nodes/<type>.schema.json`. A piece is first checked by the compiled
check (fast, yes or no); only a piece that fails is handed to jsonschema, whose errors become findings with
the JSON pointer of the offending value: a missing key points where it belongs, an unexpected key at itself.

Examples:
    >>> report = Report("en")
    >>> check_document({"format": "flowyard.flow/1", "name": "n", "nodes": [], "wires": []}, report)
    >>> [(f.code, f.detail) for f in report.findings]
    [('format_invalid', '/nodes')]
    >>> sorted(load_schema("delay")["properties"])
    ['duration', 'until']
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any
from urllib.parse import urljoin

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from backend.graph.durations import parse_duration
from backend.graph.explain import Path, describe, path_key
from backend.graph.fastcheck import Check, compile_check
from backend.graph.findings import Report, pointer
from backend.graph.model import NODE_TYPES
from backend.graph.outline import MAX_NODES, NodeEntry, Outline
from backend.graph.secret_refs import check_secret_refs

# jsonschema writes the offending value into each error's message; a value nested this deep is not handed
# to it (the repr would overflow the stack), the piece is reported as a whole instead.
MAX_EXPLAINED_DEPTH = 64


def load_schema(name: str) -> dict[str, Any]:
    """A fresh copy of a schema: `"flow"` for the document, a node type's name for its config.

    Examples:
        >>> load_schema("end")["properties"]["status"]
        {'enum': ['succeeded', 'failed']}
    """
    return copy.deepcopy(_schemas()[name])


@cache
def _schemas() -> dict[str, dict[str, Any]]:
    root = files("backend.graph").joinpath("schemas")
    schemas = {"flow": json.loads(root.joinpath("flow.schema.json").read_text(encoding="utf-8"))}
    for node_type in NODE_TYPES:
        text = root.joinpath("nodes", f"{node_type}.schema.json").read_text(encoding="utf-8")
        schemas[node_type] = json.loads(text)
    return schemas


@dataclass(frozen=True, slots=True)
class _Piece:
    """One part of a schema: a quick yes or no, and jsonschema to say why not."""

    check: Check
    validator: Draft202012Validator

    def problems(self, instance: object, at: Path, apart: tuple[str, ...] = ()) -> list[tuple[Path, str]]:
        """Where and how `instance` (found at `at` in the document) fails; empty when it matches.

        `apart` names the keys whose contents are pieces of their own, and not this one's to explain.
        """
        if self.check(instance):
            return []
        instance = _stand_in(instance, apart)
        if _deeper_than(instance, MAX_EXPLAINED_DEPTH):
            return [(at, f"does not match, and nests values more than {MAX_EXPLAINED_DEPTH} levels deep")]
        return [
            (at + where, problem)
            for error in self.validator.iter_errors(instance)
            for where, problem in describe(error)
        ]


@cache
def _pieces() -> dict[str, _Piece]:
    schemas = _schemas()
    by_id = {schema["$id"]: schema for schema in schemas.values()}
    registry: Registry[Any] = Registry().with_resources(
        (uri, Resource.from_contents(schema)) for uri, schema in by_id.items()
    )

    def piece(schema: dict[str, Any]) -> _Piece:
        base = schema.get("$id", "")
        check = compile_check(schema, lambda ref: by_id[urljoin(base, ref)])
        return _Piece(check, Draft202012Validator(schema, registry=registry))

    document = copy.deepcopy(schemas["flow"])
    # Nodes and wires are their own pieces, so that the document's piece stops at their lists.
    node = document["properties"]["nodes"].pop("items")
    wire = document["properties"]["wires"].pop("items")
    pieces = {"document": piece(document), "node": piece(node), "wire": piece(wire)}
    pieces.update((node_type, piece(schemas[node_type])) for node_type in NODE_TYPES)
    return pieces


def check_document(document: object, report: Report) -> None:
    """`format_invalid` findings: the document, its nodes and its wires against `flow.schema.json`."""
    pieces = _pieces()
    problems = pieces["document"].problems(document, (), apart=("nodes", "wires"))
    nodes = document.get("nodes") if isinstance(document, dict) else None
    wires = document.get("wires") if isinstance(document, dict) else None
    # Past the limit the nodes are not looked at one by one: the limit is the finding.
    # The quick check inline: this loop runs once per node and wire on every edit.
    node_piece, wire_piece = pieces["node"], pieces["wire"]
    if isinstance(nodes, list) and len(nodes) <= MAX_NODES:
        for index, node in enumerate(nodes):
            if not node_piece.check(node):
                problems += node_piece.problems(node, ("nodes", index), apart=("config",))
    if isinstance(wires, list):
        for index, wire in enumerate(wires):
            if not wire_piece.check(wire):
                problems += wire_piece.problems(wire, ("wires", index))
    for path, problem in _in_order(problems):
        node_id, wire_index = _owner(document, path)
        where = pointer(path)
        report.add(
            code="format_invalid", node=node_id, wire=wire_index, detail=where, pointer=where, problem=problem
        )


def check_configs(outline: Outline, report: Report) -> None:
    """`node_config_invalid` findings: each config of a known type against its type's schema."""
    pieces = _pieces()
    for node in outline.nodes:
        if node.type not in NODE_TYPES or not isinstance(node.config, dict):
            continue  # an unknown type or a config that is no object is a finding of its own already
        check_secret_refs(node, report)
        piece, config = pieces[node.type], _without_command_line(node, report)
        if piece.check(config):
            _check_durations(node, report)
            continue
        for path, problem in _in_order(piece.problems(config, ("nodes", node.place, "config"))):
            where = pointer(path)
            report.add(code="node_config_invalid", node=node.id, detail=where, pointer=where, problem=problem)


def _without_command_line(node: NodeEntry, report: Report) -> dict[str, Any]:
    """A command node's free `command` line is refused by a reason code of its own, not as an unknown key:
    FLOW_FORMAT.md names the key, and its author should read why (only registered templates run)."""
    assert isinstance(node.config, dict)
    if node.type != "command" or "command" not in node.config:
        return node.config
    where = pointer(("nodes", node.place, "config", "command"))
    report.add(code="command_line_refused", node=node.id, detail=where, pointer=where)
    return {key: value for key, value in node.config.items() if key != "command"}


# The config keys that hold an ISO 8601 duration, by node type: their length has a limit the schema's
# pattern cannot say.
_DURATIONS = {"approval": ("deadline",), "delay": ("duration",)}


def _check_durations(node: NodeEntry, report: Report) -> None:
    for key in _DURATIONS.get(node.type, ()):
        value = node.config.get(key) if isinstance(node.config, dict) else None
        if not isinstance(value, str):
            continue
        try:
            parse_duration(value)
        except ValueError as too_long:
            where = pointer(("nodes", node.place, "config", key))
            report.add(
                code="node_config_invalid", node=node.id, detail=where, pointer=where, problem=str(too_long)
            )


def _stand_in(instance: object, keys: tuple[str, ...]) -> object:
    """`instance` with the contents of `keys` (checked as pieces of their own) replaced by empty stand-ins.

    The stand-ins keep each value's type and a list's length, which is all the enclosing piece's schema
    looks at, so the answer is the same; jsonschema just never renders a thousand nodes into a message.
    """
    if not isinstance(instance, dict) or not any(key in instance for key in keys):
        return instance
    replaced = dict(instance)
    for key in keys:
        value = instance.get(key)
        if isinstance(value, list):
            replaced[key] = [None] * len(value)
        elif isinstance(value, dict):
            replaced[key] = {}
    return replaced


def _in_order(problems: list[tuple[Path, str]]) -> Iterator[tuple[Path, str]]:
    """One problem per path, in document order whatever the order of keys in the file.

    Two rules failing at one value (an empty name is both too short and blank) make one finding.
    """
    by_path: dict[Path, set[str]] = {}
    for path, problem in problems:
        by_path.setdefault(path, set()).add(problem)
    for path in sorted(by_path, key=path_key):
        yield path, "; ".join(sorted(by_path[path]))


def _owner(document: object, path: Path) -> tuple[str | None, int | None]:
    """The node id or wire index a path into the document falls in, when it falls in one."""
    if len(path) < 2 or not isinstance(document, dict) or not isinstance(path[1], int):
        return None, None
    if path[0] == "wires":
        return None, path[1]
    nodes = document.get("nodes")
    if path[0] == "nodes" and isinstance(nodes, list) and path[1] < len(nodes):
        node = nodes[path[1]]
        if isinstance(node, dict) and isinstance(node.get("id"), str):
            return node["id"], None
    return None, None


def _deeper_than(instance: object, limit: int) -> bool:
    """Whether lists and objects nest more than `limit` levels deep (iteratively: deep is the point)."""
    stack: list[tuple[object, int]] = [(instance, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= limit:
                return True
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return False
