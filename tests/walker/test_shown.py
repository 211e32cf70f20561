"""What an approval shows its approvers (backend/walker/shown.py): the values `show` names, read when the
approval is requested, credentials masked, the whole held to the value-size limit."""

from __future__ import annotations

from typing import Any

import pytest

from backend.walker import ApprovalRequest, walk
from backend.walker.errors import WalkFailure
from backend.walker.redact import MASK, REDACTED, mask_credentials, redact_values
from backend.walker.shown import shown_items
from backend.walker.sizes import Limits, measure
from tests.walker.walker_flows import build, trigger

VARIABLES: dict[str, Any] = {
    "trigger": {"invoice": "B-12", "amount": 98000},
    "vendor": {"name": "Acme", "bank": {"iban": "DE02", "api_key": "k-1"}, "key": "V-7"},
    "lines": [{"sku": "x1"}, {"sku": "x2", "password": "p"}],
    "credentials": {"user": "u"},
    "total": 0,
}


def refused(config: dict[str, Any], variables: dict[str, Any] = VARIABLES, limit: int = 10_000) -> Any:
    with pytest.raises(WalkFailure) as raised:
        shown_items(config, variables, limit)
    return raised.value.code, dict(raised.value.params)


def test_without_show_the_approval_shows_the_trigger_input() -> None:
    assert shown_items({}, VARIABLES) == (
        {"label": None, "path": "trigger", "value": {"invoice": "B-12", "amount": 98000}},
    )
    assert shown_items({"title": "t"}, {"trigger": None}) == (
        {"label": None, "path": "trigger", "value": None},
    )


def test_each_item_reads_its_path_and_renders_its_label_in_order() -> None:
    show = [
        {"label": "Amount of {{trigger.invoice}}", "value": "trigger.amount"},
        {"value": "lines.0.sku"},
        {"label": "Vendor", "value": "vendor.name"},
        {"label": "", "value": "total"},
    ]
    assert shown_items({"show": show}, VARIABLES) == (
        {"label": "Amount of B-12", "path": "trigger.amount", "value": 98000},
        {"label": None, "path": "lines.0.sku", "value": "x1"},
        {"label": "Vendor", "path": "vendor.name", "value": "Acme"},
        {"label": "", "path": "total", "value": 0},
    )
    assert shown_items({"show": ()}, VARIABLES) == ()


def test_a_path_that_does_not_resolve_shows_as_null_and_the_run_goes_on() -> None:
    show = [{"value": "trigger.due"}, {"value": "lines.5.sku"}, {"label": "{{nowhere}}", "value": "nowhere"}]
    assert shown_items({"show": show}, VARIABLES) == (
        {"label": None, "path": "trigger.due", "value": None},
        {"label": None, "path": "lines.5.sku", "value": None},
        {"label": "", "path": "nowhere", "value": None},
    )


def test_credentials_are_masked_inside_a_value_and_the_item_says_so() -> None:
    [vendor, lines] = shown_items({"show": [{"value": "vendor"}, {"value": "lines"}]}, VARIABLES)
    assert vendor == {
        "label": None,
        "path": "vendor",
        "value": {"name": "Acme", "bank": {"iban": "DE02", "api_key": MASK}, "key": "V-7"},
        "masked": True,
    }
    assert lines["value"] == [{"sku": "x1"}, {"sku": "x2", "password": "••••"}]
    assert lines["masked"] is True
    # Masking copies: the run's own variables keep their values.
    assert VARIABLES["vendor"]["bank"]["api_key"] == "k-1"


def test_a_path_through_a_credential_key_is_masked_whole_even_when_missing() -> None:
    show = [
        {"value": "vendor.bank.api_key"},
        {"value": "credentials.user"},
        {"value": "vendor.bank.token"},
        {"value": "vendor.key"},
    ]
    assert shown_items({"show": show}, VARIABLES) == (
        {"label": None, "path": "vendor.bank.api_key", "value": MASK, "masked": True},
        {"label": None, "path": "credentials.user", "value": MASK, "masked": True},
        {"label": None, "path": "vendor.bank.token", "value": MASK, "masked": True},
        # A field named just `key` is an identifier, as the journal's redaction reads it.
        {"label": None, "path": "vendor.key", "value": "V-7"},
    )


@pytest.mark.parametrize(
    "show",
    ["trigger", {"value": "trigger"}, None, ["trigger"], [{"label": "x"}], [{"value": 3}], [None]],
)
def test_a_show_not_in_its_form_fails_the_run_as_a_config_error(show: Any) -> None:
    assert refused({"show": show}) == ("node_config_invalid", {"field": "show"})


def test_what_is_shown_is_held_to_the_value_size_limit_as_a_whole() -> None:
    variables = {"a": "x" * 40, "b": "y" * 40}
    config = {"show": [{"value": "a"}, {"value": "b"}]}
    size = measure(list(shown_items(config, variables)), 10_000)
    assert len(shown_items(config, variables, size)) == 2
    assert refused(config, variables, size - 1) == ("value_too_large", {"limit": size - 1, "what": "value"})
    # Each item alone fits: it is the list, as it is stored, that is measured.
    assert measure(shown_items({"show": [{"value": "a"}]}, variables)[0], 10_000) < size - 1
    labelled = {"show": [{"label": "{{a}}{{a}}{{a}}", "value": "total"}]}
    assert refused(labelled, {"a": "x" * 40, "total": 1}, 100) == (
        "value_too_large",
        {"limit": 100, "what": "text"},
    )


def test_mask_credentials_says_whether_it_masked_and_leaves_other_keys() -> None:
    assert mask_credentials({"a": [1, {"secret": "s"}]}) == ({"a": [1, {"secret": MASK}]}, True)
    assert mask_credentials({"a": [1, {"key": "s"}], 3: "x"}) == ({"a": [1, {"key": "s"}], 3: "x"}, False)
    assert mask_credentials("token") == ("token", False)
    assert mask_credentials([{"pin": 1}], "*") == ([{"pin": "*"}], True)
    assert redact_values({"pin": 1, "n": [{"otp": 2}]}) == {"pin": REDACTED, "n": [{"otp": REDACTED}]}


def test_a_walk_that_asks_an_approval_carries_what_it_shows() -> None:
    flow = build(
        {
            "t": trigger(),
            "ask": (
                "approval",
                {
                    "title": "Pay {{trigger.invoice}}?",
                    "show": [{"label": "Amount", "value": "trigger.amount"}],
                },
            ),
        },
        "t>ask",
    )
    step = walk(flow, None, trigger={"invoice": "B-12", "amount": 98000})
    assert isinstance(step.request, ApprovalRequest)
    assert step.request.shown == ({"label": "Amount", "path": "trigger.amount", "value": 98000},)
    plain = build({"t": trigger(), "ask": ("approval", {"title": "Pay?"})}, "t>ask")
    request = walk(plain, None, trigger={"invoice": "B-12"}).request
    assert isinstance(request, ApprovalRequest)
    assert request.shown == ({"label": None, "path": "trigger", "value": {"invoice": "B-12"}},)
    big = walk(plain, None, trigger={"invoice": "B" * 500}, limits=Limits(value_bytes=300))
    assert (big.status, big.journal[-1].data) == (
        "failed",
        {"error": "value_too_large", "limit": 300, "what": "value"},
    )
    nothing = build({"t": trigger(), "ask": ("approval", {"title": "Pay?", "show": []})}, "t>ask")
    assert (
        walk(nothing, None, trigger={"invoice": "B" * 500}, limits=Limits(value_bytes=300)).status
        == "waiting"
    )
