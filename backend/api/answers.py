"""The declarations of answers: an object whose fields the backend always writes, each required unless
named optional, so that the OpenAPI document (and the editor's types generated from it) says exactly
what a page reads."""

from __future__ import annotations

from typing import Any


def exact(
    properties: dict[str, Any], optional: tuple[str, ...] = (), nullable: bool = False, **more: Any
) -> dict[str, Any]:
    """An object schema with these properties, each required but the optional ones.

    Examples:
        >>> exact({"id": {"type": "integer"}, "note": {"type": "string"}}, optional=("note",))["required"]
        ['id']
        >>> exact({"id": {"type": "integer"}}, nullable=True)["type"]
        ['object', 'null']
    """
    required = [name for name in properties if name not in optional]
    kind: str | list[str] = ["object", "null"] if nullable else "object"
    return {"type": kind, **more, "required": required, "properties": properties}


def picked(schema: dict[str, Any], names: tuple[str, ...]) -> dict[str, Any]:
    """An exact object of some of another exact object's properties (a part of what it answers).

    Examples:
        >>> whole = exact({"id": {"type": "integer"}, "title": {"type": "string"}})
        >>> picked(whole, ("id",))["properties"]
        {'id': {'type': 'integer'}}
    """
    return exact({name: schema["properties"][name] for name in names})
