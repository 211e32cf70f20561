"""Mouse gestures on the editor's canvas, named as an author would say them."""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect


def node(page: Page, node_id: str) -> Locator:
    return page.locator(f'.react-flow__node[data-id="{node_id}"]')


def add(page: Page, type_name: str) -> None:
    """Click a node type in the palette (by its catalog name)."""
    page.get_by_role("complementary").get_by_role("button").filter(has_text=type_name).first.click()


def wire(page: Page, source: str, port: str, target: str) -> None:
    """Drag from a node's named port to another node's input, with the mouse."""
    start = node(page, source).locator(f'.react-flow__handle[data-handleid="{port}"]')
    end = node(page, target).locator('.react-flow__handle[data-handleid="in"]')
    start.hover()
    page.mouse.down()
    box = end.bounding_box()
    assert box is not None, f"{target} has no input handle on screen"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
    page.mouse.up()


def arrange(page: Page, name: str = "Arrange") -> None:
    """Press Arrange (`name` in the page's language) and wait for the layout: dagre runs in a worker, and
    the button is busy until the nodes have moved."""
    button = page.get_by_role("button", name=name)
    button.click()
    expect(button).to_be_enabled()


def new_flow(
    page: Page, name: str = "Untitled", *, new: str = "New flow", open_it: str = "Open in the editor"
) -> None:
    """Press New flow on the flows page, name the flow and open it: a new flow in the editor, which
    nothing has saved yet (`new` and `open_it`: the buttons' names in the page's language)."""
    page.get_by_role("button", name=new, exact=True).click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("textbox").first.fill(name)
    dialog.get_by_role("button", name=open_it).click()
    page.wait_for_url("**/flows/new")
    expect(node(page, "start")).to_be_visible()


def save_new(page: Page) -> int:
    """Save a new flow: it is created as version 1 and the page moves to its address; the flow's id."""
    page.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_url(re.compile(r".*/flows/\d+$"))
    expect(page.get_by_role("status").filter(has_text="Saved as version 1")).to_be_visible()
    return int(page.url.rsplit("/", 1)[1])
