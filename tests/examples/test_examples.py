"""Every flow in examples/ is valid and walks, with the sample input examples/README.md gives, to its path.

The walk is `flowyard walk --json`'s, in process: the pure walker, a JSON round trip at every pause, no
database and no side effects.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from backend.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# One table row per example: | `file.json` | what it shows | ... `{sample input}` |
ROW = re.compile(r"^\| `(?P<file>[a-z-]+\.json)` \|.*`(?P<input>\{.*\})` \|$", re.MULTILINE)

# Both approvals of the parallel example are asked before either is answered, and answered in either order.
PARALLEL_ASKED = ["start", "both", "legal", "finance"]
# Per example: the answers given at its approvals, and the path the walk takes (node ids, in visit order).
WALKS: dict[str, list[tuple[list[str], str, list[str]]]] = {
    "invoice-approval.json": [
        (["ask=approve"], "succeeded", ["start", "ask", "has_url", "pay", "paid"]),
        (["ask=reject"], "succeeded", ["start", "ask", "rejected"]),
        (["ask=timeout"], "succeeded", ["start", "ask", "rejected"]),
        ([], "waiting", ["start", "ask"]),
    ],
    "reminder.json": [([], "succeeded", ["start", "noted", "wait", "remind", "sent"])],
    "order-lines.json": [
        (["ask=approve"], "succeeded", ["start", "each", "big", "small", "big", "ask", "keep", "done"]),
        (["ask=reject"], "succeeded", ["start", "each", "big", "small", "big", "ask", "drop", "done"]),
    ],
    "webhook-order.json": [([], "succeeded", ["start", "received", "has_url", "confirm", "confirmed"])],
    "weekly-report.json": [([], "succeeded", ["start", "report", "sent"])],
    "parallel-approvals.json": [
        (
            ["finance=approve", "legal=approve"],
            "succeeded",
            [
                "start",
                "both",
                "legal",
                "finance",
                "finance_yes",
                "legal_yes",
                "legal_ok",
                "finance_ok",
                "pay",
                "paid",
            ],
        ),
        (
            ["legal=approve", "finance=reject"],
            "succeeded",
            [*PARALLEL_ASKED, "legal_yes", "legal_ok", "finance_ok", "finance_refused"],
        ),
        (
            ["legal=reject", "finance=approve"],
            "succeeded",
            [*PARALLEL_ASKED, "finance_yes", "legal_ok", "legal_refused"],
        ),
        ([], "waiting", PARALLEL_ASKED),
    ],
}


def samples() -> dict[str, str]:
    text = (EXAMPLES / "README.md").read_text(encoding="utf-8")
    return {m["file"]: m["input"] for m in ROW.finditer(text)}


def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main([*args, "--json"])
    captured = capsys.readouterr()
    assert captured.err == ""
    return code, json.loads(captured.out)


def test_the_readme_lists_every_example_with_a_sample_input_and_five_at_least() -> None:
    files = {path.name for path in EXAMPLES.glob("*.json")}
    assert set(samples()) == files == set(WALKS)
    assert len(files) >= 5


@pytest.mark.parametrize("name", sorted(WALKS))
def test_each_example_is_valid_and_walks_its_sample_to_the_expected_path(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = str(EXAMPLES / name)
    code, checked = run_cli(capsys, "check", path)
    assert (code, checked) == (0, {"valid": True, "findings": [], "warnings": []})
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    assert document["description"], "each example says what it shows"
    for answers, status, visits in WALKS[name]:
        args = [arg for answer in answers for arg in ("--answer", answer)]
        code, walked = run_cli(capsys, "walk", path, "--input", samples()[name], *args)
        assert (walked["status"], walked["error"], walked["visits"]) == (status, None, visits), answers
        assert code == 0


def test_the_invoice_without_a_payment_url_sends_nothing_and_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sample = json.loads(samples()["invoice-approval.json"])
    del sample["payment_url"]
    path = str(EXAMPLES / "invoice-approval.json")
    code, walked = run_cli(capsys, "walk", path, "--input", json.dumps(sample), "--answer", "ask=approve")
    assert (code, walked["status"]) == (0, "succeeded")
    assert walked["visits"] == ["start", "ask", "has_url", "approved"]
    assert not [line for line in walked["journal"] if line["code"] == "action_requested"]


def test_the_order_example_asks_once_per_line_over_the_limit(capsys: pytest.CaptureFixture[str]) -> None:
    lines = [{"sku": f"s{i}", "quantity": 1, "amount": amount} for i, amount in enumerate([900, 10, 600])]
    path = str(EXAMPLES / "order-lines.json")
    payload = json.dumps({"order": "O-1", "lines": lines})
    code, walked = run_cli(
        capsys, "walk", path, "--input", payload, "--answer", "ask=approve", "--answer", "ask=reject"
    )
    assert (code, walked["status"]) == (0, "succeeded")
    logged = [line["data"]["message"] for line in walked["journal"] if line["code"] == "log_written"]
    # A walk's answers have no decider (`{{ask.decided_by}}` is missing, so empty); a worker's have one.
    assert logged == [
        "Line s0 approved by ",
        "Line s1 is under the limit",
        "Line s2 rejected by ",
        "Order O-1: every line decided",
    ]
