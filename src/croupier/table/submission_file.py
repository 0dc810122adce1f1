"""The Rules Submission file's schema (58 Pa. Code § 601a.2), checked with pydantic: its shape and
types only. :mod:`croupier.table.submission` reads the file with it and checks it against the
regulation."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, StrictBool, StrictInt

from croupier.analysis.hit_odds import NJ_MAX_ONE_IN
from croupier.wagers.at_table import TableGame

HitOddsBasis = Literal["level", "award"]
"""What ``hit_odds_bound`` applies to: each progressive meter level (any award from it, the
default) or each award line paying a share of a meter."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


class WagerSpec(_Strict):
    """One ``[[wagers]]`` table of the file: a wager the table offers."""

    wager: str = Field(min_length=1)
    """The wager's id: the base wager (``blackjack``; ``player``, ``banker``, ``tie``;
    ``four-card-poker``, the Ante; ``criss-cross``) or an optional wager (``perfect-pairs``)."""
    paytable: str | None = None
    """The paytable offered, by its id in the wager's chapter (e.g. ``A``)."""
    min: str | None = None
    """The wager's minimum in dollars, e.g. "$10"."""
    max: str | None = None
    """The wager's maximum in dollars, e.g. "$1,000"."""
    amounts: list[str] | None = None
    """A progressive wager's sizes in dollars, instead of min and max (e.g. ["$1", "$5"])."""


class SubmissionFile(_Strict):
    """A Rules Submission (58 Pa. Code § 601a.2): the game, its options and the wagers offered,
    as the TOML file or a JSON object gives it. Its numbers and flags are the file's own types,
    never converted: ``decks = true`` is not one deck, ``switch_hands = "no"`` not ``False``
    (pydantic's strict integers and booleans)."""

    model_config = ConfigDict(
        json_schema_extra={
            "examples": [
                {
                    "game": "blackjack",
                    "name": "BJ-6 with Perfect Pairs",
                    "decks": 6,
                    "dealer": "S17",
                    "wagers": [
                        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
                        {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
                    ],
                }
            ]
        }
    )
    game: TableGame
    """The base game."""
    name: str = ""
    """The table's name as the submission gives it."""
    decks: StrictInt = Field(ge=1, le=8)
    """The number of decks in the shoe."""
    dealer: Literal["S17", "H17"] | None = None
    """Blackjack: the dealer stands on soft 17 (S17) or hits it (H17), § 633a.7."""
    switch_hands: StrictBool = False
    """Switch Hands (§ 633b.4(a)–(j)): every player places the Ante."""
    blackjack_premium: StrictBool = False
    """Blackjack Premium (§ 633b.4(k)–(o)): the Ante is optional (at most one of the two)."""
    tie_blackjack_pays: StrictBool | None = None
    """Switch Hands: a switched tie Blackjack pays 1 to 2 (§ 633b.4(i)(2)(ii))."""
    late_surrender: StrictBool | None = None
    """Blackjack: late surrender is offered (§ 633a.9)."""
    double_after_split: StrictBool | None = None
    """Blackjack: a split hand may double (§ 633a.10)."""
    split_hands: StrictInt | None = Field(default=None, ge=1, le=8)
    """Blackjack: at most this many hands by splitting and re-splitting (§ 633a.11)."""
    resplit_aces: StrictBool | None = None
    """Blackjack: split aces may be split again."""
    hit_split_aces: StrictBool | None = None
    """Blackjack: split aces may take more than one card each."""
    blackjack_pays: str | None = Field(default=None, examples=["3:2"])
    """Blackjack: what a player Blackjack pays, as odds ("3:2" or "3 to 2"); 3 to 2 is the only
    pay allowed (§ 633a.13): another is refused."""
    peek: StrictBool | None = None
    """Blackjack: the dealer checks the hole card for Blackjack under an ace or a 10-valued
    upcard (§ 633a.7, the card reader device); it must (``false`` is refused)."""
    double_on: str | None = Field(default=None, examples=["any"])
    """Blackjack: the first two cards a player may double on: "any" (§ 633a.10; "9-11" and
    "10-11" are refused)."""
    seats: StrictInt = Field(default=7, ge=1, le=9)
    """The table's seats."""
    adjacent_boxes: StrictInt | None = Field(default=None, ge=1)
    """Four Card Poker: the boxes a player may wager on (§ 641a.7(e))."""
    hit_odds_bound: StrictInt = Field(default=NJ_MAX_ONE_IN, ge=1)
    """Refuse a progressive meter level (or award) hit less often than 1 in this many rounds
    (default the NJ bound, N.J.A.C. 13:69D-1.52(e)(4))."""
    hit_odds_basis: HitOddsBasis = "level"
    """What ``hit_odds_bound`` applies to: each meter level (any award from it) or each award
    line paying a share of a meter."""
    wagers: list[WagerSpec] = Field(min_length=1)
    """The wagers the table offers, the base wager among them."""


def _as_given(value: Any) -> Any:
    return value


InlineSubmission = Annotated[
    dict[str, Any], BeforeValidator(_as_given, json_schema_input_type=SubmissionFile)
]
"""A Rules Submission given inline (a round file's ``submission``, an open table's): its JSON
Schema is :class:`SubmissionFile`'s, while the object is taken as given and checked in full when
it is read (:func:`croupier.table.submission.submission_from_data`: every violation at once, each
with its section, a :class:`~croupier.errors.SubmissionError`)."""
