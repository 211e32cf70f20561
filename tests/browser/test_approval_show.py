"""What approvers see, chosen in the approval panel (issue 31): an author picks two values of the invoice
flow's input from a list of readable names, labels and orders them, and saves; a run started through the
API then shows its approver exactly those two values under those labels. In German the panel speaks
German only, removing every row is the default again (and undo brings the rows back), and the twentieth
row disables adding with a sentence. A reader without the edit right sees the rows but cannot change them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.canvas import node
from tests.browser.pages_support import Story, invoice_flow, story_server
from tests.browser.support import log_in, screenshot, serious_violations

LIVE = 60_000  # the worker must ask the approval before the inbox can show it
SAMPLE = '{"invoice": "INV-9", "amount": 1200, "vendor": {"name": "Acme"}}'


@pytest.fixture(scope="module")
def story(pg_server_url: str, template_database: str) -> Iterator[Story]:
    with story_server(pg_server_url, template_database, "show") as running:
        yield running


def shown(page: Page) -> Locator:
    return page.locator(".config fieldset.shown-field")


def row(page: Page, name: str) -> Locator:
    return shown(page).get_by_role("group", name=name, exact=True)


def saved_show(story: Story, flow_id: int) -> Any:
    with psycopg.connect(story.server.database_url) as conn:
        found = conn.execute(
            "SELECT document FROM flow_versions WHERE flow_id = %s ORDER BY version DESC LIMIT 1", (flow_id,)
        ).fetchone()
    assert found is not None
    return next(n["config"] for n in found[0]["nodes"] if n["id"] == "ask").get("show")


def test_an_author_chooses_the_values_an_approver_sees(browser: Browser, story: Story) -> None:
    story.server.user("sal", "edit", "run")
    story.server.user("fin", "decide", groups=("finance",))
    story.server.user("lena", "edit")
    with story.api(story.token("sal")) as api:
        made = api.post("/api/flows", json=invoice_flow(story.receiver.url))
        assert made.status_code == 201, made.text
    flow_id = made.json()["id"]

    page = log_in(browser, story.server, "sal", at=f"/flows/{flow_id}")
    node(page, "ask").click()
    hint = shown(page).get_by_text("once a sample input is typed under “Walk with sample input”")
    expect(hint).to_be_visible()
    shown(page).scroll_into_view_if_needed()
    screenshot(page, "approval-show-default-en")
    page.get_by_label("Sample input of the trigger (JSON)").fill(SAMPLE)
    expect(hint).to_have_count(0)
    expect(shown(page).get_by_role("group")).to_have_count(0)
    expect(shown(page)).to_contain_text("Approvers see the run's input, with all its fields.")
    shown(page).get_by_role("button", name="Choose values").click()

    first = row(page, "Shown value 1")
    first.get_by_label("Label").fill("Amount (EUR)")
    values = first.get_by_label("Value", exact=True)
    # The choices are named as an author says them: never a bare path, and a field the sample does not
    # have can still be typed.
    expect(values.locator("option")).to_have_text(
        [
            "The run's input (all fields)",
            "Input: invoice",
            "Input: amount",
            "Input: vendor",
            "Input: vendor \u203a name",  # a field inside a field, as the inbox writes it
            "Another field (type its path)",
        ]
    )
    values.select_option(label="Input: amount")
    shown(page).get_by_role("button", name="Add a value").click()
    second = row(page, "Shown value 2")
    second.get_by_label("Label").fill("Invoice number")
    second.get_by_label("Value", exact=True).select_option(label="Input: invoice")
    shown(page).get_by_role("button", name="Move shown value 2 up").click()
    expect(row(page, "Shown value 1").get_by_label("Label")).to_have_value("Invoice number")
    shown(page).get_by_role("button", name="Add a value").click()
    third = row(page, "Shown value 3")
    third.get_by_label("Value", exact=True).select_option(label="Another field (type its path)")
    expect(third.get_by_label("Path of the field (names joined by dots)")).to_be_visible()
    shown(page).get_by_role("button", name="Remove shown value 3").click()
    expect(shown(page).get_by_role("group")).to_have_count(2)
    expect(page.get_by_text("No findings")).to_be_visible()
    assert serious_violations(page) == []
    shown(page).scroll_into_view_if_needed()
    screenshot(page, "approval-show-en")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status").filter(has_text="Saved as version")).to_be_visible()
    assert saved_show(story, flow_id) == [
        {"label": "Invoice number", "value": "trigger.invoice"},
        {"label": "Amount (EUR)", "value": "trigger.amount"},
    ]
    page.context.close()

    with story.api(story.token("sal")) as api:
        started = api.post(
            f"/api/flows/{flow_id}/runs", json={"input": {"invoice": "INV-9", "amount": 1200, "note": "x"}}
        )
        assert started.status_code in (200, 201, 202), started.text

    approver = log_in(browser, story.server, "fin", at="/inbox")
    card = approver.locator("article.approval")
    expect(card.get_by_role("heading")).to_have_text("Pay invoice INV-9?", timeout=LIVE)
    rows = card.locator("dl.shown > .shown-row")
    expect(rows).to_have_count(2)
    expect(rows.locator("dt")).to_have_text(["Invoice number", "Amount (EUR)"])
    expect(rows.locator("dd")).to_have_text(["INV-9", "1,200"])
    screenshot(approver, "approval-show-inbox-en")

    # Fin may read the flow but not edit it: the rows are there, every control of them is disabled.
    approver.goto(f"/flows/{flow_id}")
    node(approver, "ask").click()
    expect(shown(approver).get_by_role("group")).to_have_count(2)
    for control in shown(approver).locator("input, select, button").all():
        expect(control).to_be_disabled()
    approver.context.close()

    story.set_locale("lena", "de")
    german = log_in(browser, story.server, "lena", locale="de-DE", at=f"/flows/{flow_id}")
    german.get_by_label("Beispieleingabe des Auslösers (JSON)").fill(SAMPLE)
    node(german, "ask").click()
    expect(shown(german).locator("legend")).to_have_text("Was die Genehmiger sehen")
    first = row(german, "Angezeigter Wert 1")
    expect(first.get_by_label("Beschriftung")).to_have_value("Invoice number")
    expect(first.get_by_label("Wert", exact=True).locator("option:checked")).to_have_text("Eingabe: invoice")
    shown(german).scroll_into_view_if_needed()
    screenshot(german, "approval-show-de")
    assert_no_english(german, story)

    # Removing every row is the default again, and undo brings the rows back.
    for _ in range(2):
        shown(german).get_by_role("button", name="Angezeigten Wert 1 entfernen").click()
    expect(shown(german).get_by_role("group")).to_have_count(0)
    expect(shown(german)).to_contain_text("Die Genehmiger sehen die Eingabe des Laufs mit allen Feldern.")
    german.get_by_role("toolbar").get_by_role("button", name="Rückgängig", exact=True).click()
    expect(shown(german).get_by_role("group")).to_have_count(1)

    # Twenty rows at most: the button says why it is disabled, nothing is cut.
    add = shown(german).get_by_role("button", name="Wert hinzufügen")
    for _ in range(19):
        add.click()
    expect(shown(german).get_by_role("group")).to_have_count(20)
    expect(add).to_be_disabled()
    expect(shown(german)).to_contain_text("Eine Genehmigung zeigt höchstens 20 Werte.")
    add.scroll_into_view_if_needed()
    screenshot(german, "approval-show-limit-de")
    german.context.close()


def assert_no_english(page: Page, story: Story) -> None:
    """The German fieldset holds none of the English catalog's sentences for it, visible or as a name."""
    with story.api(story.token("lena")) as api:
        english = api.get("/api/i18n/en").json()
    words = shown(page).inner_text() + " ".join(
        control.get_attribute("aria-label") or "" for control in shown(page).locator("[aria-label]").all()
    )
    for key, sentence in english.items():
        if not key.startswith("ui_show_"):
            continue
        fixed = max(re.split(r"\{\w+\}", sentence), key=len).strip(" :()")
        if len(fixed) > 3:
            assert fixed not in words, (key, fixed)
