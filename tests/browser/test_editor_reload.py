"""A newer version saved elsewhere while a flow is open: the editor's query fetches it again (here: the
browser back online), and unsaved edits stay, with a notice of the newer version; without unsaved edits,
the newer version is what the editor shows (flows/arrival.ts)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.api.support import approval_and_delay_flow
from tests.browser.canvas import node
from tests.browser.support import Dialogs, Server, log_in, screenshot


def open_flow(browser: Browser, server: Server, name: str, locale: str = "en-US") -> tuple[Page, int]:
    """`name` logged in, with a new flow of theirs open in the editor, at version 1."""
    server.user(name, "edit", "run")
    page = log_in(browser, server, name, locale=locale)
    flow_id = int(api(page, "POST", "/api/flows", approval_and_delay_flow())["id"])
    # The flow's query is fresh for 5 s (src/api/flows.ts): the clock jumps over that instead of waiting.
    page.clock.install()
    page.goto(f"/flows/{flow_id}")
    expect(page.get_by_role("heading", name="Pay approved invoices")).to_be_visible()
    return page, flow_id


def api(page: Page, method: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    answer = page.request.fetch(path, method=method, data=json.dumps(body), headers=headers)
    assert answer.ok, answer.text()
    result: dict[str, Any] = answer.json()
    return result


def edit(page: Page) -> Locator:
    """An unsaved edit the validator has nothing against: the log's message, in its panel."""
    node(page, "paid").click()
    message = page.locator(".config textarea")
    message.fill("paid twice {{trigger.invoice}}")
    expect(page.locator(".toolbar .dirty")).to_be_visible()
    return message


def newer_arrives(page: Page, flow_id: int, name: str) -> None:
    """Version 2, saved through the API as another tab or author would, renamed to `name`; then the page's
    flow asked for again and answered."""
    document = {**approval_and_delay_flow(), "name": name}
    assert api(page, "PUT", f"/api/flows/{flow_id}", document)["version"] == 2
    with page.expect_response(f"**/api/flows/{flow_id}"):
        refetch(page)


def refetch(page: Page) -> None:
    """The browser goes offline and back online, and TanStack Query asks for the stale flow again."""
    page.clock.fast_forward("00:10")
    page.context.set_offline(True)
    page.wait_for_function("!navigator.onLine")
    page.context.set_offline(False)


@pytest.mark.console_errors(
    "the page is taken offline while a newer version is saved elsewhere; its own save is then stale (409)",
    allow=r"net::ERR_INTERNET_DISCONNECTED|status of 409 .*/api/flows/\d+\?base=",
)
def test_unsaved_edits_stay_when_a_newer_version_arrives(browser: Browser, server: Server) -> None:
    page, flow_id = open_flow(browser, server, "rhea")
    message = edit(page)

    newer_arrives(page, flow_id, "Saved in another tab")
    notice = page.locator(".newer-notice")
    expect(notice).to_have_text(
        "Version 2 was saved elsewhere meanwhile. Your unsaved changes are kept; saving them will ask"
        " whether to keep yours or open the newest. Discard mine and open the newest"
    )
    expect(message).to_have_value("paid twice {{trigger.invoice}}")
    expect(page.locator(".toolbar .dirty")).to_have_text("unsaved changes")
    expect(page.get_by_role("heading", name="Pay approved invoices")).to_be_visible()
    screenshot(page, "editor-newer-en")

    # The list offers version 2 as one to restore (the editor is on version 1): refused, and said why.
    page.once("dialog", lambda dialog: dialog.accept())  # yes, replace my edits
    page.get_by_role("button", name="Restore version 2 as the newest").click()
    expect(page.locator(".versions").get_by_role("alert")).to_contain_text("rhea saved version 2")
    expect(message).to_have_value("paid twice {{trigger.invoice}}")

    # As the notice says: the save names version 1 and is refused; the author chooses.
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".toolbar-status")).to_contain_text("rhea saved version 2")
    notice.get_by_role("button", name="Discard mine and open the newest").click()
    expect(page.get_by_role("heading", name="Saved in another tab")).to_be_visible()
    node(page, "paid").click()
    expect(message).to_have_value("paid {{trigger.invoice}}")
    expect(notice).to_have_count(0)
    expect(page.locator(".toolbar .dirty")).to_have_count(0)
    page.context.close()


@pytest.mark.console_errors(
    "newer_arrives takes the page offline a moment: a request then fails",
    allow=r"net::ERR_INTERNET_DISCONNECTED",
)
def test_the_newer_version_is_loaded_when_nothing_is_unsaved(browser: Browser, server: Server) -> None:
    page, flow_id = open_flow(browser, server, "remy")
    newer_arrives(page, flow_id, "Saved in another tab")
    expect(page.get_by_role("heading", name="Saved in another tab")).to_be_visible()
    expect(page.get_by_text("version 2", exact=True)).to_be_visible()
    expect(page.locator(".newer-notice")).to_have_count(0)
    page.context.close()


