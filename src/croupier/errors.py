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


def one_of(choices: Iterable[object]) -> str:
    """Choices as a sentence lists them, the last after "or": every message naming what is
    allowed (deck counts, wager sizes) says it this way.

    >>> one_of([1, 2, 4, 6, 8]), one_of(["$1", "$5"]), one_of([8])
    ('1, 2, 4, 6 or 8', '$1 or $5', '8')
    """
    items = [str(c) for c in choices]
    return items[-1] if len(items) < 2 else f"{', '.join(items[:-1])} or {items[-1]}"


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
    :data:`MAX_QUOTED` characters is cut short (:func:`clipped`). ``section`` is the section of
    58 Pa. Code whose rule it enforces (``None``: no rule is at stake), cited in its text by
    :func:`cite`.
    """

    section: str | None = None

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


OTHER_RULE = re.compile(r"NY 9 NYCRR|NY 53[0-9]{2}|N\.J\.A\.C\.|NJ 13:6|GLI-[0-9]+")
"""A rule of another jurisdiction or a test lab, as croupier cites one where the text of
58 Pa. Code it holds is silent (docs/interpretations.md): NY 9 NYCRR 5321.18(b)(4),
N.J.A.C. 13:69E-1.39C, GLI-13."""

_TRAILING_RULE = re.compile(r"\s*\(((?:[^()]|\([^()]*\))*)\)\s*$")
"""A message's last parenthesis (one level of nested parentheses inside: ``5321.18(b)(4)``)."""


def cite(message: str, section: str | None, also: str | None = None) -> str:
    """``message`` with the rules it enforces cited at its end — the one rule for every error
    croupier builds (and every line joining a message and its section): a rule of 58 Pa. Code is
    cited first, another jurisdiction's rule that supports it (``also``) after it.

    >>> cite("no wager is accepted", "605a.8")
    'no wager is accepted (58 Pa. Code § 605a.8)'
    >>> cite("no wager is accepted", "605a.8", also="NY 9 NYCRR 5321.18(b)(4)")
    'no wager is accepted (58 Pa. Code § 605a.8; NY 9 NYCRR 5321.18(b)(4))'

    A message that cites another rule itself gets the PA section ahead of it: a closing
    parenthesis citing it is taken as ``also``; elsewhere the section goes into the first
    parenthesis that cites it, or ahead of the message when no parenthesis does.

    >>> cite("no wager is accepted (NY 9 NYCRR 5321.18(b)(4))", "605a.8")
    'no wager is accepted (58 Pa. Code § 605a.8; NY 9 NYCRR 5321.18(b)(4))'
    >>> cite("bound (hit_odds_bound; N.J.A.C. 13:69D-1.52(e)(4)) exceeded", "601a.2")
    'bound (58 Pa. Code § 601a.2; hit_odds_bound; N.J.A.C. 13:69D-1.52(e)(4)) exceeded'
    >>> cite("GLI-13 asks for it", "605a.7")
    '58 Pa. Code § 605a.7: GLI-13 asks for it'

    Without a section no PA rule is at stake: ``also`` alone is cited, the message is kept.
    """
    if section is None:
        return f"{message} ({also})" if also else message
    pa = citation(section)
    if also is None:
        tail = _TRAILING_RULE.search(message)
        if tail is not None and OTHER_RULE.match(tail.group(1)):
            message, also = message[: tail.start()], tail.group(1)
    first = OTHER_RULE.search(message)
    if first is None:
        return f"{message} ({pa}; {also})" if also else f"{message} ({pa})"
    depth, at = 0, -1
    for i in range(first.start() - 1, -1, -1):  # the parenthesis the other rule is cited in
        if message[i] == ")":
            depth += 1
        elif message[i] == "(":
            if depth == 0:
                at = i + 1
                break
            depth -= 1
    text = f"{message[:at]}{pa}; {message[at:]}" if at != -1 else f"{pa}: {message}"
    return f"{text} ({also})" if also else text


def pa_first(text: str) -> bool:
    """Whether ``text`` cites no rule of another jurisdiction ahead of 58 Pa. Code: it cites none,
    or a section of 58 Pa. Code comes before the first (what :func:`cite` makes of every
    message).

    >>> pa_first("refused (58 Pa. Code § 605a.8; NY 9 NYCRR 5321.18(b)(4))")
    True
    >>> pa_first("refused (NY 9 NYCRR 5321.18(b)(4)) (58 Pa. Code § 605a.8)")
    False
    """
    other = OTHER_RULE.search(text)
    return other is None or -1 < text.find("58 Pa. Code") < other.start()


def error_section(exc: BaseException) -> str | None:
    """The section an error cites (``"633b.3(b)"``): its rule's own, else the first a Rules
    Submission's violations name, else ``None`` — the ``section`` of the CLI's ``--json`` error
    object, of the service's problem details and of its pages alike.

    >>> error_section(RulesError("refused", section="605a.8")), error_section(InputError("no"))
    ('605a.8', None)
    """
    section = getattr(exc, "section", None)
    if isinstance(section, str):
        return section
    for _, sec in getattr(exc, "violations", ()) or ():
        if isinstance(sec, str):
            return sec
    return None


