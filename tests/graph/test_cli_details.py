"""`flowyard check` down to the words, and a flow document loaded for the walker: every field kept."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from backend.graph.model import DEFAULT_PORT, Flow, Node
from backend.i18n import message
from tests.graph.test_cli import VALID, check, write
from tests.support import flow

SENTENCES = {"flow_file_not_json": "{path} is not JSON: {reason}."}


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('{"name": NaN}', "NaN is not a JSON number"),
        ('{"name": -Infinity}', "-Infinity is not a JSON number"),
        ("[" * 100_000 + "]" * 100_000, "values nested deeper than 100"),
    ],
)
def test_json_that_is_no_flow_file_says_why(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    content: str,
    reason: str,
) -> None:
    monkeypatch.setattr("backend.i18n.catalogs.catalog", lambda locale: SENTENCES)
    path = write(tmp_path, content)
    assert check(capsys, path) == (2, "", f"flowyard check: {path} is not JSON: {reason}.\n")


def test_a_valid_flow_is_said_to_be_valid_in_english(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, json.dumps(VALID))
    sentence = message("flow_valid", "en")
    assert sentence != "flow_valid"
    assert check(capsys, path) == (0, f"{path}: {sentence}\n", "")


def test_a_flow_is_loaded_with_every_node_field_and_wire_port() -> None:
    document = flow("t:trigger c:condition a:log b:log", wires="t>c c.true>a c.false>b c.true>b")
    document["name"] = "Invoices"
    document["nodes"][2]["label"] = "Say yes"
    del document["nodes"][3]["config"]
    loaded = Flow.load(document)
    assert loaded.name == "Invoices"
    assert loaded.trigger == "t"
    assert list(loaded.nodes) == ["t", "c", "a", "b"]
    assert loaded.nodes["a"] == Node("a", "log", document["nodes"][2]["config"], "Say yes")
    assert loaded.nodes["b"] == Node("b", "log", {}, None)
    assert loaded.nodes["c"].config == document["nodes"][1]["config"]
    assert loaded.wires == {("t", DEFAULT_PORT): ("c",), ("c", "true"): ("a", "b"), ("c", "false"): ("b",)}
    assert loaded.targets("c", "true") == ("a", "b")
    assert loaded.targets("a", DEFAULT_PORT) == ()
    assert DEFAULT_PORT == "out"


def test_a_duplicate_key_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sentences = {"flow_file_key_duplicate": "{path} has the key {key} twice."}
    monkeypatch.setattr("backend.i18n.catalogs.catalog", lambda locale: sentences)
    path = write(tmp_path, '{"name": "a", "nodes": [], "name": "b"}')
    assert check(capsys, path) == (2, "", f"flowyard check: {path} has the key name twice.\n")


EVERY_DETAIL = {
    "flow_file_too_large": "{path} is larger than {limit}.",
    "flow_file_not_utf8": "{path} is not UTF-8 at byte {offset}.",
    "flow_file_unreadable": "{path} cannot be read: {reason}.",
}


def test_each_refusal_of_a_file_names_its_details(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("backend.i18n.catalogs.catalog", lambda locale: EVERY_DETAIL)
    large = write(tmp_path, "x" * (5_000_001), "large.json")
    assert check(capsys, large) == (2, "", f"flowyard check: {large} is larger than 5 MB.\n")
    latin = write(tmp_path, b'{"name": "caf\xe9"}', "latin.json")
    assert check(capsys, latin) == (2, "", f"flowyard check: {latin} is not UTF-8 at byte 13.\n")
    missing = str(tmp_path / "missing.json")
    assert check(capsys, missing) == (
        2,
        "",
        f"flowyard check: {missing} cannot be read: No such file or directory.\n",
    )
    folder = str(tmp_path)
    assert check(capsys, folder) == (2, "", f"flowyard check: {folder} cannot be read: Is a directory.\n")


def test_a_literal_until_is_checked_against_the_current_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = flow("t:trigger d:delay", wires="t>d")
    document["nodes"][1]["config"] = {"until": "9999-01-01T00:00:00Z"}
    status, out, err = check(capsys, write(tmp_path, json.dumps(document)), "--json")
    assert (status, err) == (1, "")
    assert [(row["code"], row["node"]) for row in json.loads(out)["findings"]] == [
        ("node_config_invalid", "d")
    ]
