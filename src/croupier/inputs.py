"""Reading the files users give croupier: the one place a path becomes text and text becomes data.

Round records (JSON), Rules Submissions (TOML) and users' paytable files (TOML) all pass through
:func:`read_text`, then :func:`parse_json` or :func:`parse_toml`. The limits (stated in
docs/limits.md):

* a file is a *regular* file (not a directory, device or FIFO: ``/dev/zero`` is refused before a
  byte is read) of at most :data:`MAX_FILE_BYTES` bytes; at most that many + 1 are ever read;
* its bytes are UTF-8 (an error names the byte offset of the first bad byte);
* JSON and TOML nest arrays and tables at most :data:`MAX_NESTING` deep;
* an integer has at most :data:`MAX_INTEGER_DIGITS` digits (Python itself stops at 4,300);
* a JSON object names each key once (JSON parsers keep the last of two silently:
  ``{"action": "bet", …, "action": "settle"}`` ran as a settle); TOML refuses them itself;
* every string — each value and each key — is Unicode text: scalar values only, no lone surrogate
  (a JSON escape ``"\\ud800"`` without its pair, which no UTF-8 text can hold; RFC 8259 § 8.2).
  A refusal is a :class:`~croupier.errors.UnicodeTextError` naming the string by its JSON pointer
  (RFC 6901). TOML refuses such an escape itself.

Every rejection is an :class:`~croupier.errors.InputFileError` naming the file.

>>> parse_json('{"steps": [1, 2]}', "round.json")
{'steps': [1, 2]}
>>> parse_json("[" * 40 + "]" * 40, "deep.json")
Traceback (most recent call last):
...
croupier.errors.InputFileError: deep.json: arrays and tables nested more than 32 deep ...
"""

from __future__ import annotations

import json
import os
import re
import stat
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from croupier.errors import InputFileError, UnicodeTextError, one_line

MAX_FILE_BYTES = 1_048_576
"""The largest input file croupier reads, in bytes (1 MiB)."""

MAX_NESTING = 32
"""How deep arrays and tables (objects) may nest in a JSON or TOML input."""

MAX_INTEGER_DIGITS = 40
"""The most digits an integer in a JSON or TOML input may have."""


def _name(path: str | os.PathLike[str]) -> str:
    return one_line(os.fspath(path))


def read_text(path: str | os.PathLike[str], max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of the regular file at ``path``.

    Raises :class:`~croupier.errors.InputFileError` when the path holds a NUL byte, cannot be
    opened, is not a regular file (checked before anything is read), is larger than ``max_bytes``
    (at most ``max_bytes + 1`` bytes are read, so a file growing meanwhile is caught too), or is
    not UTF-8 (naming the offset of the first bad byte).
    """
    name = _name(path)
    text_path = os.fspath(path)
    if "\x00" in text_path:
        raise InputFileError(name, "a path cannot hold a NUL byte")
    try:
        fd = os.open(text_path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise InputFileError(name, f"cannot read: {exc.strerror or exc}") from exc
    except ValueError as exc:  # a lone surrogate: not a name the file system can hold
        raise InputFileError(name, "cannot read: the path is not valid text") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise InputFileError(name, f"cannot read: {kind} (croupier reads regular files)")
        if info.st_size > max_bytes:
            raise InputFileError(name, _too_big(info.st_size, max_bytes))
        chunks: list[bytes] = []
        left = max_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise InputFileError(name, f"cannot read: {exc.strerror or exc}") from exc
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > max_bytes:
        raise InputFileError(name, _too_big(len(data), max_bytes))
    return decode(data, name)


def _too_big(size: int, limit: int) -> str:
    return f"larger than croupier reads ({size:,} bytes or more; the limit is {limit:,} bytes)"


def decode(data: bytes, source: str) -> str:
    """``data`` decoded as UTF-8 (a leading byte-order mark dropped); an
    :class:`~croupier.errors.InputFileError` names the offset of the first bad byte.

    >>> decode(b"ok \\xff", "paytable.toml")
    Traceback (most recent call last):
    ...
    croupier.errors.InputFileError: paytable.toml: not UTF-8: byte 0xff at offset 3 ...
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 1].hex()
        raise InputFileError(
            source,
            f"not UTF-8: byte 0x{bad} at offset {exc.start} ({exc.reason}); save the file as UTF-8",
            offset=exc.start,
        ) from None


