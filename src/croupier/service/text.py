"""The text rule where a request's text is not JSON: every string a client sends is Unicode text.

A JSON body is held to it by :func:`croupier.inputs.parse_json` (no lone surrogate). The path, the
query and a form body carry text as percent-escaped UTF-8 bytes; the server's decoders replace
bytes that are not UTF-8 with U+FFFD (``%ED%A0%80``, the bytes of a surrogate, became ``"���"``
and was stored as a table's name). Here such bytes are found first — :func:`undecodable` names
the parameter or field that holds them — and the request is a 422 problem, never text the
client did not send. Headers are bytes the routes read as ASCII (``Idempotency-Key``, a token),
each refusing any other byte itself.
"""

from __future__ import annotations

from urllib.parse import unquote_to_bytes

_PERCENT = ord("%")
"""The byte that starts a percent-escape (an ``int``: membership of one byte is a ``memchr``,
several times faster than of ``b"%"``)."""


def _plain(raw: bytes) -> bool:
    """Whether ``raw`` is ASCII without a percent-escape: text as it is (the common case, told
    in a fraction of a microsecond)."""
    return raw.isascii() and _PERCENT not in raw


def _bad(raw: bytes) -> bool:
    """Whether the percent-escaped ``raw`` is not UTF-8 once unescaped."""
    if _plain(raw):
        return False
    try:
        unquote_to_bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def undecodable_fields(encoded: bytes, where: str) -> str | None:
    """The first field of the URL-encoded ``encoded`` (a query string or a form body: ``k=v``
    pairs joined by ``&``, ``+`` a space) whose name or value is not UTF-8 once unescaped, as
    ``"{where}.{name}"`` (a name shown with its bad bytes replaced); ``None`` if every one is.

    >>> undecodable_fields(b"table=BJ-1&q=%E2%99%A0", "query") is None
    True
    >>> undecodable_fields(b"table=%ED%A0%80", "query")
    'query.table'
    """
    for pair in encoded.split(b"&"):
        name, _, value = pair.replace(b"+", b" ").partition(b"=")
        if _bad(name) or _bad(value):
            shown = unquote_to_bytes(name).decode("utf-8", "replace")
            return f"{where}.{shown[:40]}"
    return None


def undecodable(raw_path: bytes | None, query: bytes) -> str | None:
    """``"path"`` when the percent-escaped ``raw_path`` is not UTF-8 once unescaped, else the
    query parameter that is not (:func:`undecodable_fields`), else ``None``."""
    plain_path = raw_path is None or (_PERCENT not in raw_path and raw_path.isascii())
    if plain_path and _PERCENT not in query and query.isascii():  # the common case: ~0.2 µs
        return None
    if raw_path is not None and _bad(raw_path):
        return "path"
    return undecodable_fields(query, "query") if query else None


def refusal(where: str) -> str:
    """The 422 problem's detail for text at ``where`` that is not UTF-8."""
    return (
        f"{where}: its percent-escaped bytes are not UTF-8 text (every string croupier reads is "
        "Unicode text; the bytes of a surrogate, %ED%A0%80, are not)"
    )


__all__ = ["refusal", "undecodable", "undecodable_fields"]
