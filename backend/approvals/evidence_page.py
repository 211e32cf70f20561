"""The evidence file as a person reads it: an HTML page in their language, its data in one JSON block.

Every text of the page is a catalog sentence; every value from the data (titles, comments, names, the
input) is escaped, never markup. The page's bytes up to the data block are the **rendering**, whose
digest the manifest signs, so a page changed to say something its data does not is refused too.

Examples:
    >>> page = assemble(b"<p>x</p>", {"manifest": {}, "signature": "", "parts": {"a": "</script>"}})
    >>> rendering, data = split(page)
    >>> rendering, data["parts"]
    (b'<p>x</p>', {'a': '</script>'})
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from html import escape
from typing import Any

from babel.core import UnknownLocaleError
from babel.lists import format_list

from backend.i18n.catalogs import message
from backend.i18n.zones import format_moment

MARKER = b'<script type="application/json" id="flowyard-evidence">'
TAIL = b"</script></body></html>\n"
_STYLE = (
    "body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1c2430}"
    "h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:2rem;border-bottom:1px solid #ccd}"
    "dt{font-weight:600;margin-top:.5rem}dd{margin:0 0 0 1rem}pre{background:#f4f5f8;padding:.5rem;"
    "white-space:pre-wrap;overflow-wrap:anywhere}code{overflow-wrap:anywhere}"
)


def assemble(rendering: bytes, data: dict[str, Any]) -> bytes:
    """The file: the rendering, then the data in a JSON block that no value can close early."""
    block = json.dumps(data, ensure_ascii=False, indent=1).replace("</", "<\\/").encode()
    return rendering + MARKER + block + TAIL


def split(page: bytes) -> tuple[bytes, Any]:
    """The rendering and the data of a file; ValueError when it is not an evidence file."""
    rendering, marker, rest = page.partition(MARKER)
    if not marker or not rest.endswith(TAIL):
        raise ValueError("no evidence block")
    return rendering, json.loads(rest[: -len(TAIL)].decode())


def render(parts: dict[str, Any], locale: str) -> bytes:
    """The page of `parts` (evidence.py) in `locale`, up to its data block."""
    say = _Say(locale)
    chain = parts["chain"]
    records = [json.loads(r["content"]) for r in chain["records"]]
    decision = next(r for r in records if r.get("approval") == chain["approval"] and "outcome" in r)
    votes = [r for r in records if r.get("approval") == chain["approval"] and "vote" in r]
    title = message("evidence_title", say.locale, approval=chain["approval"])
    html = [
        f'<!doctype html><html lang="{escape(locale.replace("_", "-"))}"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body><main>",
        f"<h1>{escape(title)}</h1><p>{escape(message('evidence_intro', say.locale))}</p>",
        f"<pre>flowyard audit check-evidence FILE --public-key {escape(_public_key(parts))}</pre>",
        _section(
            message("evidence_question", say.locale),
            [
                (message("evidence_field_title", say.locale), _text(decision.get("title"))),
                (message("evidence_field_explanation", say.locale), _text(decision.get("explanation"))),
                *[
                    (_shown_name(item, say.locale), _value(item.get("value")))
                    for item in decision.get("shown") or []
                ],
            ],
        ),
        _section(
            message("evidence_decision", say.locale),
            [
                (
                    message("evidence_field_outcome", say.locale),
                    escape(say.dynamic(f"outcome_{decision['outcome']}")),
                ),
                (message("evidence_field_decided_by", say.locale), _text(decision.get("decided_by"))),
                (message("evidence_field_on_behalf_of", say.locale), _text(decision.get("on_behalf_of"))),
                (
                    message("evidence_field_decided_at", say.locale),
                    escape(say.moment(decision.get("decided_at"))),
                ),
                (message("evidence_field_comment", say.locale), _text(decision.get("comment"))),
            ],
        ),
        _section(
            message("evidence_votes", say.locale),
            [
                (
                    str(vote.get("voter") or "—"),
                    escape(
                        message(
                            "evidence_vote",
                            say.locale,
                            choice=message("outcome_approved", say.locale)
                            if vote.get("choice") == "approve"
                            else message("outcome_rejected", say.locale),
                            when=say.moment(vote.get("cast_at")),
                        )
                    )
                    + (f"<br>{_text(vote['comment'])}" if vote.get("comment") else ""),
                )
                for vote in votes
            ]
            or [(message("evidence_votes", say.locale), escape(message("evidence_none", say.locale)))],
        ),
        _run(parts["run"], say),
        _flow(parts["flow"], say),
        _rights(parts["rights"], say),
        _section(
            message("evidence_proof", say.locale),
            [
                (
                    message("evidence_field_records", say.locale),
                    escape(
                        message(
                            "evidence_proof_records",
                            say.locale,
                            records=len(chain["records"]),
                            chain=chain["chain"],
                            seq=chain["records"][-1]["seq"] if chain["records"] else 0,
                        )
                    ),
                ),
                (message("evidence_field_signed_at", say.locale), escape(say.moment(_signed_at(parts)))),
                (
                    message("evidence_field_public_key", say.locale),
                    f"<code>{escape(_public_key(parts))}</code>",
                ),
            ],
        ),
        "</main>",
    ]
    return "".join(html).encode()


class _Say:
    def __init__(self, locale: str) -> None:
        self.locale = locale

    def dynamic(self, key: str) -> str:
        """A key made of a word from the data: a code written as a literal where it is raised."""
        return message(key, self.locale)

    def moment(self, text: str | None) -> str:
        if not text:
            return "—"
        # In UTC, named: the reader of a file may be anywhere, and so may its next reader.
        return format_moment(datetime.fromisoformat(text.replace("Z", "+00:00")), self.locale, tz=UTC)


def _shown_name(item: dict[str, Any], locale: str) -> str:
    """A shown value's name: its label, or the input's own name when the node named nothing to show."""
    if item.get("label"):
        return str(item["label"])
    if item.get("path") == "trigger":
        return message("evidence_field_input", locale)
    return str(item.get("path") or "—")


def _section(heading: str, entries: list[tuple[str, str]]) -> str:
    """A heading and a list of (name, value as markup already escaped)."""
    items = "".join(f"<dt>{escape(name)}</dt><dd>{value}</dd>" for name, value in entries)
    return f"<h2>{escape(heading)}</h2><dl>{items}</dl>"


def _text(value: Any) -> str:
    return "—" if value in (None, "") else escape(str(value))


def _value(value: Any) -> str:
    if isinstance(value, str | int | float | bool) or value is None:
        return _text(value)
    return f"<pre>{escape(json.dumps(value, ensure_ascii=False, indent=2))}</pre>"


def _run(run: dict[str, Any], say: _Say) -> str:
    if not run.get("kept"):
        return _section(
            message("evidence_run", say.locale),
            [(message("evidence_field_run", say.locale), escape(message("evidence_not_kept", say.locale)))],
        )
    given = (
        _value(run.get("input"))
        if run.get("input_kept")
        else escape(message("evidence_input_digest", say.locale, digest=run.get("input_digest", "")))
    )
    return _section(
        message("evidence_run", say.locale),
        [
            (message("evidence_field_run", say.locale), _text(run.get("run"))),
            (message("evidence_field_started_by", say.locale), _text(run.get("started_by"))),
            (message("evidence_field_started_at", say.locale), escape(say.moment(run.get("started_at")))),
            (message("evidence_field_input", say.locale), given),
        ],
    )


def _flow(flow: dict[str, Any], say: _Say) -> str:
    if not flow.get("kept"):
        return _section(
            message("evidence_flow", say.locale),
            [(message("evidence_field_flow", say.locale), escape(message("evidence_not_kept", say.locale)))],
        )
    return _section(
        message("evidence_flow", say.locale),
        [
            (message("evidence_field_flow", say.locale), _text(flow.get("name"))),
            (message("evidence_field_version", say.locale), _text(flow.get("version"))),
            (
                message("evidence_field_saved", say.locale),
                escape(
                    message(
                        "evidence_saved",
                        say.locale,
                        who=flow.get("saved_by") or "—",
                        when=say.moment(flow.get("saved_at")),
                    )
                ),
            ),
            (message("evidence_field_digest", say.locale), f"<code>{escape(str(flow.get('digest')))}</code>"),
        ],
    )


def _rights(rights: dict[str, Any], say: _Say) -> str:
    from backend.approvals.evidence import rights_then

    rows = []
    for user in rights["users"]:
        held = rights_then(rights["records"], user)
        names = [
            say.dynamic(f"right_name_{right}")
            if flow is None
            else message(
                "evidence_right_on_flow", say.locale, right=say.dynamic(f"right_name_{right}"), flow=flow
            )
            for right, flow in held
        ]
        rows.append(
            (user, escape(_listed(names, say.locale) if names else message("evidence_none", say.locale)))
        )
    return _section(message("evidence_rights", say.locale), rows)


def _listed(names: list[str], locale: str) -> str:
    """Names joined as the reader's language lists them ("a, b and c")."""
    try:
        return format_list(names, locale=locale)
    except (ValueError, UnknownLocaleError):  # the pseudo-locale: Babel has no list patterns for it
        return format_list(names, locale="en")


def _signed_at(parts: dict[str, Any]) -> str | None:
    try:
        return str(json.loads(parts["signed_head"])["signed_at"])
    except (ValueError, TypeError, KeyError):
        return None


def _public_key(parts: dict[str, Any]) -> str:
    try:
        return str(json.loads(parts["signed_head"])["public_key"])
    except (ValueError, TypeError, KeyError):
        return ""
