"""A JSON Schema compiled into one yes-or-no check, for the keywords Flowyard's schemas use.

jsonschema builds a validator object for every subschema it enters, about 15 µs each: a 1,000-node flow
took 150 ms, and the editor validates on every change. So "is this piece valid?" is answered by closures
compiled once from the same schema files, and jsonschema is asked only to explain a piece that is not.
`tests/graph/test_fastcheck.py` holds the two to the same answers. A keyword this module does not know
raises at compile time, so a schema can never be half-checked in silence.

Each schema becomes one function: its type test, then the keywords of the instance's own kind (object,
string, list, number) in one go, then the combinators. Compiling recurses over the schema, never over the
document: its depth is that of our own files.

Examples:
    >>> check = compile_check({"type": "object", "required": ["a"],
    ...                        "properties": {"a": {"enum": ["x", "y"]}}}, lambda ref: {})
    >>> check({"a": "x"}), check({"a": "z"}), check({}), check([])
    (True, False, False, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from numbers import Number
from typing import Any

Check = Callable[[Any], bool]
Resolve = Callable[[str], object]

_ANNOTATIONS = frozenset(
    {"$schema", "$id", "$comment", "$defs", "title", "description", "default", "examples", "format"}
)
_OBJECT = frozenset(
    {"properties", "additionalProperties", "required", "propertyNames", "minProperties", "maxProperties"}
)
_STRING = frozenset({"pattern", "minLength", "maxLength"})
_ARRAY = frozenset({"items", "minItems", "maxItems"})
_NUMBER = frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"})
_OTHER = frozenset({"type", "enum", "const", "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "$ref"})
_CLASSES: dict[str, type] = {
    "object": dict,
    "array": list,
    "string": str,
    "boolean": bool,
    "null": type(None),
}
_NAMES = {kind: name for name, kind in _CLASSES.items()}


def _is_number(value: object) -> bool:
    return isinstance(value, Number) and not isinstance(value, bool)


def _is_integer(value: object) -> bool:
    # As jsonschema: 1.0 is an integer, True is not.
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def _always(value: object) -> bool:
    return True


def _never(value: object) -> bool:
    return False


def compile_check(schema: object, resolve: Resolve) -> Check:
    """A function that says whether a JSON value matches `schema`; `resolve` maps a `$ref` to its schema."""
    if schema is True:
        return _always
    if schema is False:
        return _never
    if not isinstance(schema, dict):
        raise ValueError(f"not a schema: {schema!r}")
    unknown = set(schema) - _ANNOTATIONS - _OBJECT - _STRING - _ARRAY - _NUMBER - _OTHER
    if unknown:
        raise ValueError(f"keywords not compiled: {sorted(unknown)}; teach backend/graph/fastcheck.py")
    has_type = _type_check(schema.get("type"))
    on_object = _object_check(schema, resolve) if _OBJECT & schema.keys() else None
    on_string = _string_check(schema) if _STRING & schema.keys() else None
    on_array = _array_check(schema, resolve) if _ARRAY & schema.keys() else None
    on_number = _number_check(schema) if _NUMBER & schema.keys() else None
    others = _combinators(schema, resolve)
    return _assembled(schema, has_type, on_object, on_string, on_array, on_number, others)


def _assembled(
    schema: dict[str, Any],
    has_type: Check | None,
    on_object: Check | None,
    on_string: Check | None,
    on_array: Check | None,
    on_number: Check | None,
    others: list[Check],
) -> Check:
    """The compiled parts made one check: a small function of its own for the common shapes, else the
    full check that asks each part in turn."""
    parts = [(kind, part) for kind, part in ((dict, on_object), (str, on_string), (list, on_array)) if part]
    # The common shapes get one small function each: they are most of what a flow is made of.
    if others == [] and on_number is None and has_type is not None:
        if not parts:
            return has_type
        kind, part = parts[0]
        if len(parts) == 1 and schema["type"] == _NAMES[kind]:
            return lambda value: isinstance(value, kind) and part(value)
    if has_type is None and not parts and on_number is None and len(others) == 1:
        return others[0]
    return _in_turn(has_type, on_object, on_string, on_array, on_number, others)


def _in_turn(
    has_type: Check | None,
    on_object: Check | None,
    on_string: Check | None,
    on_array: Check | None,
    on_number: Check | None,
    others: list[Check],
) -> Check:
    """The full check: the type test, then the keywords of the value's own kind, then the combinators."""

    typed, by_object, by_string = has_type or _always, on_object or _always, on_string or _always
    by_array, by_number = on_array or _always, on_number or _always

    def check(value: Any) -> bool:
        if not typed(value):
            return False
        if isinstance(value, dict):
            own = by_object(value)
        elif isinstance(value, str):
            own = by_string(value)
        elif isinstance(value, list):
            own = by_array(value)
        else:
            own = not _is_number(value) or by_number(value)
        return own and all(other(value) for other in others)

    return check


