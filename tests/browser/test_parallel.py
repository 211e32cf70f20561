"""Issue 24 on the canvas: a parallel drawn with two approval lanes, a merge drawn without a join (a warning,
softer than a finding, that never blocks a save) fixed with one click, saved and reopened; a wait_event
whose event names are its ports."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.canvas import add, new_flow, node, save_new, wire
from tests.browser.canvas import arrange as arrange_nodes
from tests.browser.support import Server, log_in, screenshot


def inside(inner: Locator, outer: Locator) -> bool:
    a, b = inner.bounding_box(), outer.bounding_box()
    assert a is not None and b is not None
    return (
        b["x"] <= a["x"]
        and b["y"] <= a["y"]
        and a["x"] + a["width"] <= b["x"] + b["width"]
        and a["y"] + a["height"] <= b["y"] + b["height"]
    )


def saved_document(page: Page) -> dict[str, Any]:
    document: dict[str, Any] = page.request.get(page.url.replace("/flows/", "/api/flows/")).json()["document"]
    return document


def arrange(page: Page) -> None:
    arrange_nodes(page)
    page.get_by_role("button", name="Zoom to fit").click()


def fill_approval(page: Page, node_id: str, title: str, group: str) -> None:
    node(page, node_id).click()
    panel = page.locator(".config")
    panel.get_by_label("Title").fill(title)
    approvers = panel.get_by_role("group", name="Who may decide", exact=True)
    approvers.get_by_label("Name of the user or group").fill(group)
    approvers.get_by_role("button", name="Add", exact=True).click()


def fill_log(page: Page, node_id: str, message: str) -> None:
    node(page, node_id).click()
    page.locator(".config textarea").fill(message)


def test_a_parallel_with_two_approval_lanes_and_a_merge_without_a_join(
    browser: Browser, server: Server
) -> None:
    server.user("pal", "edit", "run")
    page = log_in(browser, server, "pal")
    new_flow(page, "Legal and finance")

    # The palette names the new node types from the catalog, each a button with its description.
    palette = page.get_by_role("complementary")
    expect(palette.get_by_role("button").filter(has_text="Parallel")).to_contain_text("side by side")
    for name in ("Parallel", "Approval", "Approval", "Log", "Log", "Log"):
        add(page, name)
    arrange(page)
    wire(page, "start", "out", "parallel1")
    arrange(page)
    wire(page, "parallel1", "branches", "approval1")
    arrange(page)
    wire(page, "parallel1", "branches", "approval2")
    arrange(page)
    wire(page, "parallel1", "done", "log1")
    arrange(page)
    wire(page, "log1", "out", "log2")
    arrange(page)
    wire(page, "log1", "out", "log3")
    arrange(page)
    wire(page, "log2", "out", "log3")
    arrange(page)
    expect(page.locator(".react-flow__edge")).to_have_count(7)

    # One lane per branches wire, side by side, in the order they were drawn; done leaves the region.
    region = page.locator('[data-parallel="parallel1"]')
    expect(region).to_contain_text("Branches of parallel1")
    lanes = region.locator(".lane")
    expect(lanes).to_have_count(2)
    expect(lanes.nth(0)).to_contain_text("Branch 1")
    assert inside(node(page, "approval1"), lanes.nth(0))
    assert inside(node(page, "approval2"), lanes.nth(1))
    assert inside(node(page, "parallel1"), region)
    assert not inside(node(page, "log1"), region)
    first, second = lanes.nth(0).bounding_box(), lanes.nth(1).bounding_box()
    assert first and second and first["x"] + first["width"] <= second["x"], "the lanes are side by side"

    fill_approval(page, "approval1", "Legal: sign {{trigger.contract}}?", "legal")
    fill_approval(page, "approval2", "Finance: pay {{trigger.contract}}?", "finance")
    for log, message in (("log1", "both signed"), ("log2", "mail legal"), ("log3", "archive")):
        fill_log(page, log, message)

    # The parallel's wait rule, edited in its panel, shows on its card.
    node(page, "parallel1").click()
    rule = page.get_by_role("group", name="Goes on")
    expect(rule.get_by_label("when all have arrived")).to_be_checked()
    rule.get_by_label("at the first one").check()
    expect(node(page, "parallel1")).to_contain_text("Goes on at the first")
    rule.get_by_label("when all have arrived").check()
    expect(node(page, "parallel1")).to_contain_text("Waits for all")

    # log1's port leads to log2 and log3, and log2 leads to log3 too: a merge without a join. A warning on
    # the card and in the findings panel, softer than a finding; the flow has no findings and saves.
    expect(page.get_by_text("No findings")).to_be_visible()
    warnings = page.locator(".warnings")
    expect(warnings.get_by_role("heading")).to_have_text("Warnings (1)")
    expect(warnings.locator('[data-code="branches_meet_without_join"]')).to_be_visible()
    expect(node(page, "log3").locator(".card-warnings")).to_be_visible()
    expect(node(page, "log3").locator(".card")).to_have_class(re.compile(r"\bhas-warnings\b"))
    expect(node(page, "log3").locator(".card-findings")).to_have_count(0)
    page.get_by_role("button", name="Zoom to fit").click()
    screenshot(page, "canvas-parallel-warning")
    save_new(page)

    # The one-click fix: a join in front of log3 takes both wires, and the warning goes.
    warnings.get_by_role("button", name="Insert a join before log3").click()
    expect(node(page, "join1")).to_be_visible()
    expect(node(page, "join1")).to_contain_text("Waits for all")
    expect(page.locator(".warnings")).to_have_count(0)
    expect(node(page, "log3").locator(".card-warnings")).to_have_count(0)
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved as version 2")).to_be_visible()

    # Reopened, the flow is drawn the same: the lanes, the join and the wires into it.
    page.reload()
    expect(node(page, "join1")).to_be_visible()
    expect(page.locator('[data-parallel="parallel1"] .lane')).to_have_count(2)
    assert inside(node(page, "approval2"), page.locator('[data-parallel="parallel1"] .lane').nth(1))
    expect(page.get_by_text("No findings")).to_be_visible()
    expect(page.locator(".warnings")).to_have_count(0)
    page.get_by_role("button", name="Zoom to fit").click()
    screenshot(page, "canvas-parallel")
    saved = saved_document(page)
    assert {(w["from"], w.get("port", "out"), w["to"]) for w in saved["wires"]} == {
        ("start", "out", "parallel1"),
        ("parallel1", "branches", "approval1"),
        ("parallel1", "branches", "approval2"),
        ("parallel1", "done", "log1"),
        ("log1", "out", "log2"),
        ("log1", "out", "join1"),
        ("log2", "out", "join1"),
        ("join1", "out", "log3"),
    }
    types = {n["id"]: (n["type"], n["config"]) for n in saved["nodes"]}
    assert types["parallel1"] == ("parallel", {"wait": "all"})
    assert types["join1"] == ("join", {"wait": "all"})
    page.context.close()


def test_a_wait_event_whose_ports_follow_its_event_names(browser: Browser, server: Server) -> None:
    server.user("eve", "edit")
    page = log_in(browser, server, "eve")
    new_flow(page)
    for name in ("Wait for event", "Log", "Log"):
        add(page, name)
    arrange(page)
    wire(page, "start", "out", "wait_event1")
    arrange(page)
    card = node(page, "wait_event1")
    expect(card.locator(".card-port-name")).to_have_text(["received", "Timed out"])

    # A new name is a new port on the card, before the time-out; a name the format refuses is refused.
    card.click()
    events = page.get_by_role("group", name="Events")
    events.get_by_label("New event name").fill("Paid!")
    events.get_by_role("button", name="Add event").click()
    expect(events.get_by_role("alert")).to_contain_text("cannot be an event name")
    events.get_by_label("New event name").fill("paid")
    events.get_by_role("button", name="Add event").click()
    expect(card.locator(".card-port-name")).to_have_text(["received", "paid", "Timed out"])
    wire(page, "wait_event1", "paid", "log1")
    arrange(page)
    wire(page, "wait_event1", "timeout", "log2")
    expect(page.locator(".react-flow__edge")).to_have_count(3)

    # Removing a wired name takes its wire with it, says so, and one undo brings both back.
    card.click()
    events.get_by_role("button", name="Remove the event paid").click()
    expect(events.get_by_role("status")).to_contain_text("The wire leaving paid was removed with it.")
    expect(page.locator(".react-flow__edge")).to_have_count(2)
    expect(card.locator(".card-port-name")).to_have_text(["received", "Timed out"])
    events.get_by_role("button", name="Undo").click()
    expect(page.locator(".react-flow__edge")).to_have_count(3)
    expect(card.locator(".card-port-name")).to_have_text(["received", "paid", "Timed out"])
    events.get_by_role("button", name="Remove the event received").click()
    expect(events.get_by_role("status")).to_have_count(0)  # no wire left with it

    # The key completes like every template; the durations are amounts and units.
    key = page.get_by_role("combobox", name="Key")
    key.click()
    key.press_sequentially("{{tri")
    page.get_by_role("option", name="trigger", exact=True).click()
    expect(key).to_have_value("{{trigger}}")
    key.fill("{{trigger.order}}")
    timeout = page.get_by_role("group", name="Time out after")
    timeout.get_by_label("Amount").fill("2")
    timeout.get_by_label("Unit").select_option("days")
    early = page.get_by_role("group", name="Keep an event that comes early for")
    early.get_by_label("Unit").select_option("minutes")
    early.get_by_label("Amount").fill("30")
    for log in ("log1", "log2"):
        fill_log(page, log, f"{log} reached")
    expect(page.get_by_text("No findings")).to_be_visible()
    arrange(page)
    node(page, "wait_event1").click()
    screenshot(page, "canvas-wait-event")
    save_new(page)
    saved = saved_document(page)
    config = next(n["config"] for n in saved["nodes"] if n["id"] == "wait_event1")
    assert config == {"events": ["paid"], "key": "{{trigger.order}}", "timeout": "P2D", "keep_early": "PT30M"}
    assert ("wait_event1", "paid", "log1") in {
        (w["from"], w.get("port", "out"), w["to"]) for w in saved["wires"]
    }
    page.context.close()


def test_a_parallel_over_items_is_edited_in_its_panel(browser: Browser, server: Server) -> None:
    server.user("ivy", "edit")
    page = log_in(browser, server, "ivy")
    new_flow(page)
    for kind in ("Parallel", "Approval"):
        add(page, kind)
    arrange(page)
    wire(page, "start", "out", "parallel1")
    arrange(page)
    wire(page, "parallel1", "branches", "approval1")
    arrange(page)

    # One branch per item: the list is a template, the item's name is asked for only once there is one.
    node(page, "parallel1").click()
    panel = page.locator(".config")
    name = panel.get_by_label("Name of the current item")
    expect(name).to_be_disabled()
    items = page.get_by_role("combobox", name="Items")
    items.click()
    items.press_sequentially("{{trigger.lines}}")
    expect(name).to_be_enabled()
    name.fill("line")
    fill_approval(page, "approval1", "Ship {{line.id}}?", "shipping")
    node(page, "parallel1").click()
    screenshot(page, "canvas-parallel-items")
    save_new(page)
    config = {n["id"]: n["config"] for n in saved_document(page)["nodes"]}["parallel1"]
    assert config == {"wait": "all", "items": "{{trigger.lines}}", "as": "line"}

    # Emptied, the list leaves the config with its name: the parallel branches by its wires again.
    node(page, "parallel1").click()
    items.fill("")
    expect(name).to_be_disabled()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved as version 2")).to_be_visible()
    config = {n["id"]: n["config"] for n in saved_document(page)["nodes"]}["parallel1"]
    assert config == {"wait": "all"}
    page.context.close()
