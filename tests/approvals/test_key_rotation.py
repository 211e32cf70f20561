"""The signing key rotated (docs/audit.md, "Rotating the signing key"): each signed line and evidence file
names its key; `audit verify` and `audit check-evidence` accept what any known key signed (the signing
key, a retired one kept in FLOWYARD_RETIRED_SIGNING_KEYS, the auditor's `--public-key`s) and refuse a key
they do not know with its reason code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from backend.approvals.evidence_page import split
from backend.approvals.signing import key_id
from tests.approvals import test_chain
from tests.approvals.test_signed_heads import Decided, audit, checked, codes
from tests.support import Queue

decided = test_chain.decided  # the fixture: three decided approvals through the real queue


def rotated(queue: Queue, data_dir: Path) -> tuple[str, str]:
    """Heads signed with a first key, the key retired (its file moved away), the heads signed again with
    the key made in its place: the old and the new public keys."""
    assert audit(queue, data_dir, "sign").returncode == 0
    old = audit(queue, data_dir, "public-key").stdout.strip()
    (data_dir / "signing.key").rename(data_dir / "signing.key.retired")
    assert audit(queue, data_dir, "sign").returncode == 0
    new = audit(queue, data_dir, "public-key").stdout.strip()
    assert old != new
    return old, new


def test_lines_signed_by_a_retired_key_hold_when_it_is_known(decided: Decided, tmp_path: Path) -> None:
    queue, flow_id, _ = decided
    old, new = rotated(queue, tmp_path)
    lines = [json.loads(line) for line in (tmp_path / "signed-heads.jsonl").read_text().splitlines()]
    assert [line["key_id"] for line in lines] == [key_id(old), key_id(new)]

    unknown = checked(queue, tmp_path, flow_id)
    assert codes(unknown) == ["signed_heads_unknown_key"] and unknown["breaks"][0]["seq"] == 1
    result = audit(queue, tmp_path, "verify", "--flow", str(flow_id))
    assert result.returncode == 1 and "(signed_heads_unknown_key)" in result.stderr

    kept = audit(
        queue, tmp_path, "verify", "--flow", str(flow_id), "--json", FLOWYARD_RETIRED_SIGNING_KEYS=old
    )
    assert json.loads(kept.stdout)["intact"] is True and json.loads(kept.stdout)["signed"] == 2
    both = checked(queue, tmp_path, flow_id, "--public-key", old, "--public-key", new)
    assert both["intact"] is True and both["signed"] == 2
    assert codes(checked(queue, tmp_path, flow_id, "--public-key", new)) == ["signed_heads_unknown_key"]


def test_a_retired_key_that_is_not_a_key_is_refused(decided: Decided, tmp_path: Path) -> None:
    queue, flow_id, _ = decided
    result = audit(
        queue, tmp_path, "verify", "--flow", str(flow_id), FLOWYARD_RETIRED_SIGNING_KEYS="not-a-key"
    )
    assert result.returncode != 0 and "(setting_invalid)" in result.stderr


def check_evidence(page: Path, *keys: str) -> subprocess.CompletedProcess[str]:
    given = [arg for key in keys for arg in ("--public-key", key)]
    return subprocess.run(
        [sys.executable, "-m", "backend.cli", "audit", "check-evidence", str(page), *given],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "LANG": "C"},  # no database, no data folder: the keys alone
        timeout=120,
        check=False,
    )


def test_evidence_signed_before_a_rotation_holds_with_the_old_key_among_the_keys_given(
    decided: Decided, tmp_path: Path
) -> None:
    queue, _, approvals = decided
    page = tmp_path / "evidence.html"
    made = audit(queue, tmp_path, "evidence", str(approvals[0]), "--output", str(page))
    assert made.returncode == 0, made.stderr
    old, new = rotated(queue, tmp_path)
    assert split(page.read_bytes())[1]["manifest"]["key_id"] == key_id(old)

    assert check_evidence(page, new, old).returncode == 0
    refused = check_evidence(page, new)
    assert refused.returncode == 1 and "(evidence_unknown_key)" in refused.stderr
