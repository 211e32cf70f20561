"""Templates: `{{path}}` reads a variable by a dotted path, and there is no code in a template."""

from __future__ import annotations

from typing import Any

import pytest

from backend.walker import MISSING, render
from backend.walker.templates import evaluate, render_text

VARIABLES: dict[str, Any] = {
    "invoice": {
        "id": "A-7",
        "amount": 1200,
        "paid": False,
        "note": None,
        "lines": [{"sku": "x"}, {"sku": "y"}],
    },
    "items": [{"id": 3}, {"id": 4}],
    "n": 2.5,
    "weird-name_1": "ok",
}


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("{{invoice.amount}}", 1200),
        ("{{invoice.paid}}", False),
        ("{{invoice.note}}", None),
        ("{{invoice.lines}}", [{"sku": "x"}, {"sku": "y"}]),
        ("{{items.1.id}}", 4),
        ("{{invoice.lines.0.sku}}", "x"),
        ("{{ invoice.id }}", "A-7"),
        ("{{weird-name_1}}", "ok"),
        ("{{n}}", 2.5),
    ],
)
def test_a_template_that_is_one_path_yields_the_value_with_its_type(template: str, expected: Any) -> None:
    assert render(template, VARIABLES) == expected
    assert type(render(template, VARIABLES)) is type(expected)


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("Pay {{invoice.id}}", "Pay A-7"),
        ("{{invoice.amount}} EUR", "1200 EUR"),
        ("{{invoice.id}}{{items.0.id}}", "A-73"),
        ("paid={{invoice.paid}} note={{invoice.note}} n={{n}}", "paid=false note=null n=2.5"),
        ("{{items.0}}", {"id": 3}),
        ("x {{items.0}}", 'x {"id":3}'),
        ("no braces", "no braces"),
        ("", ""),
    ],
)
def test_text_around_a_path_yields_a_string(template: str, expected: Any) -> None:
    assert render(template, VARIABLES) == expected


@pytest.mark.parametrize(
    "template",
    ["{{nothing}}", "{{invoice.due}}", "{{items.2.id}}", "{{items.x}}", "{{invoice.id.length}}", "{{n.0}}"],
)
def test_a_path_that_does_not_resolve_is_missing(template: str) -> None:
    assert evaluate(template, VARIABLES) is MISSING
    assert evaluate(f"id {template}", VARIABLES) is MISSING
    assert render(template, VARIABLES) is None
    assert render(f"id [{template}]", VARIABLES) == "id []"


def test_there_is_no_code_in_a_template() -> None:
    for text in (
        "{{invoice.amount + 1}}",
        "{{len(items)}}",
        "{{invoice['id']}}",
        "{{}}",
        "{{ }}",
        "{{a..b}}",
    ):
        assert render(text, VARIABLES) == text
        assert evaluate(text, VARIABLES) == text


def test_non_string_values_pass_through_unchanged() -> None:
    for value in (3, 2.5, True, None):
        assert render(value, VARIABLES) is value
        assert evaluate(value, VARIABLES) is value


def test_nested_config_is_rendered_through_objects_and_lists_without_touching_the_original() -> None:
    config = {"url": "/i/{{invoice.id}}", "body": {"lines": ["{{invoice.lines.1.sku}}", 1, {"n": "{{n}}"}]}}
    rendered = render(config, VARIABLES)
    assert rendered == {"url": "/i/A-7", "body": {"lines": ["y", 1, {"n": 2.5}]}}
    assert config["body"]["lines"][0] == "{{invoice.lines.1.sku}}"  # type: ignore[index]


def test_a_deeply_nested_config_renders_without_recursion() -> None:
    deep: Any = "{{n}}"
    for _ in range(5000):
        deep = {"a": [deep]}
    rendered = render(deep, VARIABLES)
    for _ in range(5000):
        rendered = rendered["a"][0]
    assert rendered == 2.5


def test_object_keys_are_read_as_text_even_when_they_are_digits() -> None:
    assert render("{{by_id.7.name}}", {"by_id": {"7": {"name": "seven"}}}) == "seven"


def test_render_text_always_gives_text() -> None:
    assert render_text("{{invoice.amount}}", VARIABLES) == "1200"
    assert render_text("{{invoice.note}}", VARIABLES) == ""
    assert render_text("{{nothing}}", VARIABLES) == ""
    assert render_text(["a"], VARIABLES) == '["a"]'
