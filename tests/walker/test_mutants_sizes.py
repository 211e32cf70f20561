"""Survivors of `make mutation` in backend/walker/sizes.py: the ledger's running total is exact through
assignments and removals, its limit is inclusive, and `measure` counts any mapping and any key."""

from __future__ import annotations

import json
from types import MappingProxyType
from typing import Any

import pytest

from backend.walker.errors import WalkFailure
from backend.walker.sizes import Ledger, Limits, measure


def compact(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def test_the_ledger_total_is_the_size_of_the_variables_after_every_change() -> None:
    # The ledger counts a comma after every variable, the last one too: one byte more than the JSON.
    variables: dict[str, Any] = {"a": 1, "bb": "x"}
    ledger = Ledger(variables, Limits(variables_bytes=10_000))
    assert ledger.total == compact(variables) + 1 == 17
    assert ledger.sizes == {"a": 6, "bb": 9}
    assert ledger.assign("a", [1, 2]) == 5
    variables["a"] = [1, 2]
    assert ledger.total == compact(variables) + 1
    assert ledger.assign("ä", "é") == 4
    variables["ä"] = "é"
    assert ledger.total == compact(variables) + 1
    ledger.remove("bb")
    del variables["bb"]
    assert ledger.total == compact(variables) + 1
    ledger.remove("never assigned")
    assert ledger.total == compact(variables) + 1
    ledger.remove("a")
    ledger.remove("ä")
    assert (ledger.total, ledger.sizes) == (2, {})


def test_an_empty_ledger_is_the_size_of_an_empty_object() -> None:
    assert Ledger({}, Limits()).total == 2


def test_the_variables_may_fill_their_limit_exactly() -> None:
    ledger = Ledger({"a": 1}, Limits(variables_bytes=8))
    assert ledger.total == 8
    ledger.check()
    ledger.assign("a", 12)
    with pytest.raises(WalkFailure) as caught:
        ledger.check()
    assert caught.value.code == "value_too_large"
    assert caught.value.params == {"limit": 8, "what": "variables"}


def test_a_value_assigned_twice_is_counted_once() -> None:
    items = ["x" * 10] * 3
    ledger = Ledger({}, Limits())
    assert ledger.assign("i", items) == ledger.assign("i", items) == compact(items)
    assert ledger.size_of(items) == compact(items)
    assert ledger.size_of("abc") == 5
    assert ledger.total == compact({"i": items}) + 1


def test_any_mapping_is_counted_as_an_object() -> None:
    mapping = MappingProxyType({"k": "v", "n": 1})
    assert measure(mapping, 1000) == compact({"k": "v", "n": 1})
    assert measure([mapping], 1000) == compact([{"k": "v", "n": 1}])


def test_keys_that_are_not_ascii_or_not_strings_are_counted_by_their_utf8_text() -> None:
    # An object's size counts each key's quotes, colon and comma, the last comma too (1 + 4 per key).
    assert measure({"é": 1}, 1000) == 2 + 4 + 1 + 1
    assert measure({"日本": None}, 1000) == 6 + 4 + 1 + 4
    assert measure({7: "x"}, 1000) == 1 + 4 + 1 + 3
    assert measure("日本", 1000) == 8