class RulesError(CroupierError, ValueError):
    """A rule of the regulation forbids what was asked; ``section`` cites the rule.

    >>> e = RulesError("Match the Dealer needs 6 or 8 decks, not 2", section="633b.3(b)")
    >>> str(e)
    'Match the Dealer needs 6 or 8 decks, not 2 (58 Pa. Code § 633b.3(b))'

    ``also``: the rule of another jurisdiction the project follows where the PA text it holds is
    silent, cited after the section (:func:`cite`); ``reason`` is the message as given, before
    the citation.
    """

    section: str

    def __init__(self, message: str, section: str, *, also: str | None = None) -> None:
        super().__init__(cite(message, section, also))
        self.section = section
        self.reason = message
        self.also = also


class InputError(CroupierError, ValueError):
    """A value given to croupier is unusable though no rule of the regulation is at stake: a
    negative amount, an option that does not apply (a meter for a wager without one), a missing
    deck count."""


class OutputError(CroupierError, OSError):
    """A report or file could not be written where asked."""


# -- the progressive table game system (croupier.progressive) ------------------------------------


class LedgerError(CroupierError, RuntimeError):
    """The progressive ledger refused an operation that breaks no rule of the regulation: an unknown
    progressive, round or user, a round in the wrong state, or a database that cannot be used.

    A state the rules of the progressive system require (a link suspended before it is
    reconfigured) names them: ``section`` of 58 Pa. Code and ``also`` another jurisdiction's rule,
    cited by :func:`cite`."""

    def __init__(
        self, message: str, *, section: str | None = None, also: str | None = None
    ) -> None:
        super().__init__(cite(message, section, also))
        self.section = section


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
    """A wager was offered after the lock-out ("No more bets"): a progressive wager's is the
    system's device, § 633b.2(d)(2); another wager cites the rule of the table it was offered
    at (§ 633b.1(d), § 633a.6(d), …)."""


class RoundHeldError(RulesError):
    """The round is held: the value chips collected do not equal the progressive wagers accepted
    (§ 633b.2(f)); it cannot be settled until a recount agrees or it is voided."""


class LinkError(RulesError):
    """The table is not linked to the progressive (§ 605a.8) or a position is not at the table."""


class AccessError(CroupierError, PermissionError):
    """Who asked may not do this: not who they say (:class:`AuthenticationError`) or not of a
    role the rule allows (:class:`AuthorizationError`). ``section`` cites the rule that sets
    the role, when one does (§ 633b.2(h)(3): a floorperson or above validates a progressive
    payout); ``reason`` is the message as given, before the citation."""

    section: str | None

    def __init__(
        self, message: str, section: str | None = None, *, also: str | None = None
    ) -> None:
        super().__init__(cite(message, section, also))
        self.section = section
        self.reason = message
        self.also = also


class AuthenticationError(AccessError):
    """A staff member could not be authenticated: an unknown name or a wrong credential (the
    message does not say which), a credential that is missing or too short, or a bootstrap asked
    of a ledger that has staff already."""


class AuthorizationError(AccessError):
    """The user's role may not do this, e.g. validate a progressive payout without being a
    floorperson or above (§ 633b.2(h)(3))."""


class LoginLockedError(AuthenticationError):
    """Logins are refused for a while after too many failed ones — of one staff member, or from
    one client address (NIST SP 800-63B § 5.2.2, rate limiting): ``retry_after`` is how many
    seconds are left (the service answers a 429 problem with ``Retry-After``)."""

    retry_after: int = 1

    @classmethod
    def lasting(cls, message: str, retry_after: int) -> LoginLockedError:
        """The error, ``retry_after`` seconds (at least 1) left."""
        exc = cls(message)
        exc.retry_after = max(1, retry_after)
        return exc


class AmountLimitError(PaytableError, InputError):
    """An amount is over the largest croupier takes (:data:`croupier.units.MAX_CENTS`,
    $999,999,999.99, derived from what a money column holds with room for a meter to keep
    growing): a wager, a table's limit, a seed, a meter limit, an envy bonus, a progressive's
    stake, an adjustment. ``maximum`` is the limit as printed. Refused before anything is
    written (a paytable's amount as a :class:`PaytableError`, any other as an
    :class:`InputError`: it is both)."""

    def __init__(self, message: str, maximum: str) -> None:
        super().__init__(message)
        self.maximum = maximum


def limit_of(exc: BaseException) -> str | None:
    """The money maximum an error carries (``maximum``: an :class:`AmountLimitError`, or an
    error built from one), looked for on ``exc``, then along the errors it was raised from
    (``__cause__``, ``__context__``) and the errors a pydantic ``ValidationError`` wraps — so an
    amount over the limit keeps its ``maximum`` however it was wrapped. ``None`` if none does."""
    seen: set[int] = set()
    todo: list[BaseException] = [exc]
    while todo and len(seen) < 16:
        e = todo.pop(0)
        if id(e) in seen:
            continue
        seen.add(id(e))
        limit = getattr(e, "maximum", None)
        if isinstance(limit, str):
            return limit
        errors = getattr(e, "errors", None)
        if callable(errors) and type(e).__name__ == "ValidationError":
            for item in errors():
                inner = (item.get("ctx") or {}).get("error")
                if isinstance(inner, BaseException):
                    todo.append(inner)
        todo.extend(c for c in (e.__cause__, e.__context__) if c is not None)
    return None


