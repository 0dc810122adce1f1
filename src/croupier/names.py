"""The one rule for the names people type and read: staff members, progressives, tables, and
the ids of rounds.

A name is what a log line, a report row and an error message show, and what a shift manager
reads to decide who did what. Two names that look alike on a screen are one name to a reader, so
(issue 16: "Zoë" typed twice, once composed and once decomposed, made two members; ``BJ-1``
followed by a zero-width space opened a second table beside ``BJ-1``):

* :func:`normalize` — the name stripped and in Unicode NFC (so "Zoë" is one string however it
  was typed), at most :data:`NAME_LIMIT` characters, holding no control, format, private-use,
  unassigned or line/paragraph-separator character, no other space than U+0020 and no invisible
  character (:data:`INVISIBLE`: default-ignorable code points such as U+200B ZERO WIDTH SPACE,
  U+202E RIGHT-TO-LEFT OVERRIDE, the Hangul fillers, variation selectors, U+2800 BRAILLE
  PATTERN BLANK). :class:`~croupier.errors.NameRuleError` otherwise.
* :func:`fold` — the key two names are compared by, a documented subset of the skeleton of
  Unicode TR39 (*Unicode Security Mechanisms*, § 4 Confusable Detection) that needs no data
  file: NFKC (fullwidth, ligatures, compatibility forms), invisible characters dropped, the
  look-alikes of :data:`LOOK_ALIKES` (Cyrillic and Greek letters drawn like Latin ones, ``0``
  and ``O``, ``1``, ``I`` and ``l``) mapped to one letter, every dash (Unicode category Pd, the
  minus sign) to ``-``, every space and ``_`` to one space, then case folded. Names with one
  fold are *confusable*.
* :func:`check_new` — a new name normalized and refused when it is confusable with one that
  exists (:class:`~croupier.errors.ConfusableNameError` naming the existing one).

Each kind of name has its own characters on top of that (:func:`normalize` refuses them with a
:class:`~croupier.errors.NameRuleError` naming the character): a name is one segment of the
service's paths (``/staff/NAME``, ``/progressives/NAME/history``, ``/tables/ID/steps``,
``/rounds/TABLE/ROUND``), so no kind holds ``/`` nor is ``.`` or ``..`` (a client resolves those
before it sends the path); a table's id holds no space either (:data:`TABLE`: it is the
``?table=`` of a round and a word of the ledger's ``TABLE/ROUND``). Names stored before the rule
keep working wherever they are read — the rule is checked where a name is made.

A round's id (:func:`round_id`) follows the same rule, given in its normal form (nothing is
changed silently: an id is the client's key), and holds no character drawn like another
(:func:`confusable_characters`): with those refused, two round ids that differ can be told
apart by a reader without comparing them with every stored one.

Logins normalize the name the same way (:func:`login_name`): a member named in NFC logs in
whichever way the keyboard composed it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from croupier.errors import ConfusableNameError, NameRuleError

NAME_LIMIT = 100
"""The longest name of a staff member, a progressive or a table, and the longest round id (the
columns hold 100)."""

STAFF = "a staff member"
PROGRESSIVE = "a progressive"
TABLE = "a table"
ROUND = "a round"
LEDGER_ROUND = "a ledger round"
"""The kinds of names (the ``what`` of :func:`normalize`, in its messages)."""

PATH_SEGMENTS = frozenset({STAFF, PROGRESSIVE, TABLE, ROUND})
"""The kinds whose names are one segment of the service's paths: no ``/``, not ``.`` or ``..``."""

NO_SPACES = frozenset({TABLE, ROUND})
"""The kinds whose names hold no space at all (a table's id; a round's id may not start or end
with one, :func:`round_id`)."""

_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

INVISIBLE = frozenset(
    [
        *(0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180E, 0x2800, 0x3164),
        *(0xFFA0, 0xFEFF),
        *range(0x180B, 0x1810),
        *range(0x200B, 0x2010),
        *range(0x202A, 0x202F),
        *range(0x2060, 0x2070),
        *range(0xFE00, 0xFE10),
        *range(0xE0000, 0xE1000),
    ]
)
"""Code points that draw nothing (Unicode's Default_Ignorable_Code_Point, and blanks that are
letters or symbols: the Hangul fillers, U+2800 BRAILLE PATTERN BLANK)."""

