"""`flowyard check` down to the words, and a flow document loaded for the walker: every field kept."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from backend.console import InputRefused, read_input
from backend.graph.model import DEFAULT_PORT, Flow, Node
from backend.i18n import message
from tests.graph.test_cli import VALID, check, write
from tests.support import flow


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ('{"name": NaN}', "NaN and Infinity are not numbers in JSON"),
        ('{"name": -Infinity}', "NaN and Infinity are not numbers in JSON"),
        ("[" * 100_000 + "]" * 100_000, "Values are nested more than 100 levels deep"),
        ('{"a": 1,\n "b": }', "The text breaks off or is malformed at line 2, column 7"),
        ('{"a": "\\u0000"}', "A text holds a character that cannot be stored (NUL or a lone surrogate)"),
    ],
)
def test_json_that_is_no_flow_file_says_why(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, reason: str
) -> None:
    """The reason is the catalog's sentence of the strict reader's refusal (`flowyard check` speaks
    English, FLOW_FORMAT's contract), never Python's own words."""
    path = write(tmp_path, content)
    status, out, err = check(capsys, path)
    assert (status, out) == (2, "")
    assert err == f"flowyard check: {path} is not JSON: {reason}.\n"


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda folder: folder / "absent.json", "There is no such file"),
        (lambda folder: folder, "It is a folder, not a file"),
    ],
)
def test_a_file_that_cannot_be_read_says_why_in_the_catalogs_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], make: Callable[[Path], Path], reason: str
) -> None:
    path = str(make(tmp_path))
    assert check(capsys, path) == (2, "", f"flowyard check: {path} cannot be read: {reason}.\n")


@pytest.mark.parametrize(
    ("text", "locale", "said"),
    [
        ("{", "de", "--input ist kein JSON: Der Text bricht ab oder ist fehlerhaft in Zeile 1, Spalte 2."),
        ('{"a": NaN}', "ja", "NaN と Infinity は JSON の数値ではありません"),
        ('{"a": 1, "a": 2}', "fr", "La clé « a » apparaît deux fois dans un même objet"),
    ],
)
def test_input_that_is_no_json_is_refused_in_the_readers_language(text: str, locale: str, said: str) -> None:
    with pytest.raises(InputRefused) as refused:
        read_input(text)
    assert refused.value.code == "walk_input_invalid"
    sentence = message(refused.value.code, locale, **refused.value.params)
    assert said in sentence and "Expecting" not in sentence


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
    "file_problem_missing": "missing.",
    "file_problem_folder": "a folder.",
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
        f"flowyard check: {missing} cannot be read: missing.\n",
    )
    folder = str(tmp_path)
    assert check(capsys, folder) == (2, "", f"flowyard check: {folder} cannot be read: a folder.\n")


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
