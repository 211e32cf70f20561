"""The rules by which a reason code is found in the source (docs/i18n.md), each on a small source text."""

from __future__ import annotations

from pathlib import Path

import pytest

from backend.i18n.codes import codes_in, node_type_keys, reason_codes


def codes(source: str) -> list[str]:
    return [use.code for use in codes_in(source)]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('report.add(code="cycle", node=n)', ["cycle"]),
        ('raise Failed(code="x_invalid", problem="problem_empty")', ["problem_empty", "x_invalid"]),
        ('said = problem("problem_minimum", limit=1)', ["problem_minimum"]),
        (
            'raise Invalid(code="continuation_invalid", reason="continuation_damaged")',
            ["continuation_damaged", "continuation_invalid"],
        ),
        ('raise WaitFailed(code="wait_corrupt")', ["wait_corrupt"]),
        ('answer = {"ok": False, "code": "database_unreachable"}', ["database_unreachable"]),
        ('print(message("flow_not_found"))', ["flow_not_found"]),
        ('print(catalogs.message("flow_not_found", "de"))', ["flow_not_found"]),
        ('code = failure.code if failed else "resume_error"', ["resume_error"]),
        ('code: str = "store_error"', ["store_error"]),
        ('Failure(code=a or "fallback")', ["fallback"]),
        ('code = {404: "not_found", 405: "gone"}[status]', ["gone", "not_found"]),
    ],
)
def test_each_form_of_a_code_is_found(source: str, expected: list[str]) -> None:
    assert codes(source) == expected  # sorted by line, then code


@pytest.mark.parametrize(
    "source",
    [
        "message(self.code, **params)",
        'raise Failure(code=f"http_{status}")',
        "code = failure.code",
        'send(status_code="x", codes="y")',
        'message = "flow_not_found"',
        '{"kode": "x", "message": "hi"}',
        '"""raise Failure(code="in_a_docstring")"""',
        'output.pop("code", None)',
    ],
)
def test_what_is_not_a_code_is_not_found(source: str) -> None:
    assert codes(source) == []


def test_a_variable_message_argument_or_a_keyword_named_otherwise_is_no_code() -> None:
    assert codes('message(code, "en"); Finding(detail="cycle"); {"message": "hi"}') == []


def test_the_keywords_passed_beside_a_code_are_kept_unless_a_mapping_is_spread() -> None:
    uses = codes_in('A(code="a", node=n, limit=3)\nB(code="b", **detail)\nmessage("c", "de", path=p)')
    assert [(use.code, use.line, use.params) for use in uses] == [
        ("a", 1, ("node", "limit")),
        ("b", 2, None),
        ("c", 3, ("path",)),
    ]


def test_reason_codes_walks_a_tree_and_names_each_place(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "a.py").write_text('raise E(code="one")\n')
    (tmp_path / "pkg" / "sub" / "b.py").write_text('\n\nx = {"code": "one"}; y = F(code="two")\n')
    found = reason_codes(tmp_path / "pkg")
    assert sorted(found) == ["one", "two"]
    assert [(use.path, use.line) for use in found["one"]] == [("pkg/a.py", 1), ("pkg/sub/b.py", 3)]


def test_node_type_keys_are_a_name_and_a_description_per_type_and_a_name_per_port() -> None:
    keys = node_type_keys({"approval": ("approve", "reject"), "http": ("out", "error"), "log": ("out",)})
    assert len(keys) == 3 * 2 + 4
    assert {"node_type_http_description", "port_out", "port_reject"} <= set(keys)
