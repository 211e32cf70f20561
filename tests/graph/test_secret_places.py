"""`secret_place_forbidden`: a secret in a URL is the whole URL, or comes after its host and port (issue 32).

Spliced into a host, a port or the user-info, a secret's value would decide where a request goes, and
whatever an action reports about that host would be read from it.
"""

from __future__ import annotations

from typing import Any

import pytest

from backend.graph import validate
from tests.support import flow

FORBIDDEN = [
    "http://{{secrets.billing}}.example.invalid/x",  # the attack
    "https://api.{{ secrets.tenant }}.example/x",
    "https://api.example:{{secrets.port}}/x",
    "https://ann:{{secrets.pw}}@api.example/x",
    "https://api.example{{secrets.rest}}",
    "{{secrets.scheme_and_host}}/v1/{{trigger.id}}",
    "{{trigger.base}}/{{secrets.path}}",  # the host cannot be told before the run: refused
    "https://{{trigger.host}}{{secrets.path}}",
]
ALLOWED = [
    "{{secrets.hook}}",
    "{{ secrets.hook }}",
    "https://hooks.example/services/{{secrets.path}}",
    "https://api.example?key={{secrets.key}}&page=2",
    "https://{{trigger.tenant}}.api.example/x/{{secrets.path}}",
    "https://api.example/{{trigger.id}}#{{secrets.fragment}}",
    "https://{{trigger.host}}/plain",
]


def http_flow(url: str, **more: Any) -> dict[str, Any]:
    document = flow("t:trigger call:http", wires="t>call")
    document["nodes"][1]["config"] = {"method": "POST", "url": url, **more}
    return document


@pytest.mark.parametrize("url", FORBIDDEN)
def test_a_secret_in_a_host_or_port_is_a_finding(url: str) -> None:
    findings = [(f.code, f.node, f.detail) for f in validate(http_flow(url))]
    assert findings == [("secret_place_forbidden", "call", "/nodes/1/config/url")]


@pytest.mark.parametrize("url", ALLOWED)
def test_a_whole_url_a_path_or_a_query_value_may_be_a_secret(url: str) -> None:
    assert validate(http_flow(url)) == []


def test_a_webhook_notify_and_an_undo_are_held_to_it_once_per_node() -> None:
    document = flow("t:trigger tell:notify call:http", wires="t>tell tell>call")
    document["nodes"][1]["config"] = {
        "channel": "webhook",
        "to": "https://{{secrets.chat_host}}/hook",
        "message": "done",
    }
    document["nodes"][2]["config"] = {
        "method": "POST",
        "url": "https://api.example/{{secrets.path}}",
        "undo": {"method": "DELETE", "url": "https://{{secrets.host}}:8443/x"},
    }
    findings = [(f.code, f.node, f.detail) for f in validate(document)]
    assert findings == [
        ("secret_place_forbidden", "tell", "/nodes/1/config/to"),
        ("secret_place_forbidden", "call", "/nodes/2/config/undo/url"),
    ]


def test_an_email_address_is_no_url() -> None:
    document = flow("t:trigger tell:notify", wires="t>tell")
    document["nodes"][1]["config"] = {"channel": "email", "to": "{{secrets.who}}@example.com", "message": "m"}
    assert validate(document) == []
