"""The evidence for one decision from the pages (issue 38): an auditor of the flow finds it on the audit
page and on the approval's page, in German; the file downloaded checks with the public key alone."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import FLOWYARD, SCREENSHOTS, log_in


@pytest.fixture(scope="module")
def data_dir() -> Iterator[Path]:
    """The server's data folder: the key it signs with, which the test then asks for the public key."""
    with tempfile.TemporaryDirectory(prefix="flowyard-evidence-") as folder:
        yield Path(folder)


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str, data_dir: Path) -> Iterator[Story]:
    env = {"FLOWYARD_DATA_DIR": str(data_dir)}
    with story_server(pg_server_url, template_database, "evidence", env) as running:
        yield running


def test_an_auditor_downloads_the_evidence_and_it_checks(
    browser: Browser, story: Story, data_dir: Path, tmp_path: Path
) -> None:
    story.server.user("greta", "edit", "run", "audit")
    story.server.user("dora", "run", "decide", groups=("finance",))
    story.set_locale("greta", "de")
    with story.api(story.token("greta")) as api:
        flow_id = api.post("/api/flows", json=invoice_flow(story.receiver.url)).json()["id"]
        api.post(f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "E-7", "amount": 98000}})
    with story.api(story.token("dora")) as api:
        waiting = api.get("/api/approvals").json()["approvals"]
        assert [a["title"] for a in waiting] == ["Pay invoice E-7?"], waiting
        decided = api.post(
            f"/api/approvals/{waiting[0]['id']}/decision",
            json={"outcome": "approve", "approval": waiting[0]["id"], "seen": waiting[0]["digest"]},
        )
        assert decided.status_code == 200, decided.text
    approval = waiting[0]["id"]

    page = log_in(browser, story.server, "greta", locale="de-DE", at="/audit")
    row = page.locator(f"tr[data-approval='{approval}']")
    link = row.get_by_role("link", name="Nachweis (Datei)")
    expect(link).to_be_visible(timeout=60_000)
    page.screenshot(path=str(SCREENSHOTS / "audit-evidence-de.png"), full_page=True)
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == f"flowyard-evidence-{approval}.html"
    assert "Nachweis für Genehmigung" in saved.read_text(encoding="utf-8")

    env = {**os.environ, "FLOWYARD_DATA_DIR": str(data_dir), "DATABASE_URL": story.server.database_url}
    key = subprocess.run(
        [str(FLOWYARD), "audit", "public-key"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout.strip()
    checked = subprocess.run(
        [str(FLOWYARD), "audit", "check-evidence", str(saved), "--public-key", key],
        env={"PATH": "/usr/bin:/bin", "LANG": "C"},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert checked.returncode == 0, checked.stderr

    # The approval's own page offers it too; a decider who may not audit is offered nothing.
    page.goto(f"/approvals/{approval}")
    expect(page.get_by_role("link", name="Nachweis (Datei)")).to_be_visible()
    page.context.close()
    other = log_in(browser, story.server, "dora", at=f"/approvals/{approval}")
    expect(other.get_by_role("status")).to_contain_text("dora")
    expect(other.get_by_role("link", name="Evidence (file)")).to_have_count(0)
    other.context.close()
