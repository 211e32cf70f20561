"""What each schema keyword asks for, word for word: the phrase a `format_invalid` finding ends with."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from backend.graph.explain import Problem, describe, path_key, phrase
from backend.i18n.catalogs import message


def said_(problem: Problem) -> str:
    """A problem as the English sentence a finding cites (its full stop left to the finding)."""
    return message(problem.code, "en", **problem.fields()).rstrip(".")


@pytest.mark.parametrize(
    ("keyword", "expected", "said"),
    [
        ("type", "object", "The value must be an object"),
        (
            "type",
            ["array", "integer", "boolean"],
            "The value must be a list, a whole number, or true or false",
        ),
        ("type", ["number", "null", "thing"], "The value must be a number, null, or thing"),
        ("enum", ["eq", 1, None], 'The value must be "eq", 1, or null'),
        ("const", "flowyard.flow/1", 'The value must be "flowyard.flow/1"'),
        ("pattern", "^[a-z]+$", "The value does not have the form this setting takes"),
        ("pattern", r"\S", "The value must not be empty or only spaces"),
        ("minLength", 1, "The value must not be empty"),
        ("minItems", 1, "The value must not be empty"),
        ("minProperties", 1, "The value must not be empty"),
        ("minLength", 2, "The value must have at least 2 characters"),
        ("maxLength", 200, "The value must have at most 200 characters"),
        ("minItems", 3, "The list must have at least 3 items"),
        ("maxItems", 1000, "The list must have at most 1,000 items"),
        ("minProperties", 2, "The object must have at least 2 entries"),
        ("maxProperties", 64, "The object must have at most 64 entries"),
        ("minimum", 0, "The value must be at least 0"),
        ("maximum", 10, "The value must be at most 10"),
        ("exclusiveMinimum", 0, "The value must be more than 0"),
        ("exclusiveMaximum", 1, "The value must be less than 1"),
        (
            "oneOf",
            [{"required": ["duration"]}, {"required": ["until"]}],
            "Exactly one of Duration or Until must be given",
        ),
        (
            "oneOf",
            [{"required": ["a", "b"]}, {"required": ["c"]}],
            "The value must match exactly one of the allowed forms",
        ),
        (
            "oneOf",
            [{"required": ["a"]}, {"type": "string"}],
            "The value must match exactly one of the allowed forms",
        ),
        (
            "oneOf",
            [{"required": ["a"], "type": "object"}],
            "The value must match exactly one of the allowed forms",
        ),
        ("anyOf", [{}], "The value must match one of the allowed forms"),
        ("not", {}, "This entry is not allowed here"),
        ("not", {"type": "string"}, "The value has a form that is not allowed"),
        ("uniqueItems", True, "The value breaks a rule of the format"),
    ],
)
def test_each_keyword_has_its_phrase(keyword: str, expected: Any, said: str) -> None:
    assert said_(phrase(keyword, expected)) == said


def _described(schema: dict[str, Any], instance: Any) -> list[tuple[tuple[str | int, ...], str]]:
    errors = Draft202012Validator(schema).iter_errors(instance)
    return sorted((path, said_(problem)) for error in errors for path, problem in describe(error))


def test_missing_and_unexpected_keys_are_told_at_their_own_paths() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "object", "required": ["x", "y"], "properties": {"x": {}, "y": {}}}},
        "additionalProperties": False,
    }
    assert _described(schema, {"a": {"y": 1}, "b": 1, "c": 2}) == [
        (("a", "x"), "A value is required here"),
        (("b",), "This entry is not allowed here"),
        (("c",), "This entry is not allowed here"),
    ]


def test_a_false_subschema_and_a_bad_property_name_are_told_where_they_are() -> None:
    # jsonschema loses the key's path on a `false` subschema (our schemas write `{"not": {}}` instead).
    assert _described({"properties": {"a": False}}, {"a": 1}) == [((), "This entry is not allowed here")]
    assert _described({"properties": {"a": {"not": {}}}}, {"a": 1}) == [
        (("a",), "This entry is not allowed here")
    ]
    names = {"propertyNames": {"maxLength": 2}}
    assert _described(names, {"abc": 1, "ab": 2}) == [(("abc",), "The value must have at most 2 characters")]


def test_paths_sort_indexes_by_number_before_keys_by_text() -> None:
    paths: list[tuple[str | int, ...]] = [("b",), (10,), (2,), ("a", 1), (), ("a", 0), ("a", "z")]
    assert sorted(paths, key=path_key) == [(), (2,), (10,), ("a", 0), ("a", 1), ("a", "z"), ("b",)]
