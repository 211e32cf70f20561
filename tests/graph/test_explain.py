"""jsonschema errors told as a path and a phrase: missing keys where they belong, extra keys at themselves."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from backend.graph.explain import Problem, describe, path_key, phrase
from backend.i18n.catalogs import message


def said(problem: Problem) -> str:
    """A problem as the English sentence a finding cites (its full stop left to the finding)."""
    return message(problem.code, "en", **problem.fields()).rstrip(".")


def explained(schema: dict[str, Any], instance: object) -> list[tuple[tuple[str | int, ...], str]]:
    errors = Draft202012Validator(schema).iter_errors(instance)
    return sorted({(path, said(problem)) for error in errors for path, problem in describe(error)})


def test_each_missing_key_is_reported_where_it_belongs() -> None:
    schema = {"type": "object", "required": ["a", "b", "c"]}
    assert explained(schema, {"b": 1}) == [
        (("a",), "A value is required here"),
        (("c",), "A value is required here"),
    ]


def test_each_unexpected_key_is_reported_at_itself() -> None:
    schema = {"type": "object", "additionalProperties": False, "properties": {"a": {}}}
    assert explained(schema, {"a": 1, "x": 2, "y/z": 3}) == [
        (("x",), "This entry is not allowed here"),
        (("y/z",), "This entry is not allowed here"),
    ]


def test_a_key_that_may_not_be_there_is_reported_at_itself() -> None:
    schema = {"type": "object", "properties": {"cron": {"not": {}}}}
    assert explained(schema, {"cron": "* * * * *"}) == [(("cron",), "This entry is not allowed here")]


def test_a_bad_key_name_is_reported_at_the_key() -> None:
    schema = {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}}
    assert explained(schema, {"ok": 1, "Not ok": 2}) == [
        (("Not ok",), "The value does not have the form this setting takes")
    ]


def test_nested_values_are_reported_at_their_full_path() -> None:
    schema = {"type": "object", "properties": {"xs": {"type": "array", "items": {"type": "string"}}}}
    assert explained(schema, {"xs": ["a", 2, "c", None]}) == [
        (("xs", 1), "The value must be a text"),
        (("xs", 3), "The value must be a text"),
    ]


@pytest.mark.parametrize(
    ("keyword", "expected", "words"),
    [
        ("type", "object", "The value must be an object"),
        ("type", ["string", "null"], "The value must be a text or null"),
        ("enum", ["a", "b"], 'The value must be "a" or "b"'),
        ("const", "flowyard.flow/1", 'The value must be "flowyard.flow/1"'),
        ("minLength", 1, "The value must not be empty"),
        ("maxLength", 200, "The value must have at most 200 characters"),
        ("minItems", 2, "The list must have at least 2 items"),
        ("maxItems", 1000, "The list must have at most 1,000 items"),
        ("minProperties", 1, "The value must not be empty"),
        ("minimum", 0, "The value must be at least 0"),
        ("exclusiveMinimum", 0, "The value must be more than 0"),
        ("maximum", 300, "The value must be at most 300"),
        ("exclusiveMaximum", 1, "The value must be less than 1"),
        ("oneOf", [{"required": ["a"]}, {"required": ["b"]}], "Exactly one of a or b must be given"),
        (
            "oneOf",
            [{"type": "string"}, {"type": "number"}],
            "The value must match exactly one of the allowed forms",
        ),
        ("anyOf", [{"type": "string"}], "The value must match one of the allowed forms"),
        ("not", {}, "This entry is not allowed here"),
        ("not", {"const": "x"}, "The value has a form that is not allowed"),
        ("uniqueItems", True, "The value breaks a rule of the format"),
    ],
)
def test_each_keyword_has_a_short_phrase(keyword: str, expected: object, words: str) -> None:
    assert said(phrase(keyword, expected)) == words


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


DURATION = r"^P(?!$)(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$"


@pytest.mark.parametrize(
    ("pattern", "code"),
    [
        (DURATION, "problem_form_duration"),
        (r"^[A-Za-z_][A-Za-z0-9_]{0,63}$", "problem_form_name"),
        (r"^[A-Za-z_][A-Za-z0-9_]{0,63}$(?!\n)", "problem_form_name"),
        (r"^[0-9A-Za-z*/,?#-]+( [0-9A-Za-z*/,?#-]+){4}$(?!\n)", "problem_form_cron"),
        (r"\S", "problem_form_blank"),
        (r"^([Hh][Tt][Tt][Pp][Ss]?://|\{\{)", "problem_form_url"),
        (r"^(user|group):[A-Za-z0-9_.@-]{1,64}$(?!\n)", "problem_form_principal"),
        (r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$", "problem_form"),  # a secret's name: the form in general
    ],
)
def test_each_pattern_of_our_schemas_is_said_as_the_form_it_asks_for(pattern: str, code: str) -> None:
    """A reader never sees a regular expression: each of our schemas' patterns is a sentence of its own
    (the schemas hold them as written here; a pattern not listed is said as "not in the expected form")."""
    [error] = Draft202012Validator({"type": "string", "pattern": pattern}).iter_errors(" ")
    [(_, problem)] = describe(error)
    assert problem.code == code
