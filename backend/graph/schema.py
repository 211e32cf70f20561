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
from datetime import datetime
from functools import cache
from importlib.resources import files
from typing import Any
from urllib.parse import urljoin

from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from backend.graph.durations import MAX_DURATION, check_moment, parse_duration, parse_moment
from backend.graph.explain import Path, Problem, describe, path_key, problem
from backend.graph.fastcheck import Check, compile_check
from backend.graph.findings import Report, pointer
from backend.graph.model import NODE_TYPES
from backend.graph.outline import MAX_NODES, MAX_WIRES, NodeEntry, Outline
from backend.graph.secret_refs import check_secret_refs
from backend.i18n.catalogs import message

# jsonschema writes the offending value into each error's message; a value nested this deep is not handed
# to it (the repr would overflow the stack), the piece is reported as a whole instead.
MAX_EXPLAINED_DEPTH = 64
# The values a validation hands to jsonschema to be explained, in all (see `Explainer`).
MAX_EXPLAINED_VALUES = 10_000


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

    def problems(self, instance: object, at: Path, apart: tuple[str, ...]) -> list[tuple[Path, Problem]]:
        """Where and how a failing `instance` (found at `at` in the document) fails.

        `apart` names the keys whose contents are pieces of their own, and not this one's to explain.
        """
        return [
            (at + where, said)
            for error in self.validator.iter_errors(_stand_in(instance, apart))
            for where, said in describe(error)
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


def check_document(document: object, report: Report, explainer: Explainer | None = None) -> None:
    """`format_invalid` findings: the document, its nodes and its wires against `flow.schema.json`."""
    pieces = _pieces()
    problems: list[tuple[Path, Problem]] = []
    found = explainer or Explainer(report)
    if not pieces["document"].check(document):
        found.explain(pieces["document"], document, (), problems, apart=("nodes", "wires"))
    nodes = document.get("nodes") if isinstance(document, dict) else None
    wires = document.get("wires") if isinstance(document, dict) else None
    # Past their limits the nodes or wires are not looked at one by one: the limit is the finding.
    # The quick check inline: this loop runs once per node and wire on every edit.
    node_piece, wire_piece = pieces["node"], pieces["wire"]
    if isinstance(nodes, list) and len(nodes) <= MAX_NODES:
        for index, node in enumerate(nodes):
            if not node_piece.check(node):
                found.explain(node_piece, node, ("nodes", index), problems, apart=("config",))
    if isinstance(wires, list) and len(wires) <= MAX_WIRES:
        for index, wire in enumerate(wires):
            if not wire_piece.check(wire):
                found.explain(wire_piece, wire, ("wires", index), problems)
    for path, said in _in_order(problems):
        node_id, wire_index = _owner(document, path)
        where = pointer(path)
        report.add(
            code="format_invalid",
            node=node_id,
            wire=wire_index,
            detail=where,
            pointer=where,
            problem=said.code,
            **said.fields(),
        )


def check_configs(
    outline: Outline, report: Report, explainer: Explainer | None = None, now: datetime | None = None
) -> None:
    """`node_config_invalid` findings: each config of a known type against its type's schema.

    With `now`, a delay's literal `until` is also held to the longest wait from then (the graph reads no
    clock: its caller says when it is).
    """
    pieces = _pieces()
    found = explainer or Explainer(report)
    for node in outline.nodes:
        if node.type not in NODE_TYPES or not isinstance(node.config, dict):
            continue  # an unknown type or a config that is no object is a finding of its own already
        check_secret_refs(node, report)
        piece, config = pieces[node.type], _without_command_line(node, report)
        _check_undo(node, piece, found, report)
        if piece.check(config):
            _check_durations(node, report, now)
            continue
        problems: list[tuple[Path, Problem]] = []
        found.explain(piece, config, ("nodes", node.place, "config"), problems)
        _config_invalid(node, problems, report)


def _check_undo(node: NodeEntry, piece: _Piece, found: Explainer, report: Report) -> None:
    """An action's `undo` is a config of the action's own type (checked by that type's schema), and has no
    undo of its own: `undo_nested`. Its templates may read `{{result}}`, the action's output."""
    assert isinstance(node.config, dict)
    undo = node.config.get("undo")
    if not isinstance(undo, dict):
        return  # absent, or not an object: the type's schema says so
    at = ("nodes", node.place, "config", "undo")
    if "undo" in undo:
        where = pointer((*at, "undo"))
        report.add(code="undo_nested", node=node.id, detail=where, pointer=where)
        return
    if piece.check(undo):
        return
    problems: list[tuple[Path, Problem]] = []
    found.explain(piece, undo, at, problems)
    _config_invalid(node, problems, report)


def _config_invalid(node: NodeEntry, problems: list[tuple[Path, Problem]], report: Report) -> None:
    for path, said in _in_order(problems):
        where = pointer(path)
        report.add(
            code="node_config_invalid",
            node=node.id,
            detail=where,
            field=setting_of(path, said) or message("node_settings_whole", report.locale),
            problem=said.code,
            **said.fields(),
        )


def setting_of(path: Path, said: Problem) -> object:
    """The setting a config's problem is about, as its sentence names it: the key under `config` (an
    undo's own settings are the undo's, as the editor's panel shows them), else the keys the problem names
    (the delay's "duration or until"), else nothing (the config as a whole).

    Examples:
        >>> setting_of(("nodes", 2, "config", "headers", "X-Id"), problem("problem_form"))
        'headers'
        >>> setting_of(("nodes", 2, "config", "undo", "url"), problem("problem_missing"))
        'undo'
        >>> setting_of(("nodes", 2, "config"), problem("problem_exactly_one", keys=("duration", "until")))
        ('duration', 'until')
        >>> setting_of(("nodes", 2, "config"), problem("problem_too_deep", limit=64)) is None
        True
    """
    keys = [key for key in path[3:] if isinstance(key, str)]
    return keys[0] if keys else said.fields().get("keys")


def _without_command_line(node: NodeEntry, report: Report) -> dict[str, Any]:
    """A command node's free `command` line is refused by a reason code of its own, not as an unknown key:
    FLOW_FORMAT.md names the key, and its author should read why (only registered templates run)."""
    assert isinstance(node.config, dict)
    if node.type != "command" or "command" not in node.config:
        return node.config
    where = pointer(("nodes", node.place, "config", "command"))
    report.add(code="command_line_refused", node=node.id, detail=where, pointer=where)
    return {key: value for key, value in node.config.items() if key != "command"}


class Explainer:
    """Works out why pieces fail, within two budgets; a piece past them still counts.

    jsonschema costs about 20 µs for every value it enters, and it enters every value of a piece before
    it names the first fault: a config of 400,000 values took 9 s to explain. So the values handed to it
    in one validation are limited (`MAX_EXPLAINED_VALUES`, about 0.2 s), and pieces are explained only
    while the report has room. A piece past the room is counted as one finding (it has at least one),
    which is why `findings_truncated` says "at least"; a piece past the values is one finding at its root,
    saying it was not explained.
    """

    def __init__(self, report: Report) -> None:
        self.report = report
        self.values = MAX_EXPLAINED_VALUES

    def explain(
        self,
        piece: _Piece,
        instance: object,
        at: Path,
        problems: list[tuple[Path, Problem]],
        apart: tuple[str, ...] = (),
    ) -> None:
        """Add why `instance`, which failed its piece's quick check, fails, to `problems`."""
        # Places, as findings are; only those listed before this piece take its room: a place after it
        # (a document's `wires` when a node is explained) comes later in the report, so past the limit it
        # is the one counted, never this piece's first fault.
        before = path_key(at)
        room = self.report.room - len({path for path, _ in problems if path_key(path) < before})
        if room <= 0:
            self.report.count(1)
            return
        # The stand-ins are not entered (their piece's schema looks at their type and length only).
        size = _values(instance, self.values, skip=apart)
        if size > self.values:
            self.values = 0
            problems.append((at, problem("problem_not_explained")))
            return
        if _deeper_than(_stand_in(instance, apart), MAX_EXPLAINED_DEPTH):
            problems.append((at, problem("problem_too_deep", limit=MAX_EXPLAINED_DEPTH)))
            return
        self.values -= size
        # Whole, never cut: jsonschema's order is not the document's, and the first findings listed must
        # be the document's first. The values budget above bounds what this costs.
        problems += piece.problems(instance, at, apart)


# The config keys that hold an ISO 8601 duration, by node type: their length has a limit the schema's
# pattern cannot say.
_DURATIONS = {"approval": ("deadline",), "delay": ("duration",), "wait_event": ("timeout", "keep_early")}


def _check_durations(node: NodeEntry, report: Report, now: datetime | None) -> None:
    for key in _DURATIONS.get(node.type, ()):
        value = node.config.get(key) if isinstance(node.config, dict) else None
        if not isinstance(value, str):
            continue
        try:
            parse_duration(value)
        except ValueError:
            # The schema's pattern passed, so the duration is one we read: it is too long.
            too_long = problem("problem_wait_too_long", limit=MAX_DURATION.days)
            _config_invalid(node, [(("nodes", node.place, "config", key), too_long)], report)
    until = node.config.get("until") if node.type == "delay" and isinstance(node.config, dict) else None
    # A template is read at run time, where the driver holds it to the same cap (`duration_invalid`).
    if isinstance(until, str) and "{{" not in until:
        said: Problem | None = None
        try:
            moment = parse_moment(until)
        except ValueError:
            said = problem("problem_form_moment")
        else:
            try:
                if now is not None:
                    check_moment(moment, now)
            except ValueError:
                said = problem("problem_moment_too_far", limit=MAX_DURATION.days)
        if said is not None:
            _config_invalid(node, [(("nodes", node.place, "config", "until"), said)], report)


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


def _in_order(problems: list[tuple[Path, Problem]]) -> Iterator[tuple[Path, Problem]]:
    """One problem per path, in document order whatever the order of keys in the file.

    Two rules failing at one value (an empty name is both too short and blank) make one finding, which
    names the first of them by code: each finding is one whole sentence, and fixing the value it points
    at shows the other, if any remains.
    """
    by_path: dict[Path, list[Problem]] = {}
    for path, said in problems:
        by_path.setdefault(path, []).append(said)
    for path in sorted(by_path, key=path_key):
        yield path, min(by_path[path], key=lambda said: (said.code, repr(said.params)))


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


def _values(instance: object, limit: int, skip: tuple[str, ...] = ()) -> int:
    """How many values `instance` holds, itself included, counted up to one past `limit`; the values of
    its keys `skip` count one each, whatever they hold."""
    count, stack = 0, [instance]
    if skip and isinstance(instance, dict):
        count, stack = (
            1 + sum(key in instance for key in skip),
            [v for k, v in instance.items() if k not in skip],
        )
    while stack and count <= limit:
        value = stack.pop()
        count += 1
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return count


def _deeper_than(instance: object, limit: int) -> bool:
    """Whether lists and objects nest more than `limit` levels deep (iteratively: deep is the point)."""
    stack: list[tuple[object, int]] = [(instance, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth >= limit:
                return True
            children = value.values() if isinstance(value, dict) else value
            # Only containers go on the stack: a list of 100,000 stand-ins is one pass, not 100,000 frames.
            stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False
