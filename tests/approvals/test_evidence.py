"""Evidence for one decision (issue 38): a file made from the database, checked with the public key alone.

One byte changed in any part of it (the chain records, the signed head, the run, the flow version, the
rights, the readable page) is refused with that part named; so is a file held to another key, or one
whose manifest was changed to match.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from backend.approvals.evidence_page import assemble, split
from tests.approvals.test_decisions import approval_flow, decide, user
from tests.support import Queue

TITLE_INPUT = "<script>alert(1)</script>"


def flowyard(queue: Queue, data_dir: Path, *args: str, lang: str = "C") -> subprocess.CompletedProcess[str]:
    env = {
        "DATABASE_URL": queue.url,
        "PATH": "/usr/bin:/bin",
        "FLOWYARD_DATA_DIR": str(data_dir),
        "LANG": lang,
    }
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


@pytest.fixture(scope="module")
def decided(database_url: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Queue, int, int, str]:
    """A decided approval whose title holds markup, and the public key of the module's data folder."""
    tmp_path = data_dir(tmp_path_factory)
    queue = Queue(database_url)
    flow_id = queue.save(approval_flow())
    ann = user(queue, f"ann{flow_id}", "decide")
    run_id = queue.start(flow_id, input={"id": TITLE_INPUT, "api_token": "s3cret"})
    queue.clock.advance(timedelta(minutes=1))
    queue.drain()
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert row is not None, (queue.status(run_id), queue.codes(run_id))
    decide(queue, row[0], "approved", ann)
    queue.drain()
    key = flowyard(queue, tmp_path, "audit", "public-key").stdout.strip()
    assert key
    return queue, flow_id, row[0], key


def data_dir(factory: pytest.TempPathFactory) -> Path:
    """The module's data folder: its signing key and signed heads, shared by its tests."""
    return factory.getbasetemp() / "evidence-data"


