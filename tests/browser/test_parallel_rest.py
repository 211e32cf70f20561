"""Issue 35 on the canvas: a parallel's slower branches (`rest`) chosen in its panel, from the catalogs:
cancelled (the default, left out of the config) or kept running; kept running while every branch is
awaited is the validator's finding."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.canvas import add, new_flow, node, save_new, wire
from tests.browser.canvas import arrange as arrange_nodes
from tests.browser.support import Server, log_in, screenshot


def parallel_config(page: Page) -> dict[str, Any]:
    document = page.request.get(page.url.replace("/flows/", "/api/flows/")).json()["document"]
    config: dict[str, Any] = {n["id"]: n["config"] for n in document["nodes"]}["parallel1"]
    return config


def arrange(page: Page) -> None:
    arrange_nodes(page)
    page.get_by_role("button", name="Zoom to fit").click()


def save(page: Page, version: int) -> None:
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text=f"Saved as version {version}")).to_be_visible()


def test_the_slower_branches_are_kept_running_or_cancelled_from_the_panel(
    browser: Browser, server: Server
) -> None:
    server.user("ruth", "edit")
    page = log_in(browser, server, "ruth")
    new_flow(page)
    for kind in ("Parallel", "Log", "Approval"):
        add(page, kind)
    arrange(page)
    wire(page, "start", "out", "parallel1")
    arrange(page)
    wire(page, "parallel1", "branches", "log1")
    arrange(page)
    wire(page, "parallel1", "branches", "approval1")
    arrange(page)
    node(page, "approval1").click()
    page.locator(".config").get_by_label("Title").fill("Check for fraud?")
    node(page, "log1").click()
    page.locator(".config textarea").fill("credit checked")

    node(page, "parallel1").click()
    panel = page.locator(".config")
    rest = panel.get_by_label("Slower branches")
    # Waiting for all leaves no branch to keep: the choice is offered once the rule can be met early.
    expect(rest).to_be_disabled()
    expect(rest).to_have_value("cancel")
    page.get_by_role("group", name="Goes on").get_by_label("at the first one").check()
    expect(rest).to_be_enabled()
    rest.select_option(label="Keep them running")
    expect(page.get_by_text("No findings")).to_be_visible()
    screenshot(page, "canvas-parallel-rest")
    save_new(page)
    assert parallel_config(page) == {"wait": "first", "rest": "continue"}

    # Kept running, but every branch awaited: the validator says so, at the parallel.
    page.get_by_role("group", name="Goes on").get_by_label("when all have arrived").check()
    finding = page.locator('[data-code="parallel_rest_needs_wait"]')
    expect(finding).to_contain_text("parallel1")
    expect(finding).to_contain_text("slower branches")
    screenshot(page, "canvas-parallel-rest-finding")

    # Cancelled again: the default leaves the config.
    page.get_by_role("group", name="Goes on").get_by_label("at the first one").check()
    rest.select_option(label="Cancel them")
    expect(page.get_by_text("No findings")).to_be_visible()
    save(page, 2)
    assert parallel_config(page) == {"wait": "first"}
    page.context.close()
