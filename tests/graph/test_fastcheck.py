"""The compiled check answers as jsonschema does, on every piece of our schemas, and refuses what it
does not know."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from backend.graph.fastcheck import compile_check
from backend.graph.schema import _pieces
from tests.support import CONFIGS


def no_refs(ref: str) -> object:
    raise AssertionError(ref)


def test_types_follow_jsonschema() -> None:
    integer = compile_check({"type": "integer"}, no_refs)
    number = compile_check({"type": "number"}, no_refs)
    assert [integer(v) for v in (1, 1.0, 1.5, True, "1")] == [True, True, False, False, False]
    assert [number(v) for v in (1, 1.5, math.nan, False, None)] == [True, True, True, False, False]


def test_bounds_let_nan_through_as_jsonschema_does() -> None:
    bounded = compile_check({"type": "number", "exclusiveMinimum": 0, "maximum": 300}, no_refs)
    assert [bounded(v) for v in (0, 0.5, 300, 301, math.nan)] == [False, True, True, False, True]


def test_keywords_apply_only_to_their_own_kind_of_value() -> None:
    loose = compile_check({"minLength": 2, "required": ["a"], "minItems": 1, "minimum": 3}, no_refs)
    assert [loose(v) for v in (None, 1, "ab", "a", {"a": 1}, {}, [0], [])] == [
        True,
        False,
        True,
        False,
        True,
        False,
        True,
        False,
    ]


def test_refs_are_resolved() -> None:
    schemas = {"int.json": {"type": "integer"}}
    check = compile_check({"properties": {"n": {"$ref": "int.json"}}}, schemas.__getitem__)
    assert check({"n": 1}) and not check({"n": "1"})


@pytest.mark.parametrize(
    "schema",
    [{"uniqueItems": True}, {"patternProperties": {"a": {}}}, {"enum": [1, 2]}, {"prefixItems": []}],
)
def test_a_keyword_it_does_not_compile_is_refused(schema: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="compiled"):
        compile_check(schema, no_refs)


# Values built from our schemas' own vocabulary, so that many are valid and many are nearly so.
_WORDS = sorted(
    {
        word
        for config in CONFIGS.values()
        for word in (*config, *(v for v in config.values() if isinstance(v, str)))
    }
    | {"id", "type", "config", "label", "position", "x", "y", "from", "to", "port", "format", "name"}
    | {"schedule", "webhook", "exists", "eq", "approve", "skip", "GET", "failed", "info"}
    | {"P2D", "P1M", "PT0.5S", "0 9 * * 1-5", "Europe/Paris", "user:ann", "{{x}}", "a b", "x\n", ""}
    | {"until", "template", "args", "headers", "body", "cron", "timezone", "values", "while", "title"}
)
_scalars = st.one_of(
    st.sampled_from(_WORDS),
    st.sampled_from([None, True, False, 0, 1, 1.0, -1, 10, 300, 301, math.nan, 1e300]),
    st.text(max_size=5),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(_WORDS), inner, max_size=6),
    max_leaves=12,
)
_SAMPLES: dict[str, Any] = {
    **CONFIGS,
    "node": {"id": "a", "type": "log", "config": {}, "label": "A", "position": {"x": 1, "y": 2}},
    "wire": {"from": "a", "port": "out", "to": "b"},
    "document": {"format": "flowyard.flow/1", "name": "n", "nodes": [None], "wires": []},
}


@st.composite
def near_samples(draw: st.DrawFn, piece: str) -> Any:
    """The piece's sample with some keys dropped and some set to other values, or any value at all."""
    if draw(st.integers(0, 4)) == 0:
        return draw(_values)
    sample = dict(_SAMPLES[piece])
    schema = cast(Mapping[str, Any], _pieces()[piece].validator.schema)
    own = sorted(schema.get("properties", {})) or ["x"]
    for key in draw(st.lists(st.sampled_from(own), max_size=2)):
        sample.pop(key, None)
    keys = st.sampled_from(own) | st.sampled_from(_WORDS)
    sample.update(draw(st.dictionaries(keys, _values, max_size=2)))
    return sample


@settings(max_examples=400, deadline=None)
@given(data=st.data(), piece=st.sampled_from(sorted(_pieces())))
def test_the_compiled_check_agrees_with_jsonschema(data: st.DataObject, piece: str) -> None:
    value = data.draw(near_samples(piece))
    compiled = _pieces()[piece]
    assert compiled.check(value) == compiled.validator.is_valid(value)


@pytest.mark.parametrize("node_type", sorted(CONFIGS))
def test_the_compiled_check_agrees_on_every_sample_config(node_type: str) -> None:
    compiled = _pieces()[node_type]
    assert compiled.check(CONFIGS[node_type]) is compiled.validator.is_valid(CONFIGS[node_type]) is True
