"""The API's answers declare their closed sets (a status, an outcome, a kind, a vote) value by value: the
editor's types are generated from this document (frontend/src/api/schema.d.ts), so a page that tests for a
value the API never sends fails `tsc`, and no page needs types of its own written by hand (a status
declared as any string once made the editor keep runs/types.ts)."""

from __future__ import annotations

import re
from typing import Any

import backend.api.app  # noqa: F401 - importing the app declares every endpoint
from backend.api.openapi import document

CLOSED = re.compile(r"(status|outcome|kind|vote)$")


def loose(schema: Any, where: str) -> list[str]:
    """Where in `schema` a property named as a closed set is any text (no enum, no const).

    Examples:
        >>> loose({"properties": {"status": {"type": "string"}}}, "answer")
        ['answer.status']
        >>> loose({"properties": {"last_run_status": {"type": ["string", "null"]}}}, "a")
        ['a.last_run_status']
        >>> loose({"properties": {"status": {"enum": ["running", None]}, "kind": {"const": "x"}}}, "a")
        []
        >>> loose({"items": {"properties": {"vote": {"type": "string"}}}}, "a")
        ['a[].vote']
        >>> loose({"properties": {"status": {"type": "integer"}}}, "an HTTP status")
        []
    """
    if not isinstance(schema, dict):
        return []
    found = []
    for name, declared in (schema.get("properties") or {}).items():
        types = declared.get("type", []) if isinstance(declared, dict) else []
        text = "string" in (types if isinstance(types, list) else [types])
        if CLOSED.search(name) and text and "enum" not in declared and "const" not in declared:
            found.append(f"{where}.{name}")
        found += loose(declared, f"{where}.{name}")
    found += loose(schema.get("items"), f"{where}[]")
    for key in ("oneOf", "anyOf", "allOf"):
        for i, part in enumerate(schema.get(key) or []):
            found += loose(part, f"{where}|{i}")
    return found


def test_every_closed_set_an_answer_holds_is_declared_value_by_value() -> None:
    found = [
        spot
        for path, operations in document()["paths"].items()
        for method, operation in operations.items()
        for status, answer in operation.get("responses", {}).items()
        for media in (answer.get("content") or {}).values()
        for spot in loose(media.get("schema"), f"{method.upper()} {path} {status}")
    ]
    assert found == [], "declare these as an enum (or a const): " + ", ".join(found)
