"""jsonschema's errors, told as where (a path into the document) and what is wrong (a problem: a reason
code with its parameters, whose sentence the finding cites in the reader's language).

The problem is built from the schema's side of the error only (the keyword and its value in our files),
never from the offending value, so it is short whatever the document holds. A missing key is reported at
the path where it belongs and an unexpected key at its own path, one finding each, so that the editor can
point at the very field. A problem is a code (`problem_missing`, `problem_type`) and never English words:
a German author reads "Der Wert fehlt.", not "is missing".

Examples:
    >>> from jsonschema import Draft202012Validator
    >>> schema = {"type": "object", "additionalProperties": False, "required": ["op"],
    ...           "properties": {"op": {"enum": ["eq", "ne"]}}}
    >>> errors = Draft202012Validator(schema).iter_errors({"op": "gt", "x": 1})
    >>> sorted((path, p.code) for error in errors for path, p in describe(error))
    [(('op',), 'problem_value'), (('x',), 'problem_not_allowed')]
    >>> sorted([("b",), (2,), (10,), ()], key=path_key)
    [(), (2,), (10,), ('b',)]
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, NamedTuple

from jsonschema import ValidationError

Path = tuple[str | int, ...]


class Problem(NamedTuple):
    """What is wrong with one value: a reason code and the parameters its sentence names.

    A tuple parameter is a list the sentence writes in the reader's language ("a or b"); `types` holds
    JSON type names, each written as its `value_type_*` name.
    """

    code: str
    params: tuple[tuple[str, Any], ...] = ()

    def fields(self) -> dict[str, Any]:
        """The parameters to pass beside `problem=self.code`, for the cited sentence to read."""
        return dict(self.params)


def problem(code: str, **params: Any) -> Problem:
    """A problem with its parameters, in a stable order.

    Examples:
        >>> problem("problem_minimum", limit=1)
        Problem(code='problem_minimum', params=(('limit', 1),))
    """
    return Problem(code, tuple(sorted(params.items())))


def describe(error: ValidationError) -> Iterator[tuple[Path, Problem]]:
    """Each (path, problem) an error stands for; paths are relative to the instance that was validated."""
    at: Path = tuple(error.absolute_path)
    instance, expected = error.instance, error.validator_value
    if error.validator == "required" and isinstance(instance, dict) and isinstance(expected, list):
        for name in expected:
            if name not in instance:
                yield (*at, name), problem("problem_missing")
    elif error.validator == "additionalProperties" and isinstance(instance, dict):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        for key in instance:
            if key not in known:
                yield (*at, key), problem("problem_not_allowed")
    elif error.validator is None:
        # A `false` subschema. jsonschema loses the key's path on those, so our schemas write `{"not": {}}`.
        yield at, problem("problem_not_allowed")
    elif "propertyNames" in error.relative_schema_path and isinstance(instance, str):
        # The key's own name is what fails: the finding points at the key, and says what a name must be.
        yield (*at, instance), phrase(str(error.validator), expected)
    else:
        yield at, phrase(str(error.validator), expected)


def phrase(keyword: str, expected: Any) -> Problem:
    """What a schema keyword asks for, as a problem.

    Examples:
        >>> phrase("type", ["string", "null"])
        Problem(code='problem_type', params=(('types', ('string', 'null')),))
        >>> phrase("oneOf", [{"required": ["duration"]}, {"required": ["until"]}])
        Problem(code='problem_exactly_one', params=(('keys', ('duration', 'until')),))
        >>> phrase("pattern", "^[a-z]+$").code
        'problem_form'
    """
    if keyword == "type":
        return problem("problem_type", types=(expected,) if isinstance(expected, str) else tuple(expected))
    if keyword == "enum":
        return problem("problem_value", values=tuple(json.dumps(value) for value in expected))
    if keyword == "const":
        return problem("problem_value", values=(json.dumps(expected),))
    if keyword == "pattern":
        return _form(str(expected))
    if keyword[3:] in ("Length", "Items", "Properties") and keyword[:3] in ("min", "max"):
        return _counted(keyword, expected)
    if keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return _bound(keyword, expected)
    if keyword in ("oneOf", "anyOf", "not"):
        return _combined(keyword, expected)
    return problem("problem_rule")


def _form(pattern: str) -> Problem:
    """A pattern of our schemas as the form it asks for: a reader never sees a regular expression."""
    duration = r"^P(?!$)(?:(\d+)W)?(?:(\d+)D)?(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$"
    return problem(
        {
            duration: "problem_form_duration",
            r"^[A-Za-z_][A-Za-z0-9_]{0,63}$": "problem_form_name",
            r"^[A-Za-z_][A-Za-z0-9_]{0,63}$(?!\n)": "problem_form_name",
            r"^[0-9A-Za-z*/,?#-]+( [0-9A-Za-z*/,?#-]+){4}$(?!\n)": "problem_form_cron",
            r"\S": "problem_form_blank",
            r"^([Hh][Tt][Tt][Pp][Ss]?://|\{\{)": "problem_form_url",
            r"^(user|group):[A-Za-z0-9_.@-]{1,64}$(?!\n)": "problem_form_principal",
        }.get(pattern, "problem_form")
    )


def _counted(keyword: str, limit: Any) -> Problem:
    """A bound on a length, a list or an object, as a sentence that counts characters, items or entries;
    at least one, as a sentence that says it must not be empty."""
    if keyword.startswith("min") and limit == 1:
        return problem("problem_empty")
    return problem(
        {
            "minLength": "problem_min_characters",
            "maxLength": "problem_max_characters",
            "minItems": "problem_min_items",
            "maxItems": "problem_max_items",
            "minProperties": "problem_min_entries",
        }.get(keyword, "problem_max_entries"),
        limit=limit,
    )


def _bound(keyword: str, limit: Any) -> Problem:
    return problem(
        {
            "minimum": "problem_minimum",
            "maximum": "problem_maximum",
            "exclusiveMinimum": "problem_more_than",
        }.get(keyword, "problem_less_than"),
        limit=limit,
    )


def _combined(keyword: str, expected: Any) -> Problem:
    """What `oneOf`, `anyOf` or `not` asks for: one of the named keys (a `oneOf` of `required` branches
    says which), one of the forms, or none of what `not` refuses."""
    if keyword == "oneOf":
        names = [_only_required(branch) for branch in expected]
        if all(name is not None for name in names):
            return problem("problem_exactly_one", keys=tuple(str(name) for name in names))
        return problem("problem_one_form")
    if keyword == "anyOf":
        return problem("problem_any_form")
    return problem("problem_not_allowed" if expected == {} else "problem_form_refused")


def _only_required(branch: object) -> str | None:
    """The one key a `{"required": [key]}` branch asks for, or None for any other branch."""
    if isinstance(branch, dict) and list(branch) == ["required"] and len(branch["required"]) == 1:
        return str(branch["required"][0])
    return None


def path_key(path: Path) -> tuple[tuple[int, int, str], ...]:
    """A sort key for paths: document position, indexes by number, keys by text."""
    return tuple((0, part, "") if isinstance(part, int) else (1, 0, str(part)) for part in path)