@pytest.mark.console_errors(
    "newer_arrives takes the page offline a moment: a request then fails",
    allow=r"net::ERR_INTERNET_DISCONNECTED",
)
def test_the_notice_in_japanese(browser: Browser, server: Server) -> None:
    page, flow_id = open_flow(browser, server, "riku", locale="ja-JP")
    message = edit(page)
    newer_arrives(page, flow_id, "別のタブで保存")
    notice = page.locator(".newer-notice")
    expect(notice).to_contain_text("その間に別の場所でバージョン 2 が保存されました。")
    expect(notice.get_by_role("button", name="自分の変更を破棄して最新を開く")).to_be_visible()
    expect(message).to_have_value("paid twice {{trigger.invoice}}")
    expect(page.locator(".toolbar .dirty")).to_have_text("未保存の変更")
    screenshot(page, "editor-newer-ja")
    page.context.close()


@pytest.mark.console_errors("the flow's refetch is cut off", allow=r"net::ERR_INTERNET_DISCONNECTED")
def test_a_refetch_that_fails_leaves_the_edits_on_the_page(browser: Browser, server: Server) -> None:
    page, flow_id = open_flow(browser, server, "rosa")
    message = edit(page)
    page.route(f"**/api/flows/{flow_id}", lambda route: route.abort("internetdisconnected"))
    flow = f"/api/flows/{flow_id}"
    # Asked once and twice again (the query client retries what never reached the server), all failing.
    with page.expect_event("requestfailed", lambda request: request.url.endswith(flow)):
        refetch(page)
    for _ in range(2):
        with page.expect_event("requestfailed", lambda request: request.url.endswith(flow)):
            pass
    message.fill("paid at last {{trigger.invoice}}")
    expect(message).to_have_value("paid at last {{trigger.invoice}}")
    expect(page.locator(".toolbar .dirty")).to_have_text("unsaved changes")
    expect(page.get_by_role("alert")).to_have_count(0)
    page.context.close()


@pytest.mark.console_errors(
    "the page is taken offline while the newer version is saved", allow=r"net::ERR_INTERNET_DISCONNECTED"
)
def test_an_old_version_read_meanwhile_leaves_the_edits(browser: Browser, server: Server) -> None:
    page, flow_id = open_flow(browser, server, "rune")
    newer_arrives(page, flow_id, "Saved in another tab")
    expect(page.get_by_role("heading", name="Saved in another tab")).to_be_visible()
    message = edit(page)
    page.get_by_role("button", name="Open version 1").click()
    expect(page.get_by_role("heading", name="Pay approved invoices")).to_be_visible()
    expect(page.get_by_text("version 1, read only")).to_be_visible()
    page.get_by_role("button", name="Back to the newest version").click()
    expect(page.get_by_role("heading", name="Saved in another tab")).to_be_visible()
    node(page, "paid").click()
    expect(message).to_have_value("paid twice {{trigger.invoice}}")
    expect(page.locator(".toolbar .dirty")).to_have_text("unsaved changes")

    # A restore would replace them: it asks first, and a "no" changes nothing.
    dialogs = Dialogs(page)
    restore = page.get_by_role("button", name="Restore version 1 as the newest")
    dialogs.answer_next(accept=False)
    restore.click()
    expect(message).to_have_value("paid twice {{trigger.invoice}}")
    dialogs.answer_next(accept=True)
    restore.click()
    expect(page.get_by_role("heading", name="Pay approved invoices")).to_be_visible()
    expect(page.get_by_text("version 3", exact=True)).to_be_visible()
    expect(page.locator(".toolbar .dirty")).to_have_count(0)
    assert dialogs.asked == ["Restoring version 1 discards your unsaved changes. Restore it anyway?"] * 2
    page.context.close()


@pytest.mark.console_errors("opening the newest version is cut off", allow=r"net::ERR_INTERNET_DISCONNECTED")
def test_opening_the_newest_that_fails_says_so_and_keeps_the_edits(browser: Browser, server: Server) -> None:
    page, flow_id = open_flow(browser, server, "rolf")
    message = edit(page)
    newer_arrives(page, flow_id, "Saved in another tab")
    notice = page.locator(".newer-notice")
    page.route(f"**/api/flows/{flow_id}", lambda route: route.abort("internetdisconnected"))
    notice.get_by_role("button", name="Discard mine and open the newest").click()
    expect(notice.get_by_role("alert")).to_have_text(
        "The server cannot be reached. Please check your connection and try again."
    )
    expect(message).to_have_value("paid twice {{trigger.invoice}}")
    expect(page.locator(".toolbar .dirty")).to_have_text("unsaved changes")
    expect(page.get_by_role("heading", name="Pay approved invoices")).to_be_visible()
    screenshot(page, "editor-newer-unreached-en")
    page.context.close()
