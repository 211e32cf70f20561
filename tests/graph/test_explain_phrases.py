"""What each schema keyword asks for, word for word: the phrase a `format_invalid` finding ends with."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from backend.graph.explain import describe, path_key, phrase


@pytest.mark.parametrize(
    ("keyword", "expected", "said"),
    [
        ("type", "object", "must be an object"),
        ("type", ["array", "integer", "boolean"], "must be a list or a whole number or true or false"),
        ("type", ["number", "null", "thing"], "must be a number or null or thing"),
        ("enum", ["eq", 1, None], 'must be one of "eq", 1, null'),
        ("const", "flowyard.flow/1", 'must be "flowyard.flow/1"'),
        ("pattern", "^[a-z]+$", "must match the pattern ^[a-z]+$"),
        ("minLength", 1, "must not be empty"),
        ("minItems", 1, "must not be empty"),
        ("minProperties", 1, "must not be empty"),
        ("minLength", 2, "must have at least 2 characters"),
        ("maxLength", 200, "must have at most 200 characters"),
        ("minItems", 3, "must have at least 3 items"),
        ("maxItems", 1000, "must have at most 1000 items"),
        ("maxProperties", 64, "must have at most 64 entries"),
        ("minimum", 0, "must be at least 0"),
        ("maximum", 10, "must be at most 10"),
        ("exclusiveMinimum", 0, "must be more than 0"),
        ("exclusiveMaximum", 1, "must be less than 1"),
        (
            "oneOf",
            [{"required": ["duration"]}, {"required": ["until"]}],
            "must have exactly one of duration, until",
        ),
        (
            "oneOf",
            [{"required": ["a", "b"]}, {"required": ["c"]}],
            "must match exactly one of the allowed forms",
        ),
        ("oneOf", [{"required": ["a"]}, {"type": "string"}], "must match exactly one of the allowed forms"),
        ("oneOf", [{"required": ["a"], "type": "object"}], "must match exactly one of the allowed forms"),
        ("anyOf", [{}], "must match one of the allowed forms"),
        ("not", {}, "is not allowed here"),
        ("not", {"type": "string"}, "has a form that is not allowed"),
        ("uniqueItems", True, "does not satisfy uniqueItems"),
    ],
)
def test_each_keyword_has_its_phrase(keyword: str, expected: Any, said: str) -> None:
    assert phrase(keyword, expected) == said


def _described(schema: dict[str, Any], instance: Any) -> list[tuple[tuple[str | int, ...], str]]:
    errors = Draft202012Validator(schema).iter_errors(instance)
    return sorted(problem for error in errors for problem in describe(error))


def test_missing_and_unexpected_keys_are_told_at_their_own_paths() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "object", "required": ["x", "y"], "properties": {"x": {}, "y": {}}}},
        "additionalProperties": False,
    }
    assert _described(schema, {"a": {"y": 1}, "b": 1, "c": 2}) == [
        (("a", "x"), "is missing"),
        (("b",), "is not allowed here"),
        (("c",), "is not allowed here"),
    ]


def test_a_false_subschema_and_a_bad_property_name_are_told_where_they_are() -> None:
    # jsonschema loses the key's path on a `false` subschema (our schemas write `{"not": {}}` instead).
    assert _described({"properties": {"a": False}}, {"a": 1}) == [((), "is not allowed here")]
    assert _described({"properties": {"a": {"not": {}}}}, {"a": 1}) == [(("a",), "is not allowed here")]
    names = {"propertyNames": {"maxLength": 2}}
    assert _described(names, {"abc": 1, "ab": 2}) == [
        (("abc",), "has a name that must have at most 2 characters")
    ]


def test_paths_sort_indexes_by_number_before_keys_by_text() -> None:
    paths: list[tuple[str | int, ...]] = [("b",), (10,), (2,), ("a", 1), (), ("a", 0), ("a", "z")]
    assert sorted(paths, key=path_key) == [(), (2,), (10,), ("a", 0), ("a", 1), ("a", "z"), ("b",)]
