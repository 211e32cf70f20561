"""The node panels in words: durations as a number and a unit (the document keeps ISO 8601), the delay's
two ways as a choice in the reader's language, a manual trigger without a schedule's fields, a set form
whose buttons say what they do, and findings as sentences on the field they concern (a label too long
too), with no regex or JSON pointer anywhere on the page. Like every browser test, no console error
(conftest.py)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Browser, Page, expect

from tests.browser.canvas import node
from tests.browser.support import PASSWORD, Server, screenshot

FLOW: dict[str, Any] = {
    "format": "flowyard.flow/1",
    "name": "Forms in words",
    "nodes": [
        {"id": "start", "type": "trigger", "config": {"kind": "manual"}},
        {"id": "delay1", "type": "delay", "label": "Cool down", "config": {"duration": "P1DT2H"}},
        {
            "id": "ask",
            "type": "approval",
            "label": "Sign off",
            "config": {
                "title": "Pay?",
                "approvers": ["group:finance"],
                "deadline": "P2D",
                "on_timeout": "reject",
                "remind_after": ["PT4H"],
                "escalate_after": "P1D",
                "escalate_to": ["group:leads"],
            },
        },
        {
            "id": "set1",
            "type": "set",
            "label": "Totals",
            "config": {"values": {"total": "{{trigger.amount}}"}},
        },
    ],
    "wires": [
        {"from": "start", "to": "delay1"},
        {"from": "delay1", "to": "ask"},
        {"from": "ask", "port": "approve", "to": "set1"},
    ],
}


def _open(browser: Browser, server: Server, name: str, locale: str, width: int = 1400) -> tuple[Page, int]:
    """A new flow of FLOW, opened by `name` in `locale` at `width` pixels."""
    page = browser.new_context(
        base_url=server.url, locale=locale, viewport={"width": width, "height": 900}
    ).new_page()
    page.goto("/login")
    page.locator("input[name=name]").fill(name)
    page.locator("input[name=password]").fill(PASSWORD)
    page.locator("button[type=submit]").click()
    page.wait_for_url("**/flows")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    flow_id = page.request.post("/api/flows", data=json.dumps(FLOW), headers=headers).json()["id"]
    page.goto(f"/flows/{flow_id}")
    if width >= 768:
        expect(node(page, "start")).to_be_visible()
    return page, int(flow_id)


def _no_internals(page: Page) -> None:
    text = page.evaluate("document.body.innerText")
    for internal in ("^", "(?", "/nodes/", "Option 1", "record_input", "{key}", "PT", "P2D"):
        assert internal not in text, f"{internal!r} is on the page: {text}"


def test_a_delay_of_two_hours_is_saved_as_pt2h_and_a_wrong_one_is_said_on_its_field(
    browser: Browser, server: Server
) -> None:
    server.user("fern", "edit", "run")
    page, flow_id = _open(browser, server, "fern", "en-US")
    node(page, "delay1").click()
    panel = page.locator(".config")
    # A duration of several parts, written by hand, is said in words.
    expect(panel).to_contain_text("Now 1 day and 2 hours.")
    expect(panel.get_by_label("Wait for a time span")).to_be_checked()
    duration = panel.get_by_role("group", name="Duration")
    duration.get_by_label("Unit").select_option("hours")
    duration.get_by_label("Amount").fill("2")
    expect(page.get_by_text("No findings")).to_be_visible()
    _no_internals(page)
    screenshot(page, "forms-delay-en")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved as version")).to_be_visible()
    saved = page.request.get(f"/api/flows/{flow_id}").json()["document"]
    assert next(n for n in saved["nodes"] if n["id"] == "delay1")["config"] == {"duration": "PT2H"}

    # Text that is no number: the server's finding, said on the field by the node's label and the field's
    # title, with what to do; the findings list says the same, and the card carries it.
    duration.get_by_label("Amount").fill("two")
    sentence = "Cool down: Duration needs a whole number and a unit. Enter a duration, for example 5 minutes."
    expect(duration.locator(".field-findings")).to_have_text(sentence)
    expect(page.locator(".findings").get_by_role("button", name=sentence)).to_be_visible()
    expect(node(page, "delay1").locator(".card-findings")).to_have_attribute("title", sentence)
    _no_internals(page)
    screenshot(page, "forms-delay-finding-en")

    # Until a moment: the duration goes, the field for the moment comes.
    panel.get_by_label("Wait until a moment").check()
    expect(panel.get_by_role("group", name="Duration")).to_have_count(0)
    expect(panel.get_by_label("Until", exact=True)).to_be_visible()
    expect(page.locator(".findings")).to_contain_text("Cool down: choose how to wait")
    _no_internals(page)


def test_approval_set_and_trigger_forms_speak_words(browser: Browser, server: Server) -> None:
    server.user("gale", "edit", "run")
    page, flow_id = _open(browser, server, "gale", "en-US")
    node(page, "ask").click()
    panel = page.locator(".config")
    deadline = panel.get_by_role("group", name="Deadline", exact=True)
    expect(deadline.get_by_label("Amount")).to_have_value("2")
    expect(deadline.get_by_label("Unit")).to_have_value("days")
    reminder = panel.get_by_role("group", name="Reminder 1")
    expect(reminder.get_by_label("Amount")).to_have_value("4")
    expect(reminder.get_by_label("Unit")).to_have_value("hours")
    panel.get_by_role("button", name="Add a reminder").click()
    second = panel.get_by_role("group", name="Reminder 2")
    second.get_by_label("Unit").select_option("hours")
    second.get_by_label("Amount").fill("2")
    escalate = panel.get_by_role("group", name="Escalate after (duration)")
    escalate.get_by_label("Unit").select_option("hours")
    _no_internals(page)
    screenshot(page, "forms-approval-en")

    node(page, "set1").click()
    expect(panel.get_by_label("Name of total")).to_have_value("total")
    expect(panel.get_by_role("button", name="Add", exact=True)).to_be_visible()
    expect(panel.get_by_role("button", name="Remove", exact=True)).to_be_visible()
    for button in panel.get_by_role("button").all():
        assert button.inner_text().strip(), "a button of the set form has no visible words"
    _no_internals(page)
    screenshot(page, "forms-set-en")

    node(page, "start").click()
    expect(panel.get_by_label("Start by")).to_be_visible()
    expect(panel.get_by_label("Cron expression")).to_have_count(0)
    expect(panel.get_by_label("Time zone")).to_have_count(0)
    expect(panel.get_by_label("Keep the trigger's input in the audit record")).to_be_visible()
    panel.get_by_label("Start by").select_option(label="Schedule")
    expect(panel.get_by_label("Cron expression")).to_be_visible()
    # A schedule without its cron and zone: both fields are empty, each said on its field.
    expect(panel.locator(".error-detail")).to_have_count(2)
    expect(panel.locator(".error-detail").first).to_contain_text(
        "start: Cron expression is empty. Fill it in."
    )
    expect(page.get_by_role("heading", name="Findings (2)")).to_be_visible()
    _no_internals(page)

    # Back to manual: the cron and zone typed meanwhile leave the document with their fields.
    panel.get_by_label("Cron expression").fill("0 9 * * 1")
    panel.get_by_label("Start by").select_option(label="Manual")
    expect(panel.get_by_label("Cron expression")).to_have_count(0)
    expect(page.get_by_role("heading", name="Findings (0)")).to_be_visible()
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved as version")).to_be_visible()
    saved = page.request.get(f"/api/flows/{flow_id}").json()["document"]
    config = next(n for n in saved["nodes"] if n["id"] == "ask")["config"]
    assert config["remind_after"] == ["PT4H", "PT2H"]
    assert config["escalate_after"] == "PT1H"
    assert next(n for n in saved["nodes"] if n["id"] == "start")["config"] == {"kind": "manual"}


def test_the_panels_in_german_and_japanese(browser: Browser, server: Server) -> None:
    server.user("hedda", "edit", "run")
    page, _ = _open(browser, server, "hedda", "de-DE")
    node(page, "delay1").click()
    panel = page.locator(".config")
    expect(panel.get_by_label("Eine Zeitspanne warten")).to_be_checked()
    expect(panel).to_contain_text("Derzeit 1 Tag und 2 Stunden.")
    assert "Option" not in page.evaluate("document.body.innerText")
    panel.get_by_role("group", name="Dauer").get_by_label("Anzahl").fill("zwei")
    expect(panel.locator(".field-findings")).to_contain_text(
        "Geben Sie eine Dauer ein, zum Beispiel 5 Minuten."
    )
    _no_internals(page)
    screenshot(page, "forms-delay-de")

    # A label longer than the format allows (200 characters): said beside the label and in the findings,
    # by the label's beginning, never as the format's sentence with its pointer.
    label = panel.get_by_label("Bezeichnung", exact=True)
    label.fill("Abkühlen, bis die Buchhaltung den Monat abgeschlossen hat. " * 4)
    said = "Abkühlen, bis die Buchhaltung den Monat…: Die Bezeichnung ist zu lang: höchstens 200 Zeichen."
    expect(panel.locator("label.field + .field-findings")).to_have_text(said)
    expect(page.locator(".findings").get_by_role("button", name=said)).to_be_visible()
    _no_internals(page)
    screenshot(page, "forms-label-long-de")
    label.fill("Abkühlen")
    expect(page.locator(".findings").get_by_role("button", name=said)).to_have_count(0)
    expect(panel.locator("label.field + .field-findings")).to_have_count(0)
    page.context.close()

    page, _ = _open(browser, server, "hedda", "ja-JP")
    for node_id, name in (("delay1", "delay"), ("ask", "approval"), ("set1", "set")):
        node(page, node_id).click()
        expect(page.locator(".config")).to_be_visible()
        _no_internals(page)
        text = page.locator(".config").inner_text()
        assert not re.search(r"\b(Add|Remove|Option|Amount|Unit|hours|days)\b", text), text
        screenshot(page, f"forms-{name}-ja")
    # The long label in Japanese (220 characters): its first 40 name the node, then an ellipsis.
    label = page.locator(".config").get_by_label("ラベル", exact=True)
    label.fill("月末の締めが終わるまで経理の確認を待つ。" * 11)
    said = "月末の締めが終わるまで経理の確認を待つ。" * 2 + "…：ラベルが長すぎます。200 文字までです。"
    expect(page.locator(".config label.field + .field-findings")).to_have_text(said)
    expect(page.locator(".findings").get_by_role("button", name=said)).to_be_visible()
    _no_internals(page)
    screenshot(page, "forms-label-long-ja")
    page.context.close()

    # A phone draws no canvas and no panel (docs/editor.md, "On a phone"): the flow as a list, in German,
    # by the authors' labels.
    page, _ = _open(browser, server, "hedda", "de-DE", width=390)
    expect(page.get_by_text("Cool down")).to_be_visible()
    _no_internals(page)
    screenshot(page, "forms-phone-de")
