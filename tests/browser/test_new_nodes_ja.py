"""Issue 24's nodes in Japanese: a parallel's lanes, a join, a wait_event and a parallel over items, drawn
and described from the Japanese catalog (screenshots for docs/screenshots, like the English ones)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, expect

from tests.browser.canvas import arrange, node
from tests.browser.support import Server, log_in, screenshot


def _approval(title: str, group: str) -> dict[str, Any]:
    return {"title": title, "approvers": [f"group:{group}"]}


def order_checks() -> dict[str, Any]:
    """Two signatures side by side, one shipping approval per order line, then the payment's event, whose
    port fans out to two logs that a join brings together again."""
    nodes = [
        ("start", "trigger", {"kind": "manual"}),
        ("checks", "parallel", {"wait": "all"}),
        ("legal", "approval", _approval("契約 {{trigger.order}} に署名しますか?", "legal")),
        ("finance", "approval", _approval("{{trigger.order}} を支払いますか?", "finance")),
        ("each_line", "parallel", {"wait": 2, "items": "{{trigger.lines}}", "as": "line"}),
        ("ship", "approval", _approval("{{line.id}} を出荷しますか?", "shipping")),
        ("paid", "wait_event", {"events": ["paid"], "key": "{{trigger.order}}", "timeout": "P2D"}),
        ("mail", "log", {"message": "請求書を送付"}),
        ("book", "log", {"message": "帳簿に記入"}),
        ("both_done", "join", {"wait": "all"}),
        ("archive", "log", {"message": "保管"}),
        ("late", "log", {"message": "支払いが遅れています"}),
    ]
    wires = [
        ("start", "out", "checks"),
        ("checks", "branches", "legal"),
        ("checks", "branches", "finance"),
        ("checks", "done", "each_line"),
        ("each_line", "branches", "ship"),
        ("each_line", "done", "paid"),
        ("paid", "paid", "mail"),
        ("paid", "paid", "book"),
        ("mail", "out", "both_done"),
        ("book", "out", "both_done"),
        ("both_done", "out", "archive"),
        ("paid", "timeout", "late"),
    ]
    return {
        "format": "flowyard.flow/1",
        "name": "注文の並行チェック",
        "nodes": [{"id": i, "type": kind, "config": config} for i, kind, config in nodes],
        "wires": [{"from": a, "port": port, "to": b} for a, port, b in wires],
    }


def test_the_parallel_join_and_wait_event_in_japanese(browser: Browser, server: Server) -> None:
    server.user("haru", "edit")
    page = log_in(browser, server, "haru", locale="ja-JP")
    csrf = page.request.get("/api/me").json()["csrf_token"]
    headers = {"X-CSRF-Token": csrf, "Content-Type": "application/json"}
    flow_id = page.request.post("/api/flows", data=json.dumps(order_checks()), headers=headers).json()["id"]
    page.goto(f"/flows/{flow_id}")
    arrange(page, "自動配置")
    page.get_by_role("button", name="保存").click()
    expect(page.get_by_role("status").filter(has_text="バージョン 2 として保存しました。")).to_be_visible()
    page.get_by_role("button", name="全体を表示").click()

    lanes = page.locator('[data-parallel="checks"]')
    expect(lanes).to_contain_text("checks の分岐（並行）")
    expect(lanes.locator(".lane")).to_have_count(2)
    expect(lanes.locator(".lane").nth(1)).to_contain_text("分岐 2")
    expect(node(page, "each_line")).to_contain_text("2 件の分岐を待ちます（項目ごとに 1 つ）")
    expect(node(page, "both_done")).to_contain_text("すべてを待つ")
    expect(node(page, "paid").locator(".card-port-name")).to_have_text(["paid", "タイムアウト"])
    expect(page.get_by_role("heading", name="指摘（0）")).to_be_visible()
    screenshot(page, "canvas-parallel-ja")

    # The parallel over items: its panel says one branch per item, and counts none it cannot know.
    node(page, "each_line").click()
    panel = page.locator(".config")
    expect(panel).to_contain_text("リストの項目ごとに分岐が 1 つ始まり")
    expect(panel).to_contain_text("リストの項目ごとに 1 つの分岐のうち")
    screenshot(page, "canvas-parallel-items-ja")

    node(page, "paid").click()
    expect(panel.get_by_role("group").first).to_be_visible()
    screenshot(page, "canvas-wait-event-ja")
    page.context.close()
