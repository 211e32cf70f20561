"""What an approval shows its approvers: the values its node's `show` names, read when the approval is
requested and kept with it, so the decision is made on (and the audit reads) exactly those values.

`show` is a list of `{"label": <text, may be a template>, "value": <a path, as between {{ }}>}`; without
it the approval shows the trigger's input. A path that does not resolve shows as null (the run goes on:
an approver sees that it is missing). A value under a key named like a credential (redact.py's notion)
is replaced by MASK and its item is marked `masked`; the list as a whole is held to the value-size
limit (`value_too_large`, never cut).

Examples:
    >>> variables = {"trigger": {"id": "A-7"}, "invoice": {"amount": 1200, "api": {"token": "t"}}}
    >>> shown_items({}, variables)
    ({'label': None, 'path': 'trigger', 'value': {'id': 'A-7'}},)
    >>> show = [{"label": "Amount of {{trigger.id}}", "value": "invoice.amount"}, {"value": "invoice.api"}]
    >>> shown_items({"show": show}, variables)[0]
    {'label': 'Amount of A-7', 'path': 'invoice.amount', 'value': 1200}
    >>> shown_items({"show": show}, variables)[1]
    {'label': None, 'path': 'invoice.api', 'value': {'token': '••••'}, 'masked': True}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from backend.config import DEFAULT_MAX_VALUE_BYTES
from backend.walker.errors import WalkFailure
from backend.walker.redact import MASK, is_credential_name, mask_credentials
from backend.walker.sizes import measure, too_large
from backend.walker.templates import MISSING, lookup, render_text

# What an approval shows when its node names nothing: the run's input, as the trigger gave it.
DEFAULT_SHOW = ({"value": "trigger"},)


def shown_items(
    config: Mapping[str, Any], variables: Mapping[str, Any], limit: int = DEFAULT_MAX_VALUE_BYTES
) -> tuple[dict[str, Any], ...]:
    """The `show` items of an approval node's config, each with its label rendered and its value read.

    A `show` that is not a list of objects with a `value` text is `node_config_invalid` (the graph's
    schema refuses it first; a flow saved before is refused here, never guessed at).

    Examples:
        >>> shown_items({"show": [{"value": "gone.away"}]}, {})
        ({'label': None, 'path': 'gone.away', 'value': None},)
        >>> shown_items({"show": "trigger"}, {})
        Traceback (most recent call last):
        ...
        backend.walker.errors.WalkFailure: node_config_invalid: field=show
    """
    show = config.get("show", DEFAULT_SHOW)
    if not isinstance(show, list | tuple):
        raise WalkFailure(code="node_config_invalid", field="show")
    items: list[dict[str, Any]] = []
    for entry in show:
        if not isinstance(entry, Mapping) or not isinstance(entry.get("value"), str):
            raise WalkFailure(code="node_config_invalid", field="show")
        path = entry["value"]
        label = entry.get("label")
        keys = tuple(path.split("."))
        found = lookup(keys, variables)
        # A value under a key named like a credential is masked whole; inside one, each field named so.
        if any(is_credential_name(key, field=True) for key in keys):
            value, masked = MASK, True
        else:
            value, masked = mask_credentials(None if found is MISSING else found)
        item = {
            "label": None if label is None else render_text(label, variables, limit),
            "path": path,
            "value": value,
        }
        if masked:
            item["masked"] = True
        items.append(item)
    if measure(items, limit) > limit:
        raise too_large(limit, what="value")
    return tuple(items)
