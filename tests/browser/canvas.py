"""Mouse and keyboard gestures on the editor's canvas, named as an author would say them."""

from __future__ import annotations

import math
import re

from playwright.sync_api import Locator, Page, expect


def node(page: Page, node_id: str) -> Locator:
    return page.locator(f'.react-flow__node[data-id="{node_id}"]')


def port(page: Page, node_id: str, name: str) -> Locator:
    """A node's out port `name`, or its input (`in`)."""
    return node(page, node_id).locator(f'.react-flow__handle[data-handleid="{name}"]')


def add(page: Page, type_name: str) -> None:
    """Click a node type in the palette (by its catalog name)."""
    page.get_by_role("complementary").get_by_role("button").filter(has_text=type_name).first.click()


def viewport(page: Page) -> str:
    """The canvas's pan and zoom, as React Flow draws them."""
    return str(page.locator(".react-flow__viewport").evaluate("e => e.style.transform"))


def zoom(page: Page) -> float:
    return float(viewport(page).split("scale(")[1].rstrip(")"))


def _inside_canvas(page: Page, target: Locator) -> tuple[float, float]:
    """The centre of `target`, which must be inside the canvas's box: a gesture aimed outside it would
    land on the palette or the panel and fail for a reason that has nothing to do with wiring."""
    box = target.bounding_box()
    canvas = page.locator(".react-flow").bounding_box()
    assert box is not None and canvas is not None, "the port or the canvas is not drawn"
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert canvas["x"] < x < canvas["x"] + canvas["width"], f"x {x} is outside the canvas {canvas}"
    assert canvas["y"] < y < canvas["y"] + canvas["height"], f"y {y} is outside the canvas {canvas}"
    return x, y


def wire(page: Page, source: str, name: str, target: str) -> None:
    """Drag from a node's named port to another node's input, with the mouse, the way a hand does: in
    small steps. The canvas must stay where it was during the drag (it used to pan by itself when the
    pointer came near its edge, and the wire then ended beside the input)."""
    start = port(page, source, name)
    _inside_canvas(page, start)
    before = viewport(page)
    # hover() waits until the port stands still and takes the pointer: a press beside it would pan.
    start.hover()
    page.mouse.down()
    end_x, end_y = _inside_canvas(page, port(page, target, "in"))
    page.mouse.move(end_x, end_y, steps=12)
    page.mouse.up()
    assert viewport(page) == before, (
        "the canvas moved during the drag (by itself, or pressed beside the port)"
    )


def click_wire(page: Page, source: str, name: str, target: str) -> None:
    """Click a port, then the other node's input: React Flow's click-to-connect."""
    start = port(page, source, name)
    start.click()
    expect(start).to_have_class(_has("clickconnecting"))
    port(page, target, "in").click()


def key_wire(page: Page, source: str, name: str, target: str) -> None:
    """With the keyboard alone: a port takes the focus like any button, Enter starts the wire on it and
    Enter on the other node's input ends it."""
    port(page, source, name).focus()
    page.keyboard.press("Enter")
    port(page, target, "in").focus()
    page.keyboard.press("Enter")


def zoom_to(page: Page, factor: float) -> None:
    """Zoom the canvas with the mouse wheel at its centre until it shows `factor` (within 2 %)."""
    canvas = page.locator(".react-flow").bounding_box()
    assert canvas is not None
    page.mouse.move(canvas["x"] + canvas["width"] / 2, canvas["y"] + canvas["height"] / 2)
    for _ in range(5):
        now = zoom(page)
        if abs(now - factor) / factor < 0.02:
            return
        # d3-zoom, under React Flow, scales by 2 ** (-deltaY * 0.002) per wheel event.
        before = viewport(page)
        page.mouse.wheel(0, -math.log2(factor / now) / 0.002)
        _moved_from(page, before)
    raise AssertionError(f"the canvas shows zoom {zoom(page)}, not {factor}")


def pan_by(page: Page, dx: float, dy: float) -> None:
    """Drag the canvas's background by (dx, dy), from a point of its top edge that no card covers."""
    canvas = page.locator(".react-flow").bounding_box()
    assert canvas is not None
    y = canvas["y"] + 6
    x = next(
        x
        for x in range(int(canvas["x"]) + 6, int(canvas["x"] + canvas["width"]), 20)
        if page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.classList.contains('react-flow__pane')", [x, y]
        )
    )
    page.mouse.move(x, y)
    page.mouse.down()
    before = viewport(page)
    page.mouse.move(x + dx, y + dy, steps=6)
    page.mouse.up()
    _moved_from(page, before)


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


def _has(word: str) -> re.Pattern[str]:
    return re.compile(rf"(^|\s){word}(\s|$)")


def _moved_from(page: Page, transform: str) -> None:
    page.wait_for_function(
        "old => document.querySelector('.react-flow__viewport').style.transform !== old", arg=transform
    )
