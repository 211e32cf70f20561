"""`flowyard runs resume RUN [--version N] --dry-run [--json]`: a resume's preview at the terminal.

Words in the terminal's language by default, one line per action the resume would reach and one for
where it would stop; with `--json`, the preview as the API answers it (`ResumePreview.to_json`), for
programs. Nothing is written and nothing sent (backend/queue/preview.py). The operator at the terminal
holds the database's credentials, as for the resume itself: no right is asked.
"""

from __future__ import annotations

import json

from psycopg import AsyncConnection

from backend.console import locale, refuse
from backend.i18n.catalogs import message
from backend.queue.preview import ResumePreview, preview_resume, read_resume
from backend.queue.preview_walk import PreviewAction
from backend.queue.stops import StopRefused
from backend.walker import Limits
from backend.walker.sizes import JournalBudget


async def preview_command(
    url: str, run_id: int, version: int | None, *, as_json: bool, limits: Limits, journal_bytes: int
) -> int:
    """Print the preview of resuming `run_id` (on `version`) within `limits` and a journal of at most
    `journal_bytes`; exit 0, or 1 with the resume's refusal."""
    async with await AsyncConnection.connect(url, autocommit=True) as conn:
        try:
            start = await read_resume(conn, run_id, version)
        except StopRefused as refused:
            return refuse(code=refused.code, **refused.params)
    preview = preview_resume(start, limits, JournalBudget(journal_bytes))
    if as_json:
        print(json.dumps(preview.to_json(), ensure_ascii=False))
    else:
        for line in lines(preview, locale()):
            print(line)
    return 0


def lines(preview: ResumePreview, locale: str) -> list[str]:
    """The preview in words: a heading, each action, where it would stop."""
    said = [message("run_preview_heading", locale, run=preview.run, version=preview.version)]
    said += [_action(action, locale) for action in preview.actions]
    if not preview.actions:
        said.append(message("run_preview_no_actions", locale))
    for node, _visit, node_type, label in preview.pending:
        said.append(message("run_preview_waits", locale, node=_named(node, label), type=node_type))
    if preview.status == "succeeded":
        said.append(message("run_preview_succeeds", locale))
    elif preview.status == "failed":
        node = _named(preview.node or "-", preview.node_label)
        said.append(message("run_preview_fails", locale, node=node, error=preview.error or ""))
    return said


def _action(action: PreviewAction, locale: str) -> str:
    named = _named(action.node, action.label)
    params = {"visit": action.visit, "type": action.type, "node": named, "effect_key": action.key or ""}
    if not action.sent:
        return message("run_preview_kept", locale, **params)
    destination = action.destination or "-"
    if action.key is None:
        return message("run_preview_send_new", locale, destination=destination, **params)
    return message("run_preview_send", locale, destination=destination, **params)


def _named(node: str, label: str | None) -> str:
    return f"{label} ({node})" if label else node
