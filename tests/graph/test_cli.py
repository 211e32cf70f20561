"""`flowyard check FLOW.json [--json]` end to end: exit codes, output, and files that are no flow."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from backend.cli import main
from backend.graph.cli import MAX_FILE_BYTES
from tests.support import flow

VALID = flow("t:trigger a:log", wires="t>a")
BROKEN = flow("t:trigger a:log b:log c:break", wires="t>a a>b b>a t>c")


def write(tmp_path: Path, content: str | bytes, name: str = "flow.json") -> str:
    path = tmp_path / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return str(path)


def check(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["check", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_installed_command_checks_a_file(tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps(BROKEN))
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "check", path, "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr == ""
    assert [row["code"] for row in json.loads(done.stdout)["findings"]] == ["cycle", "break_outside_loop"]


def test_a_valid_flow_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, json.dumps(VALID))
    code, out, err = check(capsys, path)
    assert (code, err) == (0, "")
    assert out.startswith(f"{path}: ") and out.count("\n") == 1
    code, out, _ = check(capsys, path, "--json")
    assert (code, json.loads(out)) == (0, {"valid": True, "findings": [], "warnings": []})


def test_findings_exit_1_one_line_each(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, json.dumps(BROKEN))
    code, out, err = check(capsys, path)
    assert (code, err) == (1, "")
    assert [line.split(": ")[1] for line in out.splitlines()] == ["cycle", "break_outside_loop"]
    assert all(line.startswith(f"{path}: ") for line in out.splitlines())


def test_json_output_is_exactly_the_contract(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, json.dumps(BROKEN))
    code, out, _ = check(capsys, path, "--json")
    printed: dict[str, Any] = json.loads(out)
    assert code == 1
    assert list(printed) == ["valid", "findings", "warnings"] and printed["valid"] is False
    assert [list(row) for row in printed["findings"]] == [["code", "node", "wire", "message"]] * 2
    assert printed["findings"][0]["node"] == "a" and printed["findings"][0]["wire"] == 2
    assert printed["findings"][1] == {
        "code": "break_outside_loop",
        "node": "c",
        "wire": None,
        "message": printed["findings"][1]["message"],
    }


def test_json_that_is_no_flow_is_findings_not_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = check(capsys, write(tmp_path, "[1, 2]"), "--json")
    assert (code, err) == (1, "")
    assert [row["code"] for row in json.loads(out)["findings"]] == ["format_invalid"]


def test_a_byte_order_mark_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = check(capsys, write(tmp_path, b"\xef\xbb\xbf" + json.dumps(VALID).encode()))
    assert (code, err) == (0, "")


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ('{"format": ', "flow_file_not_json"),
        ("", "flow_file_not_json"),
        ('{"name": NaN}', "flow_file_not_json"),
        ('{"name": Infinity}', "flow_file_not_json"),
        ("[" * 100_000 + "]" * 100_000, "flow_file_not_json"),
        (b'{"name": "caf\xe9"}', "flow_file_not_utf8"),
        (b"\xff\xfe{}", "flow_file_not_utf8"),
        ('{"name": "a", "nodes": [], "name": "b"}', "flow_file_key_duplicate"),
    ],
)
def test_a_file_that_is_no_json_document_is_one_line_on_stderr_and_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    content: str | bytes,
    code: str,
) -> None:
    monkeypatch.setattr("backend.i18n.catalogs.catalog", lambda locale: {})  # the sentence is the code
    status, out, err = check(capsys, write(tmp_path, content))
    assert (status, out) == (2, "")
    assert err == f"flowyard check: {code}\n"


def test_the_error_line_is_the_catalog_sentence_with_the_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sentences = {
        "flow_file_not_json": "{path} is not JSON: {reason}.",
        "json_problem_syntax": "it breaks off at line {line}, column {column}.",
    }
    monkeypatch.setattr("backend.i18n.catalogs.catalog", lambda locale: sentences)
    path = write(tmp_path, '{"a": 1,\n "b": }')
    status, _, err = check(capsys, path)
    assert status == 2
    assert err == f"flowyard check: {path} is not JSON: it breaks off at line 2, column 7.\n"


def test_a_file_over_5_mb_is_refused_before_it_is_parsed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    padded = json.dumps(VALID)[:-1] + ', "description": "' + "x" * MAX_FILE_BYTES + '"}'
    status, out, err = check(capsys, write(tmp_path, padded))
    assert (status, out) == (2, "") and err.count("\n") == 1 and "Traceback" not in err
    at_limit = json.dumps(VALID)[:-1] + ', "description": "'
    at_limit += "x" * (MAX_FILE_BYTES - len(at_limit) - 2) + '"}'
    assert len(at_limit.encode()) == MAX_FILE_BYTES
    status, _, err = check(capsys, write(tmp_path, at_limit, "at_limit.json"))
    assert (status, err) == (0, "")


@pytest.mark.parametrize("name", ["missing.json", "."])
def test_a_missing_or_unreadable_path_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    status, out, err = check(capsys, str(tmp_path / name))
    assert (status, out) == (2, "")
    assert err.startswith("flowyard check: ") and err.count("\n") == 1


def test_text_the_terminal_cannot_encode_is_escaped_not_raised(tmp_path: Path) -> None:
    path = write(tmp_path, json.dumps(BROKEN), name="fl\u00f6w.json")
    done = subprocess.run(
        [sys.executable, "-m", "backend.cli", "check", path],
        capture_output=True,
        env={"PYTHONIOENCODING": "ascii"},
        check=False,
    )
    assert (done.returncode, done.stderr) == (1, b"")
    assert done.stdout.splitlines()[0].startswith(str(tmp_path).encode() + b"/fl\\xf6w.json: cycle: ")


def test_check_lists_the_first_findings_of_an_adversarial_flow_and_counts_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from bench.adversarial import shared_body

    path = write(tmp_path, json.dumps(shared_body()))
    code, out, _ = check(capsys, path, "--json")
    findings = json.loads(out)["findings"]
    # Issue 12: a million `loop_body_leaks`; now the first 200 of the 998, and the count of the others.
    assert (code, len(findings), findings[-1]["code"]) == (1, 201, "findings_truncated")
    assert "798" in findings[-1]["message"]
    monkeypatch.setenv("FLOWYARD_MAX_FINDINGS", "3")
    code, out, _ = check(capsys, path)
    assert out.count(": loop_body_leaks: ") == 3
    assert out.splitlines()[-1].startswith(f"{path}: findings_truncated: ")
