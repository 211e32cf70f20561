"""jsonschema's errors, told as where (a path into the document) and what is wrong (a short phrase).

The phrase is built from the schema's side of the error only (the keyword and its value in our files),
never from the offending value, so it is short whatever the document holds. A missing key is reported at
the path where it belongs and an unexpected key at its own path, one finding each, so that the editor can
point at the very field.

Examples:
    >>> from jsonschema import Draft202012Validator
    >>> schema = {"type": "object", "additionalProperties": False, "required": ["op"],
    ...           "properties": {"op": {"enum": ["eq", "ne"]}}}
    >>> errors = Draft202012Validator(schema).iter_errors({"op": "gt", "x": 1})
    >>> sorted(problem for error in errors for problem in describe(error))
    [(('op',), 'must be one of "eq", "ne"'), (('x',), 'is not allowed here')]
    >>> sorted([("b",), (2,), (10,), ()], key=path_key)
    [(), (2,), (10,), ('b',)]
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from jsonschema import ValidationError

Path = tuple[str | int, ...]

_ARTICLES = {
    "object": "an object",
    "array": "a list",
    "string": "a string",
    "number": "a number",
    "integer": "a whole number",
    "boolean": "true or false",
    "null": "null",
}


def describe(error: ValidationError) -> Iterator[tuple[Path, str]]:
    """Each (path, phrase) an error stands for; paths are relative to the instance that was validated."""
    at: Path = tuple(error.absolute_path)
    instance, expected = error.instance, error.validator_value
    if error.validator == "required" and isinstance(instance, dict) and isinstance(expected, list):
        for name in expected:
            if name not in instance:
                yield (*at, name), "is missing"
    elif error.validator == "additionalProperties" and isinstance(instance, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        for key in instance:
            if key not in known:
                yield (*at, key), "is not allowed here"
    elif error.validator is None:
        # A `false` subschema. jsonschema loses the key's path on those, so our schemas write `{"not": {}}`.
        yield at, "is not allowed here"
    elif "propertyNames" in error.relative_schema_path and isinstance(instance, str):
        yield (*at, instance), f"has a name that {phrase(str(error.validator), expected)}"
    else:
        yield at, phrase(str(error.validator), expected)


def phrase(keyword: str, expected: Any) -> str:
    """What a schema keyword asks for, in a few words.

    Examples:
        >>> phrase("type", ["string", "null"])
        'must be a string or null'
        >>> phrase("oneOf", [{"required": ["duration"]}, {"required": ["until"]}])
        'must have exactly one of duration, until'
    """
    if keyword == "type":
        names = [expected] if isinstance(expected, str) else expected
        return "must be " + " or ".join(_ARTICLES.get(name, name) for name in names)
    if keyword == "enum":
        return "must be one of " + ", ".join(json.dumps(value) for value in expected)
    if keyword == "const":
        return f"must be {json.dumps(expected)}"
    if keyword == "pattern":
        return f"must match the pattern {expected}"
    if keyword in ("minLength", "minItems", "minProperties") and expected == 1:
        return "must not be empty"
    counted = {"Length": "characters", "Items": "items", "Properties": "entries"}
    if keyword[3:] in counted:
        bound = "at least" if keyword.startswith("min") else "at most"
        return f"must have {bound} {expected} {counted[keyword[3:]]}"
    bounds = {
        "minimum": "at least",
        "maximum": "at most",
        "exclusiveMinimum": "more than",
        "exclusiveMaximum": "less than",
    }
    if keyword in bounds:
        return f"must be {bounds[keyword]} {expected}"
    if keyword == "oneOf":
        names = [_only_required(branch) for branch in expected]
        if all(name is not None for name in names):
            return "must have exactly one of " + ", ".join(str(name) for name in names)
        return "must match exactly one of the allowed forms"
    if keyword == "anyOf":
        return "must match one of the allowed forms"
    if keyword == "not":
        return "is not allowed here" if expected == {} else "has a form that is not allowed"
    return f"does not satisfy {keyword}"


def _only_required(branch: object) -> str | None:
    """The one key a `{"required": [key]}` branch asks for, or None for any other branch."""
    if isinstance(branch, dict) and list(branch) == ["required"] and len(branch["required"]) == 1:
        return str(branch["required"][0])
    return None


def path_key(path: Path) -> tuple[tuple[int, int, str], ...]:
    """A sort key for paths: document position, indexes by number, keys by text."""
    return tuple((0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in path)