@pytest.fixture(scope="module")
def page(decided: tuple[Queue, int, int, str], tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The evidence of the decided approval, in English, made once for the module."""
    queue, _, approval, _ = decided
    return make(queue, data_dir(tmp_path_factory), approval)


def make(queue: Queue, data_dir: Path, approval: int, lang: str = "C") -> bytes:
    path = data_dir / f"evidence-{approval}-{lang}.html"
    made = flowyard(queue, data_dir, "audit", "evidence", str(approval), "--output", str(path), lang=lang)
    assert made.returncode == 0, made.stderr
    return path.read_bytes()


def check(tmp_path: Path, page: bytes, key: str, lang: str = "C") -> subprocess.CompletedProcess[str]:
    path = tmp_path / "checked.html"
    path.write_bytes(page)
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", "audit", "check-evidence", str(path), "--public-key", key],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "LANG": lang},  # no database, no data folder: the key alone
        timeout=120,
        check=False,
    )


def test_the_evidence_is_readable_in_german_and_holds_with_the_public_key_alone(
    decided: tuple[Queue, int, int, str], tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    queue, flow_id, approval, key = decided
    folder = data_dir(tmp_path_factory)
    page = make(queue, folder, approval, lang="de_DE.UTF-8")
    assert (folder / "signed-heads.jsonl").exists(), "no line covered the decision: it was signed now"
    rendering, data = split(page)
    text = rendering.decode()
    assert f"Nachweis für Genehmigung {approval}" in text and "Entschieden von" in text
    assert "Decided by" not in text and "Evidence for" not in text
    assert "<script>alert" not in text and "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "s3cret" not in page.decode(), "a credential of the input is masked in the data and the page"
    assert set(data["parts"]) == {"chain", "signed_head", "run", "flow", "rights"}
    assert data["parts"]["run"]["input"]["api_token"] != "s3cret"
    assert data["parts"]["flow"]["document"]["nodes"][1]["id"] == "ask"
    assert data["parts"]["rights"]["users"] == [f"ann{flow_id}"]

    checked = check(tmp_path, page, key, lang="ja_JP.UTF-8")
    assert checked.returncode == 0, checked.stderr
    assert f"承認 {approval} の証拠は有効です" in checked.stdout


def _change(page: bytes, part: str) -> bytes:
    """One character of one part changed, the rest of the file as it was."""
    rendering, data = split(page)
    parts: dict[str, Any] = data["parts"]
    if part == "rendering":
        return assemble(rendering.replace(b"<h1>", b"<h1>X", 1), data)
    if part == "chain":
        record = parts["chain"]["records"][0]
        record["content"] = (
            record["content"].replace('"approved"', '"rejected"').replace('"approve"', '"reject"')
        )
    elif part == "signed_head":
        parts["signed_head"] = parts["signed_head"].replace('"seq":', '"seq":1', 1)
    elif part == "run":
        parts["run"]["started_by"] = "mallory"
    elif part == "flow":
        parts["flow"]["document"]["name"] += "!"
    elif part == "rights":
        parts["rights"]["records"][0]["content"] += " "  # one byte more
    return assemble(rendering, data)


@pytest.mark.parametrize("part", ["chain", "signed_head", "run", "flow", "rights", "rendering"])
def test_one_change_in_any_part_is_refused_with_the_part_named(
    decided: tuple[Queue, int, int, str], page: bytes, tmp_path: Path, part: str
) -> None:
    key = decided[3]
    assert check(tmp_path, page, key).returncode == 0
    changed = _change(page, part)
    assert changed != page
    refused = check(tmp_path, changed, key)
    assert refused.returncode == 1
    assert refused.stderr.count("(evidence_part_changed)") == 1, refused.stderr
    names = {
        "chain": "the chain records",
        "signed_head": "the signed head",
        "run": "the run",
        "flow": "the flow version",
        "rights": "the rights",
        "rendering": "the readable page",
    }
    assert names[part] in refused.stderr


def test_a_data_block_closed_early_is_refused(
    decided: tuple[Queue, int, int, str], page: bytes, tmp_path: Path
) -> None:
    """The title holds "</script>": written as "<\\/script>" it parses to the same data, but a browser would
    end the data block there and show what follows as markup."""
    key = decided[3]
    assert b"<\\/script>" in page
    opened = page.replace(b"<\\/script>", b"</script>")
    assert split(opened)[1] == split(page)[1], "the data itself is the same"
    refused = check(tmp_path, opened, key)
    assert refused.returncode == 1 and "(evidence_part_changed)" in refused.stderr
    assert "the readable page" in refused.stderr


def test_a_manifest_changed_to_match_or_another_key_is_refused(
    decided: tuple[Queue, int, int, str], page: bytes, tmp_path: Path
) -> None:
    from backend.approvals.evidence import digest

    queue, _, _, key = decided
    rendering, data = split(page)
    data["parts"]["run"]["started_by"] = "mallory"
    data["manifest"]["parts"]["run"] = digest(data["parts"]["run"])
    refused = check(tmp_path, assemble(rendering, data), key)
    assert refused.returncode == 1 and "(evidence_signature_invalid)" in refused.stderr
    assert "(evidence_part_changed)" not in refused.stderr

    other = flowyard(queue, tmp_path / "other", "audit", "public-key").stdout.strip()
    assert other != key
    refused = check(tmp_path, page, other)
    assert refused.returncode == 1 and "(evidence_unknown_key)" in refused.stderr
    garbage = check(tmp_path, b"<html>not evidence</html>", key)
    assert garbage.returncode == 1 and "(evidence_invalid)" in garbage.stderr


def test_an_undecided_approval_has_no_evidence(database_url: str, tmp_path: Path) -> None:
    queue = Queue(database_url)
    flow_id = queue.save(approval_flow())
    run_id = queue.start(flow_id, input={"id": "open"})
    queue.clock.advance(timedelta(minutes=1))
    queue.drain()
    row = queue.one("SELECT id FROM approvals WHERE run_id = %s", run_id)
    assert row is not None
    refused = flowyard(queue, tmp_path, "audit", "evidence", str(row[0]))
    assert refused.returncode == 1 and "(evidence_not_decided)" in refused.stderr
    assert not list(tmp_path.glob("evidence-*.html"))


def test_the_api_gives_the_evidence_to_an_auditor_only(
    decided: tuple[Queue, int, int, str], tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from tests.api.support import app_client, auth, make_user

    queue, flow_id, approval, key = decided
    auditor = make_user(queue.url, f"auditor{flow_id}", f"audit:{flow_id}", f"decide:{flow_id}")
    decider = make_user(queue.url, f"decider{flow_id}", f"decide:{flow_id}")
    with app_client(queue.url, data_dir=data_dir(tmp_path_factory)) as client:
        given = client.get(
            f"/api/approvals/{approval}/evidence", headers={**auth(auditor), "Accept-Language": "ja"}
        )
        refused = client.get(f"/api/approvals/{approval}/evidence", headers=auth(decider))
    assert given.status_code == 200, given.text
    assert given.headers["content-type"].startswith("text/html")
    assert f'filename="flowyard-evidence-{approval}.html"' in given.headers["content-disposition"]
    assert f"承認 {approval} の証拠" in given.text
    assert refused.status_code == 403
    assert check(tmp_path, given.content, key).returncode == 0
    assert json.loads(split(given.content)[1]["parts"]["signed_head"])["public_key"] == key