# a JSON string, or one bracket
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)
# a TOML string (multi-line first), a comment, a bracket, or a run of digits
_TOML_TOKENS = re.compile(
    r'"""(?:[^\\]|\\.)*?(?:"""|$)|\'\'\'.*?(?:\'\'\'|$)|"(?:[^"\\\n]|\\.)*"?|\'[^\'\n]*\'?'
    r"|#[^\n]*|[\[\]{}]|\d[\d_]*",
    re.DOTALL,
)
_OPEN = frozenset("[{")


def _check_brackets(tokens: re.Pattern[str], text: str, source: str) -> None:
    depth = 0
    for m in tokens.finditer(text):
        t = m.group()
        if t in _OPEN:
            depth += 1
            if depth > MAX_NESTING:
                raise InputFileError(source, _too_deep())
        elif t in "]}":
            depth = max(0, depth - 1)
        elif t[0].isdigit() and len(t.replace("_", "")) > MAX_INTEGER_DIGITS:
            raise InputFileError(source, _too_long(t))


def _too_deep() -> str:
    return f"arrays and tables nested more than {MAX_NESTING} deep (the limit croupier reads)"


def _too_long(digits: str) -> str:
    return f"a number of {len(digits):,} digits (croupier reads at most {MAX_INTEGER_DIGITS})"


_MAX_INTEGER = 10**MAX_INTEGER_DIGITS