LOOK_ALIKES = {
    # Cyrillic drawn as Latin (TR39 confusables.txt maps each to the Latin letter)
    "а": "a", "в": "b", "е": "e", "ѕ": "s", "і": "i", "ј": "j", "к": "k", "м": "m", "н": "h",
    "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x", "ԁ": "d", "ԛ": "q", "ԝ": "w",
    "ɡ": "g", "ӏ": "l",
    "А": "A", "В": "B", "Е": "E", "Ѕ": "S", "І": "l", "Ј": "J", "К": "K", "М": "M", "Н": "H",
    "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ү": "Y", "Ԁ": "D", "Ӏ": "l",
    # Greek drawn as Latin
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v", "ι": "i", "κ": "k",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "α": "a",
    # digits and letters drawn alike (TR39 maps 0 to O, and 1, I and | to l)
    "0": "O", "1": "l", "I": "l", "|": "l",
}  # fmt: skip
"""Characters drawn like a Latin letter, and the letter :func:`fold` puts in their place."""

_DASHES = frozenset("\u2212\u2043\ufe63\uff0d\u02d7")


def _refused(ch: str) -> bool:
    return (
        ord(ch) in INVISIBLE
        or unicodedata.category(ch) in _REFUSED_CATEGORIES
        or (unicodedata.category(ch) == "Zs" and ch != " ")
    )


def _named(chars: Iterable[str]) -> str:
    """``U+200B ZERO WIDTH SPACE, U+000A LINE FEED``: each character as :func:`char_name` names
    it."""
    return ", ".join(char_name(ch) for ch in chars)


def _noun(what: str) -> str:
    """What a name of ``what`` is called: a table's and a round's *id*, anything else's *name*."""
    return "id" if what in (TABLE, ROUND, LEDGER_ROUND) else "name"


def normalize(what: str, name: object) -> str:
    """``name`` stripped and in NFC, as the name of ``what`` (:data:`STAFF`, :data:`PROGRESSIVE`,
    :data:`TABLE`, :data:`ROUND`); :class:`~croupier.errors.NameRuleError` for an empty name,
    one over :data:`NAME_LIMIT` characters, or one holding a control, format or invisible
    character (a newline would split every line that names it; a zero-width space makes a second
    name that reads as the first), and for the characters its kind refuses (module docstring:
    ``/`` in any, a space in a table's or a round's id).

    >>> normalize(PROGRESSIVE, " Mega Jackpot ")
    'Mega Jackpot'
    >>> normalize(PROGRESSIVE, "mtd/6")
    Traceback (most recent call last):
    ...
    croupier.errors.NameRuleError: a progressive's name cannot hold '/' (U+002F SOLIDUS): ...
    """
    noun = _noun(what)
    text = unicodedata.normalize("NFC", name.strip()) if isinstance(name, str) else ""
    if not text:
        raise NameRuleError(f"{what} needs {'an id' if noun == 'id' else 'a name'}")
    if len(text) > NAME_LIMIT:
        raise NameRuleError(f"{what}'s {noun} has at most {NAME_LIMIT} characters, not {len(text)}")
    bad = [] if text.isascii() and text.isprintable() else [ch for ch in text if _refused(ch)]
    if bad:
        raise NameRuleError(
            f"{what}'s {noun} cannot hold control or format characters (a newline, a tab), "
            f"invisible ones or other spaces than the plain space: {text[:40]!r} holds "
            f"{_named(bad[:3])}"
        )
    if what in PATH_SEGMENTS:
        if "/" in text:
            raise NameRuleError(
                f"{what}'s {noun} cannot hold '/' (U+002F SOLIDUS): it is one segment of the "
                f"service's paths, and {text[:40]!r} could not be reached there; choose another"
            )
        if text in (".", ".."):
            raise NameRuleError(
                f"{what}'s {noun} cannot be {text!r}: a client resolves it in a path before it "
                "sends it; choose another"
            )
    if what in NO_SPACES and " " in text:
        example = "BJ-1" if what == TABLE else "r-17"
        raise NameRuleError(
            f"{what}'s {noun} cannot hold a space (U+0020 SPACE): {text[:40]!r}; join its words "
            f"with '-' ({example})"
        )
    return text


def exact(what: str, name: object) -> str:
    """``name`` if :func:`normalize` leaves it as it is (a name stored as given: a table's id in
    a path, a progressive's name in its definition); :class:`~croupier.errors.NameRuleError`
    otherwise — a name is never changed silently where it is a key.

    >>> exact(TABLE, "BJ-1")
    'BJ-1'
    """
    text = normalize(what, name)
    if text != name:
        raise NameRuleError(
            f"{what}'s {_noun(what)} has no spaces around it and is in Unicode NFC (its accents "
            f"composed): {name!r}"
        )
    return text


