"""The pseudo-locale en-XA (docs/i18n.md) over every page: every catalog sentence is accented, longer and in
brackets, so any visible text outside brackets did not come from the catalogs. A user whose own setting is
en-XA visits the login, the flows, the editor with a node of every type (each one's panel open, with its
findings), the walk, the run dialog, the versions and the comparison, the runs, a run page of a decided, a
failed and a waiting run, the inbox, a waiting and a decided approval, the audit page (its chain check and
evidence link) and the people page (its rights trail and tokens). What counts as outside the brackets, and
what is excepted (texts marked `translate="no"`: authors' and users' own words, and bare numbers), is
written in tests/browser/pseudo_support.py."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from backend.node_types import PORTS
from tests.browser.canvas import arrange, node
from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.pseudo_support import leaked, leaks, xa
from tests.browser.support import PASSWORD, SCREENSHOTS, log_in

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
READER = "pia"
READER_MAIL = "pia@example.com"


@dataclass
class World:
    """What the pages show: two versions of the invoice flow, its runs and approvals."""

    story: Story
    flow: int
    decided_run: int
    decided_approval: int
    waiting_run: int
    waiting_approval: int
    failed_run: int


@pytest.fixture(scope="module")
def world(pg_server_url: str, template_database: str) -> Iterator[World]:
    # The audit page's evidence link needs the server's signing key, which lives in its data folder.
    with (
        tempfile.TemporaryDirectory(prefix="flowyard-pseudo-") as data,
        story_server(pg_server_url, template_database, "pseudo", {"FLOWYARD_DATA_DIR": data}) as story,
    ):
        story.server.user(
            READER, "edit", "run", "decide", "audit", "admin", groups=("finance",), email=READER_MAIL
        )
        story.set_locale(READER, "en_XA")
        story.server.user("rex", "edit", "run")
        with story.api(story.token("rex")) as api:
            document = invoice_flow(story.receiver.url)
            flow = api.post("/api/flows", json=document).json()["id"]
            document["nodes"][1]["config"]["explanation"] = (
                "Amount {{trigger.amount}} EUR needs a second look"
            )
            assert api.put(f"/api/flows/{flow}", json=document).status_code in (200, 201)
            decided_run = api.post(f"/api/flows/{flow}/runs", json={"input": {"invoice": "A-1", "amount": 9}})
            waiting_run = api.post(f"/api/flows/{flow}/runs", json={"input": {"invoice": "B-2", "amount": 8}})
            # A foreach over what is not a list fails the run (foreach_items_invalid).
            lines = (EXAMPLES / "order-lines.json").read_text(encoding="utf-8")
            lines_flow = api.post("/api/flows", content=lines, headers={"Content-Type": "application/json"})
            failed_run = api.post(
                f"/api/flows/{lines_flow.json()['id']}/runs",
                json={"input": {"order": "O-1", "lines": "none"}},
            )

        def both_asked() -> bool:
            return len([m for _e, m in story.mailbox.messages if mail_to_reader(m)]) >= 2

        story.mailbox.wait_until(both_asked, "both approvals' mails to the reader")
        with story.api(story.token(READER)) as api:
            approvals = {a["title"]: a for a in api.get("/api/approvals").json()["approvals"]}
            first, second = approvals["Pay invoice A-1?"], approvals["Pay invoice B-2?"]
            answer = {"outcome": "approve", "approval": first["id"], "seen": first["digest"]}
            assert api.post(f"/api/approvals/{first['id']}/decision", json=answer).status_code == 200
        yield World(
            story,
            flow,
            decided_run.json()["run"],
            first["id"],
            waiting_run.json()["run"],
            second["id"],
            failed_run.json()["run"],
        )


def mail_to_reader(mail: Message) -> bool:
    return mail["To"] == READER_MAIL


def reader(browser: Browser, world: World) -> Page:
    """The reader, logged in with a browser that asks for en-XA too (what a page says before it knows
    who is reading comes from the browser's language)."""
    return log_in(browser, world.story.server, READER, locale="en-XA")


def looked(page: Page, name: str, found: dict[str, list[str]]) -> None:
    """What the page shows now, scanned (below the fold too) and kept under `name`, and a screenshot of
    the whole page, to look at how the longer sentences fit."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"pseudo-{name}.png"), full_page=True)
    found[name] = leaks(page)


def without_leaks(found: dict[str, list[str]]) -> None:
    leaked = {name: texts for name, texts in found.items() if texts}
    assert leaked == {}, "text outside the catalogs' brackets:\n" + "\n".join(
        f"{name}: {text}" for name, texts in leaked.items() for text in texts
    )


# The scan's rules (tests/browser/pseudo_support.py) on a page made for them, each line one rule.
RULES = """<!doctype html><html lang="en-XA"><body>
<p>[Ŀöööþ <a href="#">check_invoice</a> ƒîîîñîîîšĥéééð.]</p>
<p><span>[Ðéééàààðļîîîñééé]</span>: <span>soon</span></p>
<p>[Ƒîîîñðîîîñĝš] (3)</p>
<p>42</p><p>1,234.5</p><p>12:05</p>
<p translate="no">Invoice approval, <b>rex</b></p>
<p><span>[Àþþŕöṽéééð]</span>, <span>[Ŕéééĵéééçţéééð]</span>, and <span>[Šķîîîþþéééð]</span></p>
<label>[Ţîîîţļééé]<span>*</span></label><button aria-label="[Ŕéééṃöööṽééé]">&times;</button>
<p style="display: none">Hidden</p><p style="visibility: hidden">Hidden too</p>
<select><option>English choice</option></select><select><option translate="no">POST</option></select>
<input placeholder="type here"><input placeholder="[Ţýþééé]"><input placeholder="filled" value="x">
<p>Save</p>
</body></html>"""


def test_the_scan_finds_what_a_reader_would_see_outside_the_catalogs(browser: Browser) -> None:
    page = browser.new_page()
    page.set_content(RULES)
    assert [leak["text"] for leak in leaked(page)] == [
        ":",
        "soon",
        "[Ƒîîîñðîîîñĝš] (3)",
        "Save",
        "English choice",
        "type here",
    ]
    page.close()


def test_login_and_flows(browser: Browser, world: World) -> None:
    found: dict[str, list[str]] = {}
    context = browser.new_context(
        base_url=world.story.server.url, locale="en-XA", viewport={"width": 1400, "height": 900}
    )
    page = context.new_page()
    page.goto("/login")
    page.locator("input[name=password]").wait_for()
    looked(page, "login", found)
    page.locator("input[name=name]").fill(READER)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("button[type=submit]").click()
    page.wait_for_url("**/flows")
    expect(page.locator(f"table.flows tr:has(a[href='/flows/{world.flow}'])")).to_be_visible()
    expect(page.locator("section.templates li").first).to_be_visible()
    assert page.locator("html").get_attribute("lang") == "en-XA"
    looked(page, "flows", found)
    page.get_by_role("button", name=xa("ui_flows_create"), exact=True).click()
    expect(page.get_by_role("dialog")).to_be_visible()
    looked(page, "new-flow-dialog", found)
    context.close()
    without_leaks(found)


def test_the_editor_with_every_node_types_panel(browser: Browser, world: World) -> None:
    found: dict[str, list[str]] = {}
    page = reader(browser, world)
    page.get_by_role("button", name=xa("ui_flows_create"), exact=True).click()
    page.get_by_role("dialog").get_by_role("textbox").first.fill("every type")
    page.get_by_role("dialog").locator("button.primary").click()
    page.wait_for_url("**/flows/new")
    expect(node(page, "start")).to_be_visible()
    # Each one added unwired and unset: every node has findings, which its panel and the list show.
    for type_name in PORTS:
        if type_name != "trigger":
            page.locator(f".palette button[data-type={type_name}]").click()
    arrange(page, xa("ui_toolbar_layout"))
    page.get_by_role("button", name=xa("ui_toolbar_fit")).click()
    looked(page, "editor", found)
    heading = page.locator("section.config h2")
    for type_name in PORTS:
        card = page.locator(".react-flow__node").filter(
            has=page.get_by_text(xa(f"node_type_{type_name}"), exact=True)
        )
        card.first.click()
        expect(heading).to_contain_text(xa(f"node_type_{type_name}"))
        looked(page, f"panel-{type_name}", found)
    node(page, "start").click()
    page.get_by_label(xa("ui_field_kind")).select_option(label=xa("ui_choice_kind_webhook"))
    expect(page.locator("#webhook-title")).to_be_visible()
    looked(page, "panel-trigger-webhook", found)
    page.get_by_label(xa("ui_field_kind")).select_option(label=xa("ui_choice_kind_schedule"))
    page.get_by_label(xa("ui_field_cron")).fill("0 9 * * 1")
    expect(page.locator(".next-fires li")).to_have_count(5)
    looked(page, "panel-trigger-schedule", found)

    page.get_by_role("button", name=xa("ui_toolbar_rename")).click()
    expect(page.get_by_role("dialog")).to_be_visible()
    looked(page, "rename-dialog", found)
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    page.locator(".react-flow__pane").click()
    page.keyboard.press("Control+k")
    find = page.get_by_role("dialog")
    find.get_by_role("textbox").fill("a")
    expect(find.get_by_role("button").first).to_be_visible()
    looked(page, "find-dialog", found)
    page.keyboard.press("Escape")
    page.get_by_role("button", name=xa("ui_toolbar_list_view")).click()
    expect(page.locator(".list-view")).to_be_visible()
    looked(page, "list-view", found)
    page.context.close()
    without_leaks(found)


def test_walk_run_dialog_versions_and_comparison(browser: Browser, world: World) -> None:
    found: dict[str, list[str]] = {}
    page = reader(browser, world)
    page.goto(f"/flows/{world.flow}")
    walk = page.locator("section.walk")
    walk.locator("textarea").fill('{"invoice": "W-3", "amount": 7}')
    walk.get_by_role("button", name=xa("ui_walk_start"), exact=True).click()
    expect(walk.locator(".walk-pause")).to_be_visible()
    looked(page, "walk-paused", found)
    walk.locator(".walk-pause button").first.click()
    expect(walk.locator(".walk-visits")).to_be_visible()
    looked(page, "walk-done", found)

    page.get_by_role("button", name=xa("ui_toolbar_run")).click()
    expect(page.get_by_role("dialog")).to_be_visible()
    looked(page, "run-dialog", found)
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)

    versions = page.locator("section.versions")
    versions.get_by_role("button", name=xa("ui_versions_compare", version=1)).click()
    expect(page.locator(".diff-changed").first).to_be_visible()
    page.locator(".diff-changed").first.scroll_into_view_if_needed()
    looked(page, "compare", found)
    versions.get_by_role("button", name=xa("ui_versions_open", version=1)).click()
    expect(page.get_by_text(xa("ui_versions_viewing", version=1))).to_be_visible()
    looked(page, "version-open", found)
    page.context.close()
    without_leaks(found)


def test_runs_and_run_pages(browser: Browser, world: World) -> None:
    found: dict[str, list[str]] = {}
    page = reader(browser, world)
    status = page.locator("[data-status]")
    for name, run, state in (
        ("run-decided", world.decided_run, "succeeded"),
        ("run-waiting", world.waiting_run, "waiting"),
        ("run-failed", world.failed_run, "failed"),
    ):
        page.goto(f"/runs/{run}")
        expect(status).to_have_attribute("data-status", state, timeout=60_000)
        expect(page.locator("ol.journal > li").first).to_be_visible()
        looked(page, name, found)
    page.goto("/runs")
    expect(page.locator(f"tr[data-run='{world.failed_run}']")).to_be_visible()
    looked(page, "runs", found)
    page.context.close()
    without_leaks(found)


def test_inbox_and_approvals(browser: Browser, world: World) -> None:
    found: dict[str, list[str]] = {}
    page = reader(browser, world)
    page.goto("/inbox")
    expect(page.get_by_role("heading", name="Pay invoice B-2?")).to_be_visible()
    looked(page, "inbox", found)
    page.goto(f"/approvals/{world.waiting_approval}")
    expect(page.get_by_role("heading", name="Pay invoice B-2?")).to_be_visible()
    looked(page, "approval-waiting", found)
    page.goto(f"/approvals/{world.decided_approval}")
    expect(page.get_by_role("status")).to_contain_text(READER)
    looked(page, "approval-decided", found)
    page.context.close()
    without_leaks(found)


def test_audit_and_people(browser: Browser, world: World) -> None:
    found: dict[str, list[str]] = {}
    page = reader(browser, world)
    page.goto("/audit")
    row = page.locator(f"tr[data-approval='{world.decided_approval}']")
    expect(row.get_by_role("link", name=xa("ui_evidence_download"))).to_be_visible(timeout=60_000)
    looked(page, "audit", found)
    page.get_by_role("button", name=xa("ui_audit_verify")).click()
    expect(page.locator(".chain-check [role=status]")).to_be_visible()
    looked(page, "audit-chain", found)
    page.goto("/people")
    expect(page.locator(f"tr[data-user='{READER}']")).to_be_visible()
    # The users were made with the command line: the trail says so in words, not by its actor's code name.
    expect(page.locator("table.trail-list")).to_contain_text(xa("ui_people_trail_cli"))
    looked(page, "people", found)
    page.context.close()
    without_leaks(found)


def test_the_first_login_gives_a_user_the_browsers_time_zone(browser: Browser, world: World) -> None:
    server = world.story.server
    server.user("tomo", "edit")
    context = browser.new_context(base_url=server.url, locale="ja-JP", timezone_id="Asia/Tokyo")
    page = context.new_page()
    page.goto("/login")
    page.locator("input[name=name]").fill("tomo")
    page.locator("input[name=password]").fill(PASSWORD)
    # The page stores the browser's zone once it has read the user (PUT /api/me): that answer is the sync.
    with page.expect_response(
        lambda answer: answer.url.endswith("/api/me") and answer.request.method == "PUT", timeout=60_000
    ) as stored:
        page.locator("button[type=submit]").click()
    assert stored.value.ok
    page.wait_for_url("**/flows")
    me = page.request.get("/api/me").json()
    assert me["time_zone"] == "Asia/Tokyo"
    context.close()
