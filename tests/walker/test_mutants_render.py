"""Survivors of `make mutation` in backend/walker/templates.py: a rendered value of exactly the limit's
size is kept, one byte more fails the run with `value_too_large`, its limit and `what: value`."""

from __future__ import annotations

from typing import Any

import pytest

from backend.walker.errors import WalkFailure
from backend.walker.templates import render

ITEM = {"s": "x" * 90}  # {"s":"x…x"}: 98 bytes of JSON


@pytest.mark.parametrize(
    ("template", "variables"), [("{{v}}", {"v": ITEM}), ({"s": "{{t}}"}, {"t": "x" * 90})]
)
def test_a_value_of_exactly_the_limit_renders_and_one_byte_more_fails(
    template: Any, variables: dict[str, Any]
) -> None:
    assert render(template, variables, limit=98) == ITEM
    with pytest.raises(WalkFailure) as raised:
        render(template, variables, limit=97)
    assert (raised.value.code, raised.value.params) == ("value_too_large", {"limit": 97, "what": "value"})
