"""A branch's failed action, kept to be sent again: the pause of kind `retry` (docs/runs.md).

An action that fails with no `error` port in a walk with a parallel open does not fail the claim: its
branch waits for a retry after the queue's backoff while the other branches go on. The request to send
again is the one the walker rendered at the visit, kept in the wait's pause as JSON: rendering it again
later could read variables another branch has changed since, and the effects log would refuse a request
that differs under the same key. What it keeps holds no secret's value: a `{{secrets.NAME}}` stays as
written and its slot names the secret, opened by the sender at each try (backend/walker/secret_refs.py);
the rest is the flow's text and the run's variables, which the continuation beside it keeps already.

Examples:
    >>> from backend.walker.secret_refs import SecretRef
    >>> slot = (("headers", "Authorization"), ("Bearer ", SecretRef("api")))
    >>> request = ActionRequest("pay", 4, "http", {"url": "https://a.example", "list": [1]}, (slot,))
    >>> kept = request_to_json(request)
    >>> kept["secrets"]
    [[['headers', 'Authorization'], ['Bearer ', {'secret': 'api'}]]]
    >>> import json
    >>> request_from_json(json.loads(json.dumps(kept)), "pay", 4) == request
    True
    >>> failure_detail({"code": "http_status_error", "status": 500, "body": "...", "visit": 4, "h": {}})
    ('http_status_error', {'status': 500})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backend.walker import ActionRequest
from backend.walker.secret_refs import Piece, SecretRef, Slot

# What the journal keeps of a failed action's output: why it failed, never what came back (a response body
# can be large and can hold anything), nor what the line says on its own (node, visit).
_LEFT_OUT = frozenset({"code", "node", "visit", "body", "headers"})


def failure_detail(output: Mapping[str, Any] | None) -> tuple[str, dict[str, Any]]:
    """A failed action's reason code and the plain values that say more about it, for its journal line."""
    output = dict(output or {})
    why = {
        key: value
        for key, value in output.items()
        if key not in _LEFT_OUT and (isinstance(value, str | int | float | bool) or value is None)
    }
    return str(output.get("code", "action_failed")), why


def request_to_json(request: ActionRequest) -> dict[str, Any]:
    """The request as a retry pause keeps it: its type, rendered config and secret slots."""
    slots = [[list(path), [_piece_to_json(piece) for piece in pieces]] for path, pieces in request.secrets]
    return {"type": request.type, "config": request.config, "secrets": slots}


def request_from_json(kept: dict[str, Any], node: str, visit: int) -> ActionRequest:
    """The request a retry pause kept, to send again at `node`'s `visit` (its effect key)."""
    slots: list[Slot] = []
    for path, pieces in kept.get("secrets") or ():
        slots.append((tuple(path), tuple(_piece_from_json(piece) for piece in pieces)))
    return ActionRequest(node, visit, str(kept["type"]), dict(kept["config"]), tuple(slots))


def _piece_to_json(piece: Piece) -> str | dict[str, str]:
    return {"secret": piece.name} if isinstance(piece, SecretRef) else piece


def _piece_from_json(piece: Any) -> Piece:
    return SecretRef(str(piece["secret"])) if isinstance(piece, dict) else str(piece)
