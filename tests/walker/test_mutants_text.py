"""Survivors of `make mutation` in backend/walker/templates.py's as_text, evaluate and render_text.

as_text keeps non-ASCII text as it is and writes a value JSON does not know by its str (as_text_7, 9, 11,
12). evaluate holds an object or list template to the limit it is given (evaluate_13). render_text renders
a string template by `_text` and anything else by `render`, with the variables and the limit it is given
(render_text_2, 3, 14, 17, 18); a whole-placeholder object or list of exactly the limit's size is text,
one byte more fails with `value_too_large`, that limit and `what: text` (render_text_20, 24 to 30).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from backend.walker.errors import WalkFailure
from backend.walker.templates import as_text, evaluate, render_text

ITEM = {"s": "x" * 90}  # {"s":"x…x"}: 98 bytes of JSON


def failure(raised: pytest.ExceptionInfo[WalkFailure]) -> tuple[str, dict[str, Any]]:
    return raised.value.code, raised.value.params


def test_as_text_keeps_text_that_is_not_ascii_as_written() -> None:
    assert as_text({"name": "Zoë", "city": "東京"}) == '{"name":"Zoë","city":"東京"}'
    assert as_text(["ß"]) == '["ß"]'


def test_as_text_writes_a_value_json_does_not_know_as_its_text() -> None:
    assert as_text(Decimal("1.50")) == '"1.50"'
    assert as_text({"due": date(2026, 12, 1)}) == '{"due":"2026-12-01"}'


def test_render_text_writes_a_value_json_does_not_know_as_its_text() -> None:
    assert render_text("{{due}}", {"due": date(2026, 12, 1)}) == '"2026-12-01"'


def test_evaluate_holds_an_object_template_to_the_limit_it_is_given() -> None:
    assert evaluate({"s": "{{t}}"}, {"t": "x" * 90}, limit=98) == ITEM
    with pytest.raises(WalkFailure) as raised:
        evaluate({"s": "{{t}}"}, {"t": "x" * 90}, limit=97)
    assert failure(raised) == ("value_too_large", {"limit": 97, "what": "value"})


def test_render_text_of_a_value_that_is_no_string_is_its_text() -> None:
    assert render_text(5, {}) == "5"
    assert render_text(None, {}) == ""
    assert render_text(True, {}) == "true"


def test_render_text_of_an_object_template_reads_the_variables() -> None:
    assert render_text({"a": "{{x}}", "b": ["{{y.0}}"]}, {"x": 1, "y": ["é"]}) == '{"a":1,"b":["é"]}'


def test_render_text_of_an_object_template_past_the_limit_fails_as_a_value() -> None:
    assert render_text({"s": "x" * 90}, {}, limit=98) == '{"s":"' + "x" * 90 + '"}'
    with pytest.raises(WalkFailure) as raised:
        render_text({"s": "x" * 90}, {}, limit=97)
    assert failure(raised) == ("value_too_large", {"limit": 97, "what": "value"})


def test_a_whole_placeholder_object_of_exactly_the_limit_is_text_and_one_byte_more_fails() -> None:
    assert render_text("{{v}}", {"v": ITEM}, limit=98) == '{"s":"' + "x" * 90 + '"}'
    with pytest.raises(WalkFailure) as raised:
        render_text("{{v}}", {"v": ITEM}, limit=97)
    assert failure(raised) == ("value_too_large", {"limit": 97, "what": "text"})


def test_a_whole_placeholder_list_past_the_limit_fails_as_text() -> None:
    with pytest.raises(WalkFailure) as raised:
        render_text("{{v}}", {"v": ["x" * 10] * 10}, limit=50)
    assert failure(raised) == ("value_too_large", {"limit": 50, "what": "text"})
