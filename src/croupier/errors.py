"""The one exception hierarchy of croupier.

Every rejection croupier makes is a :class:`CroupierError`. Each subclass names what was wrong
(the bad token, the paytable id, the deck count) and, when a rule of the regulation is enforced,
the section that states it. A rejected operation changes nothing: functions validate before they
mutate, and most domain values are immutable anyway.

Subclasses also derive from the built-in exception a Python caller would expect
(``ValueError``, ``KeyError``), so ``except ValueError`` keeps working.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache


def one_line(text: str) -> str:
    """``text`` with every control, format, unassigned or line/paragraph separator character escaped
    (``\\n``, ``\\x00``, ``\\u2028``…), so a message quoting user text stays one line and
    cannot forge a second one.

    >>> one_line("bad\\ncard\\x00")
    'bad\\\\ncard\\\\x00'
    >>> one_line("A♠ 10♦ — ok")
    'A♠ 10♦ — ok'
    >>> one_line("perfect\\udcff")  # the byte 0xff of a command line that is not UTF-8
    'perfect\\\\xff'
    >>> one_line(repr("perfect\\udcff"))  # the same byte quoted with !r
    "'perfect\\\\xff'"
    """
    text = _ESCAPED_BYTE.sub(r"\\x\1", text)
    if text.isprintable():
        return text
    out = []
    for c in text:
        if unicodedata.category(c) not in _UNPRINTABLE:
            out.append(c)
        elif "\udc80" <= c <= "\udcff":  # a byte that was not UTF-8 (surrogateescape): as typed
            out.append(f"\\x{ord(c) - 0xDC00:02x}")
        else:
            out.append(repr(c)[1:-1] if c not in "'\"" else c)
    return "".join(out)


_UNPRINTABLE = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})

_ESCAPED_BYTE = re.compile(r"(?<!\\)\\udc([89a-f][0-9a-f])")
"""``repr`` of a byte that was not UTF-8 (Python's surrogateescape, ``\\udcff``): shown as the
byte, ``\\xff``."""

MAX_QUOTED = 80
"""The most characters of one quoted piece of user text an error message shows."""

_LONG_QUOTE = re.compile(r"(?<!\w)(['\"])([^'\"]{" + str(MAX_QUOTED + 1) + r",})\1(?!\w)")
"""A quoted piece: a quote not inside a word (an apostrophe, as in "the progressive's meter", is
inside one), the text, the same quote again not followed by a word character."""


def clipped(text: str) -> str:
    """``text`` with every quoted piece longer than :data:`MAX_QUOTED` characters cut short and
    its length given, so an error quoting a 5,000-digit amount stays readable.

    >>> shown = clipped("not a dollar amount: '" + "9" * 5000 + "'")
    >>> shown.endswith("…' (5,000 characters)"), shown.count("9")
    (True, 60)
    >>> clipped("no wager 'perfect-pair'")
    "no wager 'perfect-pair'"
    >>> long = "the progressive's meters " + "and more words " * 6 + "at the dealer's table"
    >>> clipped(long) == long  # apostrophes are not quotes
    True
    """
    keep = MAX_QUOTED - 20

    def cut(m: re.Match[str]) -> str:
        q, body = m.group(1), m.group(2)
        return f"{q}{body[:keep]}…{q} ({len(body):,} characters)"

    return _LONG_QUOTE.sub(cut, text)


def closest(text: str, known: Iterable[str]) -> str | None:
    """The one of ``known`` closest to what a user typed (case and spaces aside), if any is close
    enough to suggest (:func:`difflib.get_close_matches`, cutoff 0.6) — the "did you mean" of
    every unknown-name error.

    >>> closest("perfect-pair", ["perfect-pairs", "axman"]), closest("zzz", ["axman"])
    ('perfect-pairs', None)
    """
    near = difflib.get_close_matches(text.strip().lower(), list(known), n=1, cutoff=0.6)
    return near[0] if near else None


def suggest(text: str, known: Iterable[str]) -> str:
    """``"; did you mean 'perfect-pairs'?"`` when :func:`closest` finds one, else ``""``."""
    near = closest(text, known)
    return f"; did you mean {near!r}?" if near else ""


class CroupierError(Exception):
    """Base class of every error croupier raises on bad input or a broken rule.

    Its text is always one line: control characters in the message (quoted user text) are
    escaped by :func:`one_line`, and a quoted piece of user text longer than
    :data:`MAX_QUOTED` characters is cut short (:func:`clipped`).
    """

    def __str__(self) -> str:
        text = str(self.args[0]) if len(self.args) == 1 else super().__str__()
        return clipped(one_line(text))


class CardError(CroupierError, ValueError):
    """A card or a list of cards could not be parsed.

    ``token`` is the offending piece of text exactly as given.
    """

    def __init__(self, message: str, token: str) -> None:
        super().__init__(message)
        self.token = token


class ShoeError(CroupierError, ValueError):
    """A shoe composition is impossible: a negative count, or dealing a card the shoe lacks."""


class PaytableError(CroupierError, ValueError):
    """A paytable file or a pay string is malformed, or a paytable is inconsistent with its wager."""


class UnknownWagerError(CroupierError, KeyError):
    """No wager with that id is registered."""

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return clipped(one_line(str(self.args[0]))) if self.args else ""


class UnknownPaytableError(CroupierError, KeyError):
    """No paytable with that id exists for the wager (or not for that deck count)."""

    def __str__(self) -> str:
        return clipped(one_line(str(self.args[0]))) if self.args else ""


@lru_cache(maxsize=1024)  # pure; every event and line of a round cites its section
def citation(section: str) -> str:
    """The full citation of a section of 58 Pa. Code, as every JSON output gives it beside the
    bare ``section`` (docs/schemas: ``"section": "633b.1(e)"``, ``"citation"``).

    >>> citation("633b.1(e)")
    '58 Pa. Code § 633b.1(e)'
    """
    return f"58 Pa. Code § {section}"


class RulesError(CroupierError, ValueError):
    """A rule of the regulation forbids what was asked; ``section`` cites the rule.

    >>> e = RulesError("Match the Dealer needs 6 or 8 decks, not 2", section="633b.3(b)")
    >>> str(e)
    'Match the Dealer needs 6 or 8 decks, not 2 (58 Pa. Code § 633b.3(b))'
    """

    def __init__(self, message: str, section: str) -> None:
        super().__init__(f"{message} ({citation(section)})")
        self.section = section


class InputError(CroupierError, ValueError):
    """A value given to croupier is unusable though no rule of the regulation is at stake: a
    negative amount, an option that does not apply (a meter for a wager without one), a missing
    deck count."""


class OutputError(CroupierError, OSError):
    """A report or file could not be written where asked."""


# -- the progressive table game system (croupier.progressive) ------------------------------------


class LedgerError(CroupierError, RuntimeError):
    """The progressive ledger refused an operation that breaks no rule of the regulation: an unknown
    progressive, round or user, a round in the wrong state, or a database that cannot be used."""


class LedgerLookupError(LedgerError, KeyError):
    """No progressive, round, award or user has that name or id in the ledger."""

    def __str__(self) -> str:
        return clipped(one_line(str(self.args[0]))) if self.args else ""


class RoundStateError(LedgerError):
    """The round is not in a state that allows the operation (e.g. settling an open round)."""


class IdempotencyConflictError(LedgerError):
    """An idempotency key was reused for a different settlement request."""


class LedgerIntegrityError(LedgerError):
    """Replaying the ledger does not reproduce the stored meters, or the schema is unknown."""


class LockoutError(RulesError):
    """A progressive wager was offered after the lock-out ("No more bets"), § 633b.2(d)(2)."""


class RoundHeldError(RulesError):
    """The round is held: the value chips collected do not equal the progressive wagers accepted
    (§ 633b.2(f)); it cannot be settled until a recount agrees or it is voided."""


class AuthorizationError(RulesError):
    """The user's role may not do this, e.g. validate a progressive payout without being a
    floorperson or above (§ 633b.2(h)(3))."""


class LinkError(RulesError):
    """The table is not linked to the progressive (§ 605a.8) or a position is not at the table."""


class AuthenticationError(LedgerError):
    """A staff member could not be authenticated: an unknown name or a wrong credential (the
    message does not say which), a credential that is missing or too short, or a bootstrap asked
    of a ledger that has staff already."""


class LedgerKeyError(LedgerError):
    """The ledger key that chains the events (HMAC-SHA256) is missing or unreadable: nothing is
    written without it; ``croupier meters verify`` still checks everything else and says so."""


class RoundConflictError(IdempotencyConflictError):
    """A round id already on the ledger for that table was fed again with other content (seats,
    wagers, amounts or cards): nothing was changed."""


class ProgressiveMismatchError(RulesError):
    """A round was dealt under another section, paytable or deck count than the progressive it
    was fed to is defined with."""


class ConfigurationMismatchError(RulesError):
    """The running configuration of a progressive (its paytable's data, the Rules Submission in
    force) differs from the approved one whose digests were stored when it was created: play is
    refused until it is restored (§ 605a.7; NY 9 NYCRR 5321.18, N.J.A.C. 13:69E-1.39C)."""


# -- the table: Rules Submissions and the round procedure (croupier.table) -----------------------


class SubmissionError(CroupierError, ValueError):
    """A Rules Submission (§ 601a.2) is malformed or breaks rules of the regulation.

    ``violations`` holds every problem found, each as (message, section or ``None``); the message of
    the exception lists them all.
    """

    def __init__(self, source: str, violations: tuple[tuple[str, str | None], ...]) -> None:
        lines = [f"{msg} (58 Pa. Code § {sec})" if sec else msg for msg, sec in violations]
        super().__init__(f"{source}: " + "; ".join(lines))
        self.source = source
        self.violations = violations


class ProcedureError(RulesError):
    """A step of a round breaks the regulated round procedure: an action the round's phase does
    not allow (cards dealt before the lock-out, a Play before the cards), a side wager without its
    base wager, a wager the table does not offer. ``section`` cites the rule; the round is left
    exactly as it was."""


# -- reading input files (croupier.inputs) -------------------------------------------------------


class InputFileError(InputError):
    """An input file (round record, Rules Submission, paytable file) cannot be used as text or
    data: not a regular file, larger than croupier reads, not UTF-8 (``offset`` is the byte
    offset of the first bad byte), malformed JSON/TOML, nested too deeply, or holding an integer
    with too many digits. ``path`` names the file as given."""

    def __init__(self, path: str, problem: str, offset: int | None = None) -> None:
        super().__init__(f"{path}: {problem}")
        self.path = path
        self.problem = problem
        self.offset = offset


class NoCountError(InputError):
    """No balanced card count can be derived from a wager's effects of removal (e.g. every rank's
    effect is zero, or no small integer tags balance them)."""


class UnsettledBetError(ProcedureError):
    """A round would close with a bet that has no settlement line (nor a line recording that the
    base game settles it): silence is never an outcome."""
