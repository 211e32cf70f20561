"""`{{secrets.NAME}}` in an action's config: kept as written by the walk, filled in only by the sender.

The walker never sees a secret's value. An action's config is rendered with `secrets.NAME` standing for
its own placeholder text, so the request, the journal and the effects log read `{{secrets.NAME}}`; and
each config string whose template names a secret becomes a slot: where it sits in the config, and its
pieces (literal text, other placeholders already rendered, and the secrets by name). The sender opens
the secrets and joins the pieces. A slot comes from the flow document's template, never from a value:
a variable whose text reads `{{secrets.db}}` (a webhook payload, say) stays that text and opens nothing.

Examples:
    >>> config = {"headers": {"Authorization": "Bearer {{secrets.api}}"}, "body": "{{note}}"}
    >>> variables = {"note": "{{secrets.db}}"}
    >>> shown(config, variables)
    {'headers': {'Authorization': 'Bearer {{secrets.api}}'}, 'body': '{{secrets.db}}'}
    >>> secret_slots(config, variables)
    ((('headers', 'Authorization'), ('Bearer ', SecretRef(name='api'))),)
    >>> fill(shown(config, variables), secret_slots(config, variables), {"api": "k-1"})["headers"]
    {'Authorization': 'Bearer k-1'}
    >>> shown({"a": "{{secrets}}", "b": "x {{secrets}}"}, {})
    {'a': {}, 'b': 'x {}'}
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from backend.config import DEFAULT_MAX_VALUE_BYTES
from backend.walker.templates import MISSING, _parse, as_text, lookup, render

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class SecretRef:
    name: str


Piece = str | SecretRef
Slot = tuple[Path, tuple[Piece, ...]]


class _Placeholders(dict[str, str]):
    """`secrets` while an action's config renders: each name yields its own placeholder back.

    An empty dict, so that `{{secrets}}` on its own renders as `{}` (JSON, like any object) and never
    as something that cannot be stored.
    """

    def get(self, name: str, default: object = None) -> str:
        return "{{secrets." + name + "}}"


def shown(config: Any, variables: Mapping[str, Any], limit: int = DEFAULT_MAX_VALUE_BYTES) -> Any:
    """The config rendered with every `{{secrets.NAME}}` left as written; `limit` as `render`'s."""
    return render(config, {**variables, "secrets": _Placeholders()}, limit)


def secret_slots(config: Any, variables: Mapping[str, Any]) -> tuple[Slot, ...]:
    """Where the config's templates name secrets, and the pieces to join there once they are open."""
    slots: list[Slot] = []
    stack: list[tuple[Path, Any]] = [((), config)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            pieces = _pieces(value, variables)
            if pieces is not None:
                slots.append((path, pieces))
        elif isinstance(value, Mapping):
            stack.extend(((*path, str(key)), item) for key, item in value.items())
        elif isinstance(value, list | tuple):
            stack.extend(((*path, index), item) for index, item in enumerate(value))
    return tuple(sorted(slots, key=lambda slot: [str(part) for part in slot[0]]))


def _pieces(template: str, variables: Mapping[str, Any]) -> tuple[Piece, ...] | None:
    if "secrets" not in template:  # most strings: no parse at all
        return None
    parts = _parse(template)
    if not any(isinstance(part, tuple) and part[0] == "secrets" for part in parts):
        return None
    pieces: list[Piece] = []
    for part in parts:
        if isinstance(part, str):
            pieces.append(part)
        elif part[0] == "secrets":
            # `{{secrets.a.b}}` names no secret: it renders as a missing path does, as nothing.
            pieces.append(SecretRef(part[1]) if len(part) == 2 else "")
        else:
            found = lookup(part, variables)
            pieces.append("" if found is MISSING or found is None else as_text(found))
    return tuple(pieces)


def secret_names(slots: tuple[Slot, ...]) -> set[str]:
    return {piece.name for _, pieces in slots for piece in pieces if isinstance(piece, SecretRef)}


def fill(config: Any, slots: tuple[Slot, ...], values: Mapping[str, str]) -> Any:
    """A copy of the rendered config with each slot joined from its pieces and the secrets' values."""
    filled = copy.deepcopy(config)
    for path, pieces in slots:
        text = "".join(values[piece.name] if isinstance(piece, SecretRef) else piece for piece in pieces)
        target = filled
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = text
    return filled
