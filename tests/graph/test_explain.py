"""jsonschema errors told as a path and a phrase: missing keys where they belong, extra keys at themselves."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from backend.graph.explain import describe, path_key, phrase


def explained(schema: dict[str, Any], instance: object) -> list[tuple[tuple[str | int, ...], str]]:
    errors = Draft202012Validator(schema).iter_errors(instance)
    return sorted({problem for error in errors for problem in describe(error)})


def test_each_missing_key_is_reported_where_it_belongs() -> None:
    schema = {"type": "object", "required": ["a", "b", "c"]}
    assert explained(schema, {"b": 1}) == [(("a",), "is missing"), (("c",), "is missing")]


def test_each_unexpected_key_is_reported_at_itself() -> None:
    schema = {"type": "object", "additionalProperties": False, "properties": {"a": {}}}
    assert explained(schema, {"a": 1, "x": 2, "y/z": 3}) == [
        (("x",), "is not allowed here"),
        (("y/z",), "is not allowed here"),
    ]


def test_a_key_that_may_not_be_there_is_reported_at_itself() -> None:
    schema = {"type": "object", "properties": {"cron": {"not": {}}}}
    assert explained(schema, {"cron": "* * * * *"}) == [(("cron",), "is not allowed here")]


def test_a_bad_key_name_is_reported_at_the_key() -> None:
    schema = {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}
    assert explained(schema, {"ok": 1, "Not ok": 2}) == [
        (("Not ok",), "has a name that must match the pattern ^[a-z]+$")
    ]


def test_nested_values_are_reported_at_their_full_path() -> None:
    schema = {"type": "object", "properties": {"xs": {"type": "array", "items": {"type": "string"}}}}
    assert explained(schema, {"xs": ["a", 2, "c", None]}) == [
        (("xs", 1), "must be a string"),
        (("xs", 3), "must be a string"),
    ]


@pytest.mark.parametrize(
    ("keyword", "expected", "words"),
    [
        ("type", "object", "must be an object"),
        ("type", ["string", "null"], "must be a string or null"),
        ("enum", ["a", "b"], 'must be one of "a", "b"'),
        ("const", "flowyard.flow/1", 'must be "flowyard.flow/1"'),
        ("minLength", 1, "must not be empty"),
        ("maxLength", 200, "must have at most 200 characters"),
        ("minItems", 2, "must have at least 2 items"),
        ("maxItems", 1000, "must have at most 1000 items"),
        ("minProperties", 1, "must not be empty"),
        ("minimum", 0, "must be at least 0"),
        ("exclusiveMinimum", 0, "must be more than 0"),
        ("maximum", 300, "must be at most 300"),
        ("exclusiveMaximum", 1, "must be less than 1"),
        ("oneOf", [{"required": ["a"]}, {"required": ["b"]}], "must have exactly one of a, b"),
        ("oneOf", [{"type": "string"}, {"type": "number"}], "must match exactly one of the allowed forms"),
        ("anyOf", [{"type": "string"}], "must match one of the allowed forms"),
        ("not", {}, "is not allowed here"),
        ("not", {"const": "x"}, "has a form that is not allowed"),
        ("uniqueItems", True, "does not satisfy uniqueItems"),
    ],
)
def test_each_keyword_has_a_short_phrase(keyword: str, expected: object, words: str) -> None:
    assert phrase(keyword, expected) == words


def test_the_phrase_never_quotes_the_offending_value() -> None:
    huge = "x" * 100_000
    [(path, words)] = explained({"type": "object", "properties": {"a": {"type": "integer"}}}, {"a": huge})
    assert path == ("a",) and len(words) < 100


def test_paths_sort_by_document_position() -> None:
    paths = [("wires", 0), ("nodes", 10, "id"), ("nodes", 2), (), ("nodes", 2, "config", "a")]
    assert sorted(paths, key=path_key) == [
        (),
        ("nodes", 2),
        ("nodes", 2, "config", "a"),
        ("nodes", 10, "id"),
        ("wires", 0),
    ]
