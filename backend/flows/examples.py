"""The example flows of examples/, offered to authors as templates to start a flow from (issue 33).

The documents are the very files `tests/examples` checks, walks and runs, read where the package is: a
built wheel carries examples/ as `backend/examples` (pyproject.toml), a checkout has it beside backend/.
A template's name and one-line description are sentences of the catalogs, in the reader's language; the
nodes stay as the example wrote them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from backend.i18n import message


@dataclass(frozen=True, slots=True)
class Template:
    """One example as a template: its file's stem, and its name, description and document in a language."""

    id: str
    name: str
    description: str
    document: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "description": self.description, "document": self.document}


def _examples_dir() -> Traversable:
    shipped = resources.files("backend").joinpath("examples")
    if shipped.is_dir():
        return shipped
    return Path(__file__).resolve().parents[2] / "examples"


@cache
def _document(stem: str) -> dict[str, Any]:
    document = json.loads(_examples_dir().joinpath(f"{stem}.json").read_text(encoding="utf-8"))
    assert isinstance(document, dict), f"examples/{stem}.json holds a flow document"
    return document


# Each template's name and one-line description in a language (the keys written out for the catalog scan).
SENTENCES: dict[str, Callable[[str], tuple[str, str]]] = {
    "invoice-approval": lambda locale: (
        message("template_invoice_approval", locale),
        message("template_invoice_approval_about", locale),
    ),
    "parallel-approvals": lambda locale: (
        message("template_parallel_approvals", locale),
        message("template_parallel_approvals_about", locale),
    ),
    "order-lines": lambda locale: (
        message("template_order_lines", locale),
        message("template_order_lines_about", locale),
    ),
    "reminder": lambda locale: (
        message("template_reminder", locale),
        message("template_reminder_about", locale),
    ),
    "webhook-order": lambda locale: (
        message("template_webhook_order", locale),
        message("template_webhook_order_about", locale),
    ),
    "weekly-report": lambda locale: (
        message("template_weekly_report", locale),
        message("template_weekly_report_about", locale),
    ),
}


def templates(locale: str) -> list[Template]:
    """Every template, in the order the flows page lists them (the commonest start first), named and
    described in `locale`; each document's name and description are those.

    Examples:
        >>> [(t.id, t.name) for t in templates("de")][:1]
        [('invoice-approval', 'Rechnungsfreigabe')]
        >>> all(t.document["name"] == t.name for t in templates("ja"))
        True
    """
    found = []
    for stem, sentences in SENTENCES.items():
        name, description = sentences(locale)
        document = {**_document(stem), "name": name, "description": description}
        found.append(Template(stem, name, description, document))
    return found