def fold(name: str) -> str:
    """The key names are compared by (see the module docstring): equal keys, confusable names.

    >>> fold("Zoë") == fold("Zoe\\u0308"), fold("BJ-1") == fold("BJ\\u20111")
    (True, True)
    >>> fold("BJ-1") == fold("bj-l"), fold("sam") == fold("ѕаm"), fold("BJ-1") == fold("BJ 1")
    (True, True, False)
    """
    text = unicodedata.normalize("NFKC", name)
    out: list[str] = []
    for ch in text:
        if ord(ch) in INVISIBLE or unicodedata.category(ch) in ("Cf", "Cc"):
            continue
        if ch in _DASHES or unicodedata.category(ch) == "Pd":
            ch = "-"
        elif ch == "_" or ch.isspace():
            ch = " "
        else:
            ch = LOOK_ALIKES.get(ch, ch)
        if ch == " " and (not out or out[-1] == " "):
            continue
        out.append(ch)
    return "".join(out).strip().casefold()


def confusable_with(name: str, existing: Iterable[str]) -> str | None:
    """The first of ``existing`` that is confusable with ``name`` (itself included), or
    ``None``."""
    key = fold(name)
    for other in existing:
        if fold(other) == key:
            return other
    return None


def check_new(what: str, name: object, existing: Iterable[str]) -> str:
    """``name`` normalized (:func:`normalize`), if no name of ``existing`` is confusable with it
    (the same name included); :class:`~croupier.errors.ConfusableNameError` naming the existing
    one otherwise."""
    text = normalize(what, name)
    other = confusable_with(text, existing)
    if other is not None:
        same = "exists already" if other == text else f"looks like the existing {other!r}"
        raise ConfusableNameError.of(
            f"{what} named {text!r}: {same} (names are compared as they read: case, dashes, "
            "spaces, accents composed or not and look-alike letters folded, Unicode TR39); "
            "choose another name",
            other,
        )
    return text


def check_id(what: str, name: object, existing: Iterable[str]) -> str:
    """:func:`check_new` for a name that is stored as given (a table's id, a progressive's name
    inside its definition): it must be in the normal form already (no spaces around it, NFC),
    else :class:`~croupier.errors.NameRuleError` (:func:`exact`)."""
    exact(what, name)
    return check_new(what, name, existing)


def confusable_characters(text: str) -> list[str]:
    """The characters of ``text`` drawn like another one that :func:`fold` puts in their place:
    a letter of another script drawn as a Latin one (:data:`LOOK_ALIKES` beyond ASCII), a
    compatibility form (fullwidth ``Ｂ``, a ligature: NFKC changes it) and a dash other than
    ``-``. Two texts without them that :func:`fold` makes one differ in ASCII only — case,
    ``0``/``O``, ``1``/``l``/``I``, ``_``/space — which a reader sees.

    >>> confusable_characters("m1"), confusable_characters("\u043c1"), confusable_characters("r\u20131")
    ([], ['м'], ['–'])
    """
    if text.isascii():
        return []
    return [
        ch
        for ch in text
        if not ch.isascii()
        and (
            ch in LOOK_ALIKES
            or ch in _DASHES
            or unicodedata.category(ch) == "Pd"
            or unicodedata.normalize("NFKC", ch) != ch
        )
    ]


def round_id(rid: object) -> str:
    """``rid`` if it is a round's id: a string of at most :data:`NAME_LIMIT` characters that
    the name rule (:func:`normalize`, kind :data:`ROUND`) leaves as it is — no control, format or
    invisible character, no space (none around it, none inside), in NFC, no ``/`` — and holding
    no character drawn like another (:func:`confusable_characters`).
    :class:`~croupier.errors.NameRuleError` naming what is wrong otherwise. An id is stored as
    given, never changed: one that read as another (``m1``, and ``m`` ZERO WIDTH SPACE ``1``)
    would be a second round that is the first.

    >>> round_id("r-17")
    'r-17'
    >>> round_id("r-17 ")
    Traceback (most recent call last):
    ...
    croupier.errors.NameRuleError: a round's id has no spaces around it and is in Unicode NFC ...
    """
    text = _round_id_string(rid)
    if _plain(text) and " " not in text and "/" not in text and text not in (".", ".."):
        return text  # the common case, checked at a glance
    return _as_given(ROUND, text)


def _round_id_string(rid: object) -> str:
    """``rid`` if it is a string; :class:`~croupier.errors.NameRuleError` otherwise."""
    if not isinstance(rid, str):
        raise NameRuleError(f"a round's id is a string, not {type(rid).__name__} {rid!r}"[:200])
    return rid


def _plain(rid: str) -> bool:
    """Whether ``rid`` is printable ASCII, not empty and at most :data:`NAME_LIMIT` long."""
    return rid.isascii() and rid.isprintable() and 0 < len(rid) <= NAME_LIMIT


def _as_given(what: str, rid: str) -> str:
    """``rid`` if :func:`normalize` leaves it as it is (:func:`exact`) and it holds no
    :func:`confusable_characters`; :class:`~croupier.errors.NameRuleError` otherwise."""
    text = exact(what, rid)
    odd = confusable_characters(text)
    if odd:
        raise NameRuleError(
            f"{what}'s id cannot hold characters drawn like others (a letter of another "
            f"script drawn as a Latin one, a fullwidth form, a dash other than '-'): "
            f"{text[:40]!r} holds {_named(odd[:3])}"
        )
    return text


