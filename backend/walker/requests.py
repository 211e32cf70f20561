"""What a paused walk asks its driver to do: create an approval, wake it later, or send an action.

The walker never performs a side effect. A pausing node becomes one of these requests, with every template
rendered, and the walk waits until the driver resumes it with the outcome. `(run id, visit)` is the side
effect's idempotency key: `visit` is the run's visit counter at the node's visit, unique within a run and
the same on every retry of the walk that reached it.

Examples:
    >>> from backend.graph.model import Node
    >>> node = Node("ask", "approval", {"title": "Pay {{invoice.id}}?", "approvers": ["group:finance"]})
    >>> approval_request(node, 4, {"invoice": {"id": "A-7"}})
    ApprovalRequest(node='ask', visit=4, title='Pay A-7?', explanation='', approvers=['group:finance'], \
deadline=None, on_timeout=None, quorum=1, reject='any', allow_self_approval=False, remind_after=(), \
escalate_after=None, escalate_to=(), shown=({'label': None, 'path': 'trigger', 'value': None},))
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from backend.config import DEFAULT_MAX_VALUE_BYTES
from backend.graph.durations import parse_duration
from backend.graph.model import Node
from backend.walker.errors import WalkFailure
from backend.walker.secret_refs import Slot, secret_slots, shown
from backend.walker.shown import shown_items
from backend.walker.templates import MISSING, as_text, evaluate, render_text


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """Create an approval; resume with "approve", "reject" or "timeout" once decided or past `deadline`."""

    node: str
    visit: int
    title: str
    explanation: str
    approvers: list[str]
    deadline: str | None
    on_timeout: str | None
    # The rules of issue 21, copied onto the approval row as asked (docs/approvals.md).
    quorum: int = 1
    reject: str = "any"
    allow_self_approval: bool = False
    remind_after: tuple[str, ...] = ()
    escalate_after: str | None = None
    escalate_to: tuple[str, ...] = ()
    # What the approvers see (backend/walker/shown.py), read now and kept with the approval.
    shown: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True, slots=True)
class DelayRequest:
    """Wake the run after `duration` (ISO 8601, as written) or at `until` (a timestamp's text).

    Resume with "passed".
    """

    node: str
    visit: int
    duration: str | None
    until: str | None


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """Send an http, notify or command action with this rendered config; resume "out" or "error"."""

    node: str
    visit: int
    type: str
    config: dict[str, Any]
    # Where the config names secrets, for the sender to fill in (backend/walker/secret_refs.py).
    secrets: tuple[Slot, ...] = ()


@dataclass(frozen=True, slots=True)
class EventRequest:
    """Wait for one of `events` sent with `key` (backend/events); resume with the event's name and its
    payload as the output, or "timeout" once `timeout` (ISO 8601, as written) has passed."""

    node: str
    visit: int
    events: list[str]
    key: str
    timeout: str | None
    keep_early: str | None


Request = ApprovalRequest | DelayRequest | ActionRequest | EventRequest

# A correlation key longer than this fails the run (`event_key_too_long`): it is matched, not stored as data.
MAX_EVENT_KEY = 200


def approval_request(
    node: Node, visit: int, variables: Mapping[str, Any], limit: int = DEFAULT_MAX_VALUE_BYTES
) -> ApprovalRequest:
    """The approval a visit of `node` asks for; `deadline` and `on_timeout` stay as written."""
    config = node.config
    return ApprovalRequest(
        node=node.id,
        visit=visit,
        title=render_text(config.get("title", ""), variables, limit),
        explanation=render_text(config.get("explanation", ""), variables, limit),
        approvers=[render_text(principal, variables, limit) for principal in config.get("approvers") or ()],
        deadline=config.get("deadline"),
        on_timeout=config.get("on_timeout"),
        quorum=int(config.get("quorum", 1)),
        reject=str(config.get("reject", "any")),
        allow_self_approval=bool(config.get("allow_self_approval", False)),
        remind_after=tuple(config.get("remind_after") or ()),
        escalate_after=config.get("escalate_after"),
        escalate_to=tuple(render_text(p, variables, limit) for p in config.get("escalate_to") or ()),
        shown=shown_items(config, variables, limit),
    )


def delay_request(
    node: Node, visit: int, variables: Mapping[str, Any], limit: int = DEFAULT_MAX_VALUE_BYTES
) -> DelayRequest:
    """The wake-up a visit of `node` asks for: a duration as written, or the rendered `until` text.

    The walker has no clock, so it checks only that there is something to wait for; the driver turns it
    into a time. A duration that is not one we accept, or neither field, is `node_config_invalid`; an
    `until` whose path is missing (or is not text) is `delay_until_invalid`.
    """
    duration = node.config.get("duration")
    if duration is not None:
        try:
            parse_duration(duration)
        except (TypeError, ValueError):
            raise WalkFailure(code="node_config_invalid", field="duration") from None
        return DelayRequest(node=node.id, visit=visit, duration=duration, until=None)
    if "until" not in node.config:
        raise WalkFailure(code="node_config_invalid", field="until")
    until = evaluate(node.config["until"], variables, limit)
    if until is MISSING or not isinstance(until, str) or not until:
        shown = "missing" if until is MISSING else as_text(until)
        raise WalkFailure(code="delay_until_invalid", until=shown)
    return DelayRequest(node=node.id, visit=visit, duration=None, until=until)


def action_request(
    node: Node, visit: int, variables: Mapping[str, Any], limit: int = DEFAULT_MAX_VALUE_BYTES
) -> ActionRequest:
    """The action a visit of `node` asks the driver to send: its config with every template rendered.

    A whole-path template (`"body": "{{trigger.order}}"`) yields the variable's own object; the copy
    through JSON keeps a driver that adds a header or a key from changing the run's variables.
    `{{secrets.NAME}}` stays as written, with a slot the sender fills in when it sends.
    """
    own = node.config
    if "undo" in own:
        # The undo is rendered only if it runs, on a cancel, with this action's output (queue/undo.py).
        own = {key: value for key, value in own.items() if key != "undo"}
    config = json.loads(json.dumps(shown(own, variables, limit)))
    slots = secret_slots(own, variables)
    return ActionRequest(node=node.id, visit=visit, type=node.type, config=config, secrets=slots)


def event_request(
    node: Node, visit: int, variables: Mapping[str, Any], limit: int = DEFAULT_MAX_VALUE_BYTES
) -> EventRequest:
    """The event a visit of a `wait_event` node waits for, its `key` rendered from the variables.

    A key that renders empty (or names a missing path) is `event_key_missing`: a run waiting under an empty
    key would take any event sent without one. Longer than MAX_EVENT_KEY is `event_key_too_long`.
    """
    config = node.config
    events = config.get("events")
    if not isinstance(events, list) or not events or not all(isinstance(name, str) for name in events):
        raise WalkFailure(code="node_config_invalid", field="events")
    for field in ("timeout", "keep_early"):
        if config.get(field) is not None:
            try:
                parse_duration(config[field])
            except (TypeError, ValueError):
                raise WalkFailure(code="node_config_invalid", field=field) from None
    key = evaluate(config.get("key", ""), variables, limit)
    text = "" if key is MISSING or key is None else as_text(key)
    if not text:
        raise WalkFailure(code="event_key_missing")
    if len(text) > MAX_EVENT_KEY:
        raise WalkFailure(code="event_key_too_long", limit=MAX_EVENT_KEY)
    return EventRequest(
        node=node.id,
        visit=visit,
        events=list(events),
        key=text,
        timeout=config.get("timeout"),
        keep_early=config.get("keep_early"),
    )
