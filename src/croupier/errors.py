"""The one exception hierarchy of croupier.

Every rejection croupier makes is a :class:`CroupierError`. Each subclass names what was wrong
(the bad token, the paytable id, the deck count) and, when a rule of the regulation is enforced,
the section that states it. A rejected operation changes nothing: functions validate before they
mutate, and most domain values are immutable anyway.

Subclasses also derive from the built-in exception a Python caller would expect
(``ValueError``, ``KeyError``), so ``except ValueError`` keeps working.
"""

from __future__ import annotations


class CroupierError(Exception):
    """Base class of every error croupier raises on bad input or a broken rule."""


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
        return str(self.args[0]) if self.args else ""


class UnknownPaytableError(CroupierError, KeyError):
    """No paytable with that id exists for the wager (or not for that deck count)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class RulesError(CroupierError, ValueError):
    """A rule of the regulation forbids what was asked; ``section`` cites the rule.

    >>> e = RulesError("Match the Dealer needs 6 or 8 decks, not 2", section="633b.3(b)")
    >>> str(e)
    'Match the Dealer needs 6 or 8 decks, not 2 (58 Pa. Code § 633b.3(b))'
    """

    def __init__(self, message: str, section: str) -> None:
        super().__init__(f"{message} (58 Pa. Code § {section})")
        self.section = section