def _check_depth(data: Any, source: str) -> None:
    """Walk the parsed data without recursion (dotted TOML keys nest without brackets; a TOML
    hexadecimal integer has no decimal digits to count)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, int) and not -_MAX_INTEGER < value < _MAX_INTEGER:
            raise InputFileError(source, f"an integer of {value.bit_length():,} bits is too large")
        if isinstance(value, dict | list):
            if depth >= MAX_NESTING:
                raise InputFileError(source, _too_deep())
            items = value.values() if isinstance(value, dict) else value
            stack.extend((v, depth + 1) for v in items)


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
"""A surrogate code point: in a parsed string, one without its pair (a pair is one character)."""

_MAY_HOLD_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")
"""What a JSON text holding a lone surrogate must contain: a ``\\uD800``–``\\uDFFF`` escape (a
pair too, or an escaped backslash before ``ud8…``: the walk then finds nothing) or the code point
itself (a command line's byte that was not UTF-8)."""


def pointer(path: tuple[str | int, ...]) -> str:
    """The JSON pointer (RFC 6901) of ``path``, each key escaped (``~`` as ``~0``, ``/`` as
    ``~1``) and made printable (:func:`~croupier.errors.one_line`): ``("steps", 0, "a/b")`` →
    ``'/steps/0/a~1b'``; ``()`` → ``''`` (the whole document).

    >>> pointer(("steps", 0, "a/b")), pointer(())
    ('/steps/0/a~1b', '')
    """
    return "".join("/" + one_line(str(p)).replace("~", "~0").replace("/", "~1") for p in path)


def check_text(data: Any, source: str) -> None:
    """Refuse ``data`` (parsed JSON: dicts, lists, strings, numbers) if any string in it — a
    value or a key — is not Unicode text: it holds a lone surrogate, a code point from U+D800 to
    U+DFFF without its pair, which no UTF-8 text (a database's, a log's, a response's) can hold.
    The :class:`~croupier.errors.UnicodeTextError` names the first such string by its JSON
    pointer (RFC 6901), walking without recursion.

    >>> check_text({"steps": [{"seat": "3"}]}, "round.json")
    >>> check_text({"steps": [{"seat": "\\ud800"}]}, "round.json")
    Traceback (most recent call last):
    ...
    croupier.errors.UnicodeTextError: round.json: the string at /steps/0/seat holds ...
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(data, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, str):
            if _LONE_SURROGATE.search(value):
                raise UnicodeTextError(source, pointer(path), value)
        elif isinstance(value, dict):
            for key in value:
                if _LONE_SURROGATE.search(key):
                    raise UnicodeTextError(source, pointer(path), key, key=True)
            stack.extend((value[k], (*path, k)) for k in reversed(value))  # in document order
        elif isinstance(value, list):
            stack.extend((value[i], (*path, i)) for i in range(len(value) - 1, -1, -1))


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INTEGER_DIGITS:
        raise _Reject(_too_long(text.lstrip("-")))
    return int(text)


def _json_constant(name: str) -> float:
    raise _Reject(f"{name} is not a JSON number")


def _json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's members as a dict, refusing a key named twice (the parser would keep the
    last one silently)."""
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _Reject(
                    f"the key {key!r} appears twice in one object (a JSON reader would keep the "
                    "last one silently; croupier reads each key once)"
                )
            seen.add(key)
    return found


class _Reject(Exception):
    """Raised inside the JSON parser's hooks; becomes an InputFileError."""


def parse_json(text: str, source: str) -> Any:
    """Parse JSON ``text`` (``source`` names it in errors) within the nesting and digit limits.

    Raises :class:`~croupier.errors.InputFileError` for malformed JSON (with line and column),
    ``NaN``/``Infinity``, a key named twice in one object, nesting deeper than
    :data:`MAX_NESTING` or an integer longer than :data:`MAX_INTEGER_DIGITS` digits, and its
    :class:`~croupier.errors.UnicodeTextError` for a string that is not Unicode text (a lone
    surrogate, :func:`check_text`), naming the string's JSON pointer.

    >>> parse_json('{"action": "bet", "seat": 3, "action": "settle"}', "step")
    Traceback (most recent call last):
    ...
    croupier.errors.InputFileError: step: the key 'action' appears twice in one object ...
    """
    data = _parsed("JSON", _JSON_TOKENS, _load_json, text, source)
    if _MAY_HOLD_SURROGATE.search(text):
        check_text(data, source)
    return data


def _load_json(text: str) -> Any:
    return json.loads(
        text,
        parse_int=_json_int,
        parse_constant=_json_constant,
        object_pairs_hook=_json_object,
    )


def _parsed(
    kind: str, tokens: re.Pattern[str], load: Callable[[str], Any], text: str, source: str
) -> Any:
    """``load(text)`` after the bracket and digit scan, every failure an InputFileError."""
    _check_brackets(tokens, text, source)
    try:
        data = load(text)
    except _Reject as exc:
        raise InputFileError(source, str(exc)) from None
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputFileError(source, f"not valid {kind}: {exc}") from None
    except (RecursionError, ValueError) as exc:  # pragma: no cover - the limits come first
        raise InputFileError(source, f"not valid {kind}: {exc}") from None
    _check_depth(data, source)
    return data


def parse_toml(text: str, source: str) -> dict[str, Any]:
    """Parse TOML ``text`` (``source`` names it in errors) within the nesting and digit limits.

    Raises :class:`~croupier.errors.InputFileError` for malformed TOML (with line and column),
    nesting deeper than :data:`MAX_NESTING` or an integer longer than :data:`MAX_INTEGER_DIGITS`
    digits.
    """
    data: dict[str, Any] = _parsed("TOML", _TOML_TOKENS, tomllib.loads, text, source)
    return data


ITEMS = {
    "paytables": "paytable",
    "lines": "line",
    "meters": "meter",
    "multipliers": "multiplier",
    "steps": "step",
    "wagers": "wager",
    "bets": "bet",
    "seats": "seat",
    "levels": "level",
}
"""The lists of croupier's input files, by key, and what one item of each is called."""


def where(
    loc: tuple[int | str, ...] | list[int | str], label: Callable[[str, int], str] | None = None
) -> str:
    """Where in a file a validation error (pydantic's ``loc``) is, in words, counting items from 1
    as every other croupier message does: ``('steps', 1, 'seat')`` → ``'step 2, seat'``.
    ``label(key, index)`` may add to an item's words (the loader adds a paytable's id).

    >>> where(("paytables", 0, "lines", 2, "pays"))
    'paytable 1, line 3, pays'
    >>> where(("steps", 1, "seat")), where(())
    ('step 2, seat', 'file')
    """
    words = []
    i = 0
    while i < len(loc):
        part = loc[i]
        nxt = loc[i + 1] if i + 1 < len(loc) else None
        if isinstance(part, str) and part in ITEMS and isinstance(nxt, int):
            words.append(f"{ITEMS[part]} {nxt + 1}" + (label(part, nxt) if label else ""))
            i += 2
        else:
            words.append(str(part))
            i += 1
    return ", ".join(words) or "file"


def read_json(path: str | Path) -> Any:
    """:func:`read_text` then :func:`parse_json`, errors naming ``path``."""
    return parse_json(read_text(path), _name(path))


def read_toml(path: str | Path) -> dict[str, Any]:
    """:func:`read_text` then :func:`parse_toml`, errors naming ``path``."""
    return parse_toml(read_text(path), _name(path))


__all__ = [
    "MAX_FILE_BYTES",
    "MAX_INTEGER_DIGITS",
    "MAX_NESTING",
    "check_text",
    "decode",
    "parse_json",
    "parse_toml",
    "pointer",
    "read_json",
    "read_text",
    "where",
]
