"""Every keyword the compiled check knows, exactly at its boundary, against small schemas of its own.

The real schemas are compiled once per process and cached; these compile afresh, so each keyword's
reading is pinned down here and not only through whichever flow happens to reach it.
"""

from __future__ import annotations

from typing import Any

import pytest

from backend.graph.fastcheck import compile_check

DEFS: dict[str, Any] = {"#/$defs/name": {"type": "string", "maxLength": 3}}


def _check(schema: object) -> Any:
    return compile_check(schema, DEFS.__getitem__)


def _answers(schema: object, values: list[Any]) -> list[bool]:
    check = _check(schema)
    return [check(value) for value in values]


def test_true_and_false_are_schemas() -> None:
    assert _answers(True, [None, 1, {}]) == [True, True, True]
    assert _answers(False, [None, 1, {}]) == [False, False, False]


def test_a_schema_that_is_no_object_or_has_an_unknown_keyword_is_refused() -> None:
    with pytest.raises(ValueError, match=r"not a schema: \[\]"):
        _check([])
    with pytest.raises(ValueError, match=r"keywords not compiled: \['uniqueItems'\]"):
        _check({"uniqueItems": True})
    with pytest.raises(ValueError, match="keywords not compiled"):
        _check({"patternProperties": {}})
    with pytest.raises(ValueError, match="keywords not compiled"):
        _check({"prefixItems": []})
    with pytest.raises(ValueError, match="only strings are compiled in enum and const"):
        _check({"enum": [1]})


def test_types() -> None:
    values: list[object] = [None, True, 0, 1.0, 1.5, "s", [], {}]
    assert _answers({"type": "integer"}, values) == [False, False, True, True, False, False, False, False]
    assert _answers({"type": "number"}, values) == [False, False, True, True, True, False, False, False]
    assert _answers({"type": "boolean"}, values) == [False, True, False, False, False, False, False, False]
    assert _answers({"type": "null"}, values) == [True, False, False, False, False, False, False, False]
    assert _answers({"type": ["string", "null"]}, values) == [
        True,
        False,
        False,
        False,
        False,
        True,
        False,
        False,
    ]
    assert _answers({"type": ["array", "integer"]}, values) == [
        False, False, True, True, False, False, True, False,
    ]  # fmt: skip


