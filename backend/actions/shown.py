"""What an action says of a URL a secret went into: the URL as the flow wrote it, never as it was sent.

The walk hands the sender a config rendered with `{{secrets.NAME}}` left as written (what the journal and
the effects log keep) and, per secret, a slot to fill for the try. Everything an action reports about a
URL that was filled from a secret (the URL an answer came from, the host that could not be found or
refused the connection, a library's words about either) is reported of the written URL instead: the
host of `{{secrets.hook}}` is `{{secrets.hook}}`. This is the first net; the redaction of the secrets'
values (backend/walker/redact.py) is the second, for what a server echoes.

Before anything is sent, a rendered URL is held to the rule validation holds templates to
(backend/graph/secret_refs.py): a secret is the whole URL or comes after its authority has ended, so
that no secret decides a host or a port. A version saved before the rule is refused here.

Examples:
    >>> hidden_host("{{secrets.hook}}"), hidden_host("https://h.example/{{secrets.p}}")
    (True, False)
    >>> shown_after("https://h.example/a/{{secrets.p}}/b", "c?x=1")
    'https://h.example/a/{{secrets.p}}/c?x=1'
    >>> shown_after("https://h.example/a/{{secrets.p}}", "/elsewhere") is None
    True
    >>> shown_after("{{secrets.hook}}", "next"), shown_after("{{secrets.hook}}", "https://o.example/") is None
    ('{{secrets.hook}}', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from backend.actions.failures import ActionFailure
from backend.graph.secret_refs import authority_ended
from backend.walker.redact import replace_texts
from backend.walker.requests import ActionRequest
from backend.walker.secret_refs import Piece, SecretRef

Pairs = Sequence[tuple[str, str]]


def url_field(request: ActionRequest) -> str | None:
    """The config field of an action that is a URL it sends to, or None."""
    if request.type == "http":
        return "url"
    if request.type == "notify" and request.config.get("channel") == "webhook":
        return "to"
    return None


def written_url(request: ActionRequest) -> str | None:
    """The action's URL as written, when a secret goes into it; None when the URL holds no secret."""
    field = url_field(request)
    if field is None or not any(path == (field,) for path, _pieces in request.secrets):
        return None
    written = request.config.get(field)
    return written if isinstance(written, str) else None


def secret_headers(request: ActionRequest) -> frozenset[str]:
    """The lower-case names of the headers a secret goes into: they never follow a redirect to another
    origin (backend/actions/transport.py)."""
    return frozenset(
        str(path[1]).lower() for path, _pieces in request.secrets if len(path) == 2 and path[0] == "headers"
    )


def check_place(request: ActionRequest) -> None:
    """`secret_place_forbidden` when a secret of the action's URL could fall into its host or port."""
    field = url_field(request)
    for path, pieces in request.secrets:
        if path == (field,) and not _place_allowed(pieces):
            raise ActionFailure(code="secret_place_forbidden", field=field)


def _place_allowed(pieces: tuple[Piece, ...]) -> bool:
    if len(pieces) == 1 and isinstance(pieces[0], SecretRef):
        return True
    prefix: list[str] = []
    for piece in pieces:
        if isinstance(piece, SecretRef):
            return authority_ended("".join(prefix))
        prefix.append(piece)
    return True


def hidden_host(shown: str) -> bool:
    """Whether a written URL's host comes from a secret: its authority names one, or it has none to
    read (the whole URL is a secret)."""
    try:
        authority = urlsplit(shown).netloc
    except ValueError:
        return True
    return not authority or "{{" in authority


def shown_host(shown: str) -> str:
    """The host as written: the authority's host part, or the whole written URL when the host is hidden."""
    if hidden_host(shown):
        return shown
    return urlsplit(shown).netloc.rpartition("@")[2]


def pairs_of(sent: str, url: httpx.URL | None, shown: str) -> Pairs:
    """What to put in place of what in a hop's words: each spelling of the URL as sent, and (when the host
    came from a secret) of its host, by the written URL and host. Longest first."""
    pairs = {sent: shown}
    if url is not None:
        pairs[str(url)] = shown
        if hidden_host(shown):
            written_host = shown_host(shown)
            for spelling in (url.netloc.decode("ascii"), url.raw_host.decode("ascii"), url.host):
                pairs.setdefault(spelling, written_host)
    return sorted(((k, v) for k, v in pairs.items() if k), key=lambda pair: len(pair[0]), reverse=True)


def told(failure: ActionFailure, pairs: Pairs) -> ActionFailure:
    """The failure as it may be told: every text of its details with `pairs` replaced."""
    return ActionFailure(code=failure.code, **replace_texts(dict(failure.detail), pairs))


def told_answer(headers: Mapping[str, str], pairs: Pairs) -> dict[str, str]:
    return dict(replace_texts(dict(headers), pairs))


def shown_after(shown: str | None, location: str) -> str | None:
    """The written URL of a redirect's target. A `Location` with a host of its own is the server's
    word (None: reported as sent, the second net behind it); a relative one keeps what it keeps of the
    written URL, and a target that keeps nothing written is reported as sent."""
    if shown is None:
        return None
    try:
        target = urlsplit(location)
    except ValueError:
        return shown
    if target.scheme or target.netloc:
        return None
    if hidden_host(shown):
        return shown
    joined = urljoin(shown, location)
    return joined if "{{" in joined else None


def written_pairs(request: ActionRequest, filled: Any) -> Pairs:
    """Each config text a secret went into, as filled, paired with the same text as written."""
    pairs: dict[str, str] = {}
    for path, _pieces in request.secrets:
        sent, written = _at(filled, path), _at(request.config, path)
        if isinstance(sent, str) and isinstance(written, str) and sent and sent != written:
            pairs.setdefault(sent, written)
    return sorted(pairs.items(), key=lambda pair: len(pair[0]), reverse=True)


def _at(config: Any, path: tuple[str | int, ...]) -> Any:
    for key in path:
        try:
            config = config[key]
        except (KeyError, IndexError, TypeError):
            return None
    return config