def _type_check(expected: Any) -> Check | None:
    if expected is None:
        return None
    names = [expected] if isinstance(expected, str) else list(expected)
    classes = tuple(_CLASSES[name] for name in names if name in _CLASSES)
    if "number" in names:
        return lambda value: isinstance(value, classes) or _is_number(value)
    if "integer" in names:
        return lambda value: isinstance(value, classes) or _is_integer(value)
    return lambda value: isinstance(value, classes)


def _object_check(schema: dict[str, Any], resolve: Resolve) -> Check:
    properties = tuple(
        (name, compile_check(sub, resolve)) for name, sub in schema.get("properties", {}).items()
    )
    known = frozenset(name for name, _ in properties)
    additional = schema.get("additionalProperties", True)
    closed = additional is False
    extra = None if additional is True or closed else compile_check(additional, resolve)
    names = compile_check(schema["propertyNames"], resolve) if "propertyNames" in schema else None
    required = tuple(schema.get("required", ()))
    fewest, most = schema.get("minProperties", 0), schema.get("maxProperties")

    def other_keys(value: dict[Any, Any]) -> bool:
        """`additionalProperties` on the keys `properties` does not name, `propertyNames` on every key."""
        if extra is not None:
            for key, item in value.items():
                if key not in known and not extra(item):
                    return False
        if names is not None:
            for key in value:
                if not names(key):
                    return False
        return True

    def check(value: dict[Any, Any]) -> bool:
        if closed and not value.keys() <= known:
            return False
        for name in required:
            if name not in value:
                return False
        for name, sub in properties:
            if name in value and not sub(value[name]):
                return False
        if not other_keys(value):
            return False
        return not len(value) < fewest and (most is None or not len(value) > most)

    return check


def _string_check(schema: dict[str, Any]) -> Check:
    search = re.compile(schema["pattern"]).search if "pattern" in schema else None
    shortest, longest = schema.get("minLength", 0), schema.get("maxLength")
    return lambda value: (
        not len(value) < shortest
        and (longest is None or not len(value) > longest)
        and (search is None or search(value) is not None)
    )


def _array_check(schema: dict[str, Any], resolve: Resolve) -> Check:
    item = compile_check(schema.get("items", True), resolve)
    fewest, most = schema.get("minItems", 0), schema.get("maxItems")
    return lambda value: (
        not len(value) < fewest and (most is None or not len(value) > most) and all(item(x) for x in value)
    )


def _number_check(schema: dict[str, Any]) -> Check:
    # Written as jsonschema writes its failures, negated, so that NaN passes here as it passes there.
    low, high = schema.get("minimum"), schema.get("maximum")
    above, below = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    return lambda value: (
        (low is None or not value < low)
        and (high is None or not value > high)
        and (above is None or not value <= above)
        and (below is None or not value >= below)
    )


def _one_of(values: list[object]) -> Check:
    # Strings only: jsonschema's equality between other JSON values (1 == 1.0, True != 1) is not copied.
    if not all(isinstance(value, str) for value in values):
        raise ValueError(f"only strings are compiled in enum and const: {values!r}")
    allowed = frozenset(values)
    return lambda value: isinstance(value, str) and value in allowed


def _combinators(schema: dict[str, Any], resolve: Resolve) -> list[Check]:
    """The checks of the keywords that hold for a value of any kind: `enum` and `const`, `allOf`,
    `anyOf` and `oneOf`, then `not`, `if` and `$ref`."""
    return [*_listed(schema), *_of_subschemas(schema, resolve), *_conditions(schema, resolve)]


def _listed(schema: dict[str, Any]) -> list[Check]:
    """`enum` and `const`: the value is one of those written."""
    checks: list[Check] = []
    for keyword in ("enum", "const"):
        if keyword in schema:
            checks.append(_one_of(schema["enum"] if keyword == "enum" else [schema["const"]]))
    return checks


def _of_subschemas(schema: dict[str, Any], resolve: Resolve) -> list[Check]:
    """`allOf`, `anyOf` and `oneOf`: every, some, or exactly one of the subschemas holds."""
    checks: list[Check] = []
    subs = {
        key: [compile_check(sub, resolve) for sub in schema.get(key, ())]
        for key in ("allOf", "anyOf", "oneOf")
    }
    if subs["allOf"]:
        checks.append(lambda value: all(sub(value) for sub in subs["allOf"]))
    if subs["anyOf"]:
        checks.append(lambda value: any(sub(value) for sub in subs["anyOf"]))
    if subs["oneOf"]:
        checks.append(lambda value: sum(1 for sub in subs["oneOf"] if sub(value)) == 1)
    return checks


def _conditions(schema: dict[str, Any], resolve: Resolve) -> list[Check]:
    """`not`, `if` with its `then` and `else`, and `$ref`: checks built from one other schema each."""
    checks: list[Check] = []
    if "not" in schema:
        negated = compile_check(schema["not"], resolve)
        checks.append(lambda value: not negated(value))
    if "if" in schema:
        test = compile_check(schema["if"], resolve)
        then = compile_check(schema.get("then", True), resolve)
        otherwise = compile_check(schema.get("else", True), resolve)
        checks.append(lambda value: then(value) if test(value) else otherwise(value))
    if "$ref" in schema:
        checks.append(compile_check(resolve(schema["$ref"]), resolve))
    return checks
