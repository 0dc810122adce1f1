"""The Blackjack house options of a Rules Submission (58 Pa. Code Chapter 633a, § 633b.4), checked:
which rules the operator may choose and which the regulation fixes.

An operator chooses the dealer's soft 17 (S17 or H17), late surrender (§ 633a.9), doubling after a
split (§ 633a.10), the hands a player may make by splitting, re-splitting aces and hitting split
aces (§ 633a.11), and Switch Hands or Blackjack Premium with its tie pay (§ 633b.4). Three rules
a manager may want to compare (``croupier strategy blackjack --blackjack-pays/--no-peek/--double``)
are fixed in Pennsylvania, so a submission stating another value is refused
(docs/interpretations.md, "Blackjack rules a Rules Submission may choose"):

- ``blackjack_pays``: a player Blackjack pays 3 to 2 (§ 633a.13, payout odds; the copied
  § 633b.4(i)(1) pays a Blackjack "at odds of 3 to 2") — 6 to 5 and 1 to 1 are refused;
- ``peek``: the dealer checks the hole card with the card reader device (§ 633a.7, § 633a.2's
  card reader device) — no peek is refused;
- ``double_on``: a player may double on any first two cards (§ 633a.10) — 9–11 or 10–11 only is
  refused.

Each problem is a ``(message, section)`` pair, one line, the section citing the rule (``None``
when no rule is at stake); :mod:`croupier.table.submission` makes them its violations.
"""

from __future__ import annotations

import re
from fractions import Fraction

from croupier.errors import clipped
from croupier.games.blackjack_rules import DoubleOn
from croupier.table.submission_file import SubmissionFile
from croupier.wagers.at_table import TableGame

PAYOUT_SECTION = "633a.13"
"""Payout odds; payout limitation: a player Blackjack pays 3 to 2."""
PEEK_SECTION = "633a.7"
"""Procedure for dealing the cards: the dealer checks for Blackjack with the card reader device."""
DOUBLE_SECTION = "633a.10"
"""Double Down wager: on any first two cards (not a Blackjack) and after splitting."""

BLACKJACK_PAYS = Fraction(3, 2)
"""What a player Blackjack pays per unit wagered in Pennsylvania (§ 633a.13)."""

_ODDS = re.compile(r"\s*(\d{1,4})\s*(?::|to)\s*(\d{1,4})\s*", re.IGNORECASE)

Problem = tuple[str, str | None]
"""One violation: its message and the section it cites (``None``: no rule at stake)."""


def parse_pays(text: str) -> Fraction | None:
    """The pay ``"6:5"`` or ``"6 to 5"`` as a fraction of the wager (``Fraction(6, 5)``), or
    ``None`` for text that is not odds ``N:M`` with ``M`` above 0."""
    m = _ODDS.fullmatch(text)
    if m is None or int(m[2]) == 0:
        return None
    return Fraction(int(m[1]), int(m[2]))


def pays_text(pays: Fraction) -> str:
    """``'6:5'`` for ``Fraction(6, 5)`` (the form the CLI's ``--blackjack-pays`` takes)."""
    return f"{pays.numerator}:{pays.denominator}"


def blackjack_pays_of(spec: SubmissionFile) -> Fraction:
    """What the submission says a player Blackjack pays (3 to 2 when it does not say, or says
    something that is not odds: that is refused by :func:`blackjack_option_problems`)."""
    if spec.blackjack_pays is None:
        return BLACKJACK_PAYS
    return parse_pays(spec.blackjack_pays) or BLACKJACK_PAYS


def double_on_of(spec: SubmissionFile) -> DoubleOn:
    """The doubling rule the submission states (any first two cards when it does not say, or
    names no rule: refused by :func:`blackjack_option_problems`)."""
    rules = {d.value: d for d in DoubleOn}
    return rules.get((spec.double_on or "any").strip().lower(), DoubleOn.ANY)


def blackjack_option_problems(spec: SubmissionFile) -> list[Problem]:
    """Every violation of the submission's Blackjack options: an option given at another game,
    Switch Hands and Blackjack Premium contradicting each other or their tie pay, re-split aces
    with too few hands, and a rule the regulation fixes stated otherwise (a Blackjack paying
    other than 3 to 2, no peek, doubling restricted), each citing its section."""
    problems: list[Problem] = []
    options = {
        "dealer": spec.dealer,
        "switch_hands": spec.switch_hands or None,
        "blackjack_premium": spec.blackjack_premium or None,
        "tie_blackjack_pays": spec.tie_blackjack_pays,
        "late_surrender": spec.late_surrender,
        "double_after_split": spec.double_after_split,
        "split_hands": spec.split_hands,
        "resplit_aces": spec.resplit_aces,
        "hit_split_aces": spec.hit_split_aces,
        "blackjack_pays": spec.blackjack_pays,
        "peek": spec.peek,
        "double_on": spec.double_on,
    }
    given = [k for k, v in options.items() if v is not None]
    if spec.game is not TableGame.BLACKJACK and given:
        problems.append((f"{', '.join(given)}: Blackjack options only", None))
    if spec.switch_hands and spec.blackjack_premium:
        problems.append(
            (
                "choose switch_hands (every player places the Ante, § 633b.4(c)) or "
                "blackjack_premium (the Ante is optional, § 633b.4(k)), not both",
                "633b.4(k)",
            )
        )
    if spec.tie_blackjack_pays and not (spec.switch_hands or spec.blackjack_premium):
        problems.append(
            (
                "tie_blackjack_pays: the 1 to 2 tie Blackjack is a Switch Hands or Blackjack "
                "Premium pay",
                "633b.4(i)(2)(ii)",
            )
        )
    if spec.blackjack_premium and spec.tie_blackjack_pays is False:
        problems.append(("Blackjack Premium always pays a tie Blackjack 1 to 2", "633b.4(o)"))
    if spec.resplit_aces and (spec.split_hands or 4) < 3:
        problems.append(
            (
                f"resplit_aces: re-splitting needs split_hands of 3 or more, not "
                f"{spec.split_hands}",
                "633a.11",
            )
        )
    problems.extend(_fixed_rule_problems(spec))
    return problems


def _fixed_rule_problems(spec: SubmissionFile) -> list[Problem]:
    """The rules Pennsylvania fixes, stated otherwise: the Blackjack pay, the peek, doubling."""
    problems: list[Problem] = []
    if spec.blackjack_pays is not None and parse_pays(spec.blackjack_pays) != BLACKJACK_PAYS:
        problems.append(
            (
                clipped(
                    f'blackjack_pays: a player Blackjack pays 3 to 2 ("3:2"), not '
                    f"{spec.blackjack_pays.strip()!r}"
                ),
                PAYOUT_SECTION,
            )
        )
    if spec.peek is False:
        problems.append(
            (
                "peek: the dealer checks the hole card for Blackjack with the card reader "
                "device under an ace or a 10-valued upcard; a table without the peek is not "
                "allowed",
                PEEK_SECTION,
            )
        )
    if spec.double_on is not None and spec.double_on.strip().lower() != DoubleOn.ANY.value:
        problems.append(
            (
                clipped(
                    f'double_on: a player may double on any first two cards ("any"), not '
                    f"{spec.double_on.strip()!r}"
                ),
                DOUBLE_SECTION,
            )
        )
    return problems


__all__ = [
    "BLACKJACK_PAYS",
    "DOUBLE_SECTION",
    "PAYOUT_SECTION",
    "PEEK_SECTION",
    "blackjack_option_problems",
    "blackjack_pays_of",
    "double_on_of",
    "parse_pays",
    "pays_text",
]