class MeterLimitError(LedgerError):
    """A meter, a reserve or a running total would grow past what its column holds
    (:data:`croupier.units.STORED_INT_MAX`, a signed 64-bit integer): the operation — a round's
    increments, an adjustment — is refused and nothing is written. A meter that large has taken
    thousands of times the largest amount croupier takes (docs/interpretations.md, *One money
    maximum*); an adjustment can bring it down."""


class NameRuleError(InputError):
    """A name of a staff member, a progressive or a table is empty, too long, or holds a
    control, format or invisible character (:mod:`croupier.names`)."""


class ConfusableNameError(LedgerError):
    """A new name is, or reads as, one that exists (:func:`croupier.names.fold`: case, dashes,
    spaces, composed accents and look-alike letters folded); ``existing`` is that name."""

    existing: str = ""

    @classmethod
    def of(cls, message: str, existing: str) -> ConfusableNameError:
        """The error naming ``existing``."""
        exc = cls(message)
        exc.existing = existing
        return exc


class LedgerKeyError(LedgerError):
    """The ledger key that chains the events (HMAC-SHA256) is missing or unreadable: nothing is
    written without it; ``croupier meters verify`` still checks everything else and says so."""


class LedgerHaltedError(LedgerIntegrityError):
    """The controller is halted for an integrity fault: the copy of the ledger's chain head kept
    beside the key is missing, unreadable, or names an event the log does not hold (rolled back
    or restored from an earlier copy), so the ledger refuses every write and the service every
    login (before the credential is looked at). Its text (the CLI's) names the file and the
    command that clears it; ``public`` is what an HTTP client is told — the same fault and the
    operator's remedy in generic words, no server path (a 503 without ``Retry-After``:
    docs/interpretations.md, *A rollback that cannot hide*)."""

    def __init__(self, message: str, public: str) -> None:
        super().__init__(message)
        self.public = public


class CheckpointError(LedgerIntegrityError):
    """A checkpoint given to ``croupier meters verify --checkpoint`` is refused, named: its
    signature does not verify under the ledger key, it belongs to another ledger, or the log
    does not hold the head it records (rolled back past it, or forked since:
    :mod:`croupier.progressive.checkpoint`)."""


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
    the exception lists them all. ``maximum`` is croupier's money maximum as printed when one of
    them is an amount over it (an :class:`AmountLimitError`'s), else ``None``.
    """

    def __init__(
        self,
        source: str,
        violations: tuple[tuple[str, str | None], ...],
        *,
        maximum: str | None = None,
    ) -> None:
        lines = [cite(msg, sec) for msg, sec in violations]
        super().__init__(f"{source}: " + "; ".join(lines))
        self.source = source
        self.violations = violations
        self.maximum = maximum


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


class UnicodeTextError(InputFileError):
    """A string in an input — a JSON file's or a request body's, a value or a key, or the text
    of an event given to the ledger (a reason typed on a command line) — is not Unicode text:
    it holds a lone surrogate (``"\\ud800"`` escaped without its pair, or a command line's byte
    that was not UTF-8), which no UTF-8 text can hold (RFC 8259 § 8.2; every string croupier
    reads is Unicode scalar values).
    ``pointer`` is the string's JSON pointer (RFC 6901; ``""`` the whole document), ``key``
    whether the string is a key of the object ``pointer`` names. The message names the string
    and where in it the surrogate is (its escape and character position), never the string
    itself: it may be a secret (a password sent to ``POST /token`` or ``POST /staff``), and a
    problem or a log line never echoes one. Nothing was read any further."""

    def __init__(self, path: str, pointer: str, text: str, *, key: bool = False) -> None:
        at = pointer or "the top of the document"
        what = f"a key of the object at {at}" if key else f"the string at {at}"
        index = next((i for i, ch in enumerate(text) if 0xD800 <= ord(ch) <= 0xDFFF), 0)
        code = ord(text[index]) if text else 0xD800
        super().__init__(
            path,
            f"{what} holds a lone surrogate (\\u{code:04x} at character {index + 1} of "
            f"{len(text)}), which is not Unicode text: every string croupier reads is Unicode "
            "scalar values (RFC 8259 § 8.2)",
        )
        self.pointer = pointer
        self.key = key


class NoCountError(InputError):
    """No balanced card count can be derived from a wager's effects of removal (e.g. every rank's
    effect is zero, or no small integer tags balance them)."""


class UnsettledBetError(ProcedureError):
    """A round would close with a bet that has no settlement line (nor a line recording that the
    base game settles it): silence is never an outcome."""