def test_string_lengths_and_pattern() -> None:
    schema = {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^a"}
    assert _answers(schema, ["a", "ab", "abc", "abcd", "bb", 5]) == [False, True, True, False, False, False]
    assert _answers({"maxLength": 2}, ["ab", "abc", 123456]) == [True, False, True]
    assert _answers({"minLength": 1}, ["", "a"]) == [False, True]
    assert _answers({"pattern": "b"}, ["abc", "ac"]) == [True, False]


def test_array_items_and_counts() -> None:
    schema = {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2}
    assert _answers(schema, [[], [1], [1, 2], [1, 2, 3], ["x"], "x"]) == [
        False,
        True,
        True,
        False,
        False,
        False,
    ]
    assert _answers({"maxItems": 1}, [[], [1], [1, 2]]) == [True, True, False]
    assert _answers({"items": {"$ref": "#/$defs/name"}}, [["abc"], ["abcd"], []]) == [True, False, True]


def test_numbers_inclusive_and_exclusive() -> None:
    assert _answers({"minimum": 1, "maximum": 3}, [0, 1, 3, 4, "x"]) == [False, True, True, False, True]
    assert _answers({"exclusiveMinimum": 1, "exclusiveMaximum": 3}, [1, 1.5, 2.9, 3]) == [
        False,
        True,
        True,
        False,
    ]
    assert _answers({"exclusiveMaximum": 3}, [2, 3, 4]) == [True, False, False]
    assert _answers({"type": "number", "maximum": 3}, [3, 3.5, True]) == [True, False, False]
    assert _answers({"minimum": 1}, [True, 0.5]) == [True, False]  # a boolean is no number: not held to it


def test_objects() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "required": ["a"],
        "additionalProperties": False,
    }
    objects = [{"a": "x"}, {"a": "x", "b": 1}, {"a": "x", "b": "y"}, {"a": "x", "c": 1}, {}]
    assert _answers(schema, objects) == [True, True, False, False, False]
    extra = {"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}}
    assert _answers(extra, [{"a": "x", "n": 1}, {"a": "x", "n": "y"}, {"a": 1}]) == [True, False, False]
    assert _answers({"additionalProperties": {"$ref": "#/$defs/name"}}, [{"k": "abc"}, {"k": "abcd"}]) == [
        True,
        False,
    ]
    names = {"propertyNames": {"$ref": "#/$defs/name"}}
    assert _answers(names, [{"abc": 1}, {"abcd": 1}, {}]) == [True, False, True]
    counts = {"minProperties": 1, "maxProperties": 2}
    assert _answers(counts, [{}, {"a": 1}, {"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3}]) == [
        False,
        True,
        True,
        False,
    ]
    assert _answers({"maxProperties": 1}, [{"a": 1}, {"a": 1, "b": 2}]) == [True, False]
    assert _answers({"minProperties": 1}, [{}, {"a": 1}]) == [False, True]


def test_enum_const_and_combinators() -> None:
    assert _answers({"enum": ["a", "b"]}, ["a", "c", 1]) == [True, False, False]
    assert _answers({"const": "a"}, ["a", "b"]) == [True, False]
    assert _answers({"allOf": [{"type": "string"}, {"maxLength": 1}]}, ["a", "ab", 1]) == [True, False, False]
    assert _answers({"anyOf": [{"type": "string"}, {"type": "integer"}]}, ["a", 1, None]) == [
        True,
        True,
        False,
    ]
    one_of = {"oneOf": [{"type": "integer"}, {"type": "number"}]}
    assert _answers(one_of, [1, 1.5, "x"]) == [False, True, False]
    assert _answers({"not": {"type": "string"}}, ["a", 1]) == [False, True]
    branch = {"if": {"type": "string"}, "then": {"maxLength": 1}, "else": {"type": "integer"}}
    assert _answers(branch, ["a", "ab", 1, None]) == [True, False, True, False]
    assert _answers({"if": {"type": "string"}}, ["ab", None]) == [True, True]
    assert _answers({"$ref": "#/$defs/name"}, ["abc", "abcd"]) == [True, False]


def test_type_and_keywords_of_another_kind_together() -> None:
    schema = {"type": ["string", "object"], "maxLength": 1, "required": ["a"], "enum": ["x", "yy"]}
    assert _answers(schema, ["x", "yy", {"a": 1}, 1]) == [True, False, False, False]
    mixed = {"type": ["string", "array"], "maxLength": 1, "maxItems": 1}
    assert _answers(mixed, ["a", "ab", [1], [1, 2], 3]) == [True, False, True, False, False]
    numeric = {"type": ["number", "object"], "maximum": 2, "required": ["a"]}
    assert _answers(numeric, [2, 3, {"a": 1}, {}]) == [True, False, True, False]


def test_the_shortcuts_for_common_shapes_keep_every_keyword() -> None:
    assert _answers({"type": "string", "enum": ["x"]}, ["x", "y", 1]) == [True, False, False]
    assert _answers({"type": ["string", "null"], "maxLength": 2}, ["ab", "abc", None, 1]) == [
        True,
        False,
        True,
        False,
    ]
    assert _answers({"type": "integer", "enum": ["a"]}, ["a", 1]) == [False, False]
    assert _answers({"maxLength": 2, "enum": ["abc", "a"]}, ["abc", "a", "b"]) == [False, True, False]
    assert _answers({"maximum": 3, "not": {"type": "string"}}, [2, 5, "s"]) == [True, False, False]
    assert _answers({"enum": ["a", "b"], "not": {"const": "a"}}, ["a", "b", "c"]) == [False, True, False]
    assert _answers({"title": "anything"}, [None, "x", [1]]) == [True, True, True]
    assert _answers({"maxLength": 2}, ["", 5]) == [True, True]


def test_references_are_resolved_inside_every_combinator() -> None:
    ref = {"$ref": "#/$defs/name"}
    assert _answers({"allOf": [ref]}, ["abc", "abcd"]) == [True, False]
    assert _answers({"anyOf": [ref, {"type": "integer"}]}, ["abcd", 1]) == [False, True]
    assert _answers({"oneOf": [ref, {"type": "integer"}]}, ["abc", "abcd"]) == [True, False]
    assert _answers({"not": ref}, ["abc", "abcd"]) == [False, True]
    assert _answers({"if": ref, "then": {"minLength": 3}}, ["ab", "abc", "abcd"]) == [False, True, True]
    assert _answers({"if": {"type": "string"}, "then": ref}, ["abc", "abcd", 1]) == [True, False, True]
    assert _answers({"if": {"type": "integer"}, "else": ref}, [1, "abc", "abcd"]) == [True, True, False]
    nested = compile_check({"$ref": "#/outer"}, {"#/outer": ref, **DEFS}.__getitem__)
    assert (nested("abc"), nested("abcd")) == (True, False)
