"""Survivors of `make mutation` in backend/walker/templates.py's `_text` and sizes.py's `measure`.

A placeholder inside text whose object or list value is past the limit fails with `value_too_large`, that
limit and `what: text`, judged by its measured size before its JSON text is made (_text_35, 39 to 45);
text that is not ASCII counts its UTF-8 bytes (_text_51, 52). `measure` counts a str subclass as the
JSON string it is (measure_65 to 69), and a count that reaches the limit exactly part way through a value
goes on, so the value is seen past the limit (measure_72).
"""

from __future__ import annotations

import json
from datetime import date
from enum import StrEnum
from typing import Any

import pytest

from backend.walker.errors import WalkFailure
from backend.walker.sizes import measure
from backend.walker.templates import render, render_text

TEN = ["x" * 10] * 10  # 131 bytes of JSON
DAY = [date(2026, 12, 1)]  # measured as its repr, 28 bytes; its JSON text, ["2026-12-01"], is 14


class Tone(StrEnum):
    LOUD = "loud"


def failure(raised: pytest.ExceptionInfo[WalkFailure]) -> tuple[str, dict[str, Any]]:
    return raised.value.code, raised.value.params


def test_a_list_inside_text_past_the_limit_fails_as_text_with_that_limit() -> None:
    with pytest.raises(WalkFailure) as raised:
        render_text("Items: {{v}}", {"v": TEN}, limit=100)
    assert failure(raised) == ("value_too_large", {"limit": 100, "what": "text"})


def test_a_list_inside_text_is_judged_by_its_measured_size_before_its_text_is_made() -> None:
    assert render_text("{{v}}.", {"v": DAY}, limit=28) == '["2026-12-01"].'
    with pytest.raises(WalkFailure) as raised:
        render_text("{{v}}.", {"v": DAY}, limit=27)
    assert failure(raised) == ("value_too_large", {"limit": 27, "what": "text"})


def test_text_that_is_not_ascii_counts_its_utf8_bytes_against_the_limit() -> None:
    assert render_text("{{a}}é", {"a": "x"}, limit=5) == "xé"  # its quotes, x, and é's two bytes
    with pytest.raises(WalkFailure) as raised:
        render_text("{{a}}é", {"a": "x"}, limit=4)
    assert failure(raised) == ("value_too_large", {"limit": 4, "what": "text"})


def test_a_str_subclass_is_measured_as_the_json_string_it_is() -> None:
    value = [Tone.LOUD, "ab"]
    assert measure(value, 100) == len(json.dumps(value, separators=(",", ":"))) == 13
    assert measure(Tone.LOUD, 100) == 6


def test_a_count_that_reaches_the_limit_part_way_still_sees_the_value_past_it() -> None:
    assert measure(["ab", "cd"], 3) == 7  # the list's brackets and comma are 3; "cd" takes it past
    with pytest.raises(WalkFailure) as raised:
        render("{{v}}", {"v": ["ab", "cd"]}, limit=3)
    assert failure(raised) == ("value_too_large", {"limit": 3, "what": "value"})
    assert render("{{v}}", {"v": ["ab", "cd"]}, limit=11) == ["ab", "cd"]