def checked_ledger_round_id(rid: object) -> str:
    """``rid`` if it is a round's id on the ledger — ``TABLE/ROUND``
    (:func:`croupier.table.progressive.ledger_round_id_of`), or whatever id a caller of the
    library keys its rounds by: as :func:`round_id`, but ``/`` and inner spaces allowed (a table
    linked before the table rule may hold one), at most :data:`NAME_LIMIT` characters in all
    (the ledger's column holds 100).

    >>> checked_ledger_round_id("BJ-1/r-17")
    'BJ-1/r-17'
    """
    text = _round_id_string(rid)
    if _plain(text) and text[0] != " " and text[-1] != " ":
        return text  # the common case, checked at a glance
    return _as_given(LEDGER_ROUND, text)


CONTROL_NAMES: dict[int, str] = {
    **dict(
        enumerate(
            (
                "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT",
                "END OF TRANSMISSION", "ENQUIRY", "ACKNOWLEDGE", "ALERT", "BACKSPACE",
                "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION", "FORM FEED",
                "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN", "DATA LINK ESCAPE",
                "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE",
                "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE",
                "END OF TRANSMISSION BLOCK", "CANCEL", "END OF MEDIUM", "SUBSTITUTE", "ESCAPE",
                "FILE SEPARATOR", "GROUP SEPARATOR", "RECORD SEPARATOR", "UNIT SEPARATOR",
            )
        )
    ),
    0x7F: "DELETE",
    0x82: "BREAK PERMITTED HERE", 0x83: "NO BREAK HERE", 0x85: "NEXT LINE",
    0x86: "START OF SELECTED AREA", 0x87: "END OF SELECTED AREA",
    0x88: "CHARACTER TABULATION SET", 0x89: "CHARACTER TABULATION WITH JUSTIFICATION",
    0x8A: "LINE TABULATION SET", 0x8B: "PARTIAL LINE FORWARD", 0x8C: "PARTIAL LINE BACKWARD",
    0x8D: "REVERSE LINE FEED", 0x8E: "SINGLE SHIFT TWO", 0x8F: "SINGLE SHIFT THREE",
    0x90: "DEVICE CONTROL STRING", 0x91: "PRIVATE USE ONE", 0x92: "PRIVATE USE TWO",
    0x93: "SET TRANSMIT STATE", 0x94: "CANCEL CHARACTER", 0x95: "MESSAGE WAITING",
    0x96: "START OF GUARDED AREA", 0x97: "END OF GUARDED AREA", 0x98: "START OF STRING",
    0x9A: "SINGLE CHARACTER INTRODUCER", 0x9B: "CONTROL SEQUENCE INTRODUCER",
    0x9C: "STRING TERMINATOR", 0x9D: "OPERATING SYSTEM COMMAND", 0x9E: "PRIVACY MESSAGE",
    0x9F: "APPLICATION PROGRAM COMMAND",
}  # fmt: skip
"""The control characters' names (Unicode's name aliases of type *control*, NameAliases.txt:
the names they are known by — ``unicodedata.name`` has none for them)."""

_UNNAMED = {"Cc": "a control character", "Co": "a private-use character", "Cs": "a surrogate"}


def char_name(ch: str) -> str:
    """``'U+000A LINE FEED'``, ``'U+200B ZERO WIDTH SPACE'``: a character as a message names it
    — its code point and its name, a control character by its common name (:data:`CONTROL_NAMES`),
    one with no name by what it is (``'U+E000 a private-use character'``, ``'unassigned'``)."""
    code = ord(ch)
    name = CONTROL_NAMES.get(code) or unicodedata.name(ch, "")
    if not name:
        name = _UNNAMED.get(unicodedata.category(ch), "unassigned")
    return f"U+{code:04X} {name}"


def login_name(name: object) -> str:
    """A name as typed at a login, in the form names are stored in: stripped, NFC (nothing is
    refused here: a name that breaks :func:`normalize` is no member's)."""
    return unicodedata.normalize("NFC", name.strip()) if isinstance(name, str) else ""


__all__ = [
    "CONTROL_NAMES",
    "INVISIBLE",
    "LEDGER_ROUND",
    "LOOK_ALIKES",
    "NAME_LIMIT",
    "NO_SPACES",
    "PATH_SEGMENTS",
    "PROGRESSIVE",
    "ROUND",
    "STAFF",
    "TABLE",
    "char_name",
    "check_id",
    "check_new",
    "checked_ledger_round_id",
    "confusable_characters",
    "confusable_with",
    "exact",
    "fold",
    "login_name",
    "normalize",
    "round_id",
]
