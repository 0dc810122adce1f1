"""The Rules Submission file's schema (58 Pa. Code § 601a.2), checked with pydantic: its shape and
types only. :mod:`croupier.table.submission` reads the file with it and checks it against the
regulation."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from croupier.analysis.hit_odds import NJ_MAX_ONE_IN
from croupier.wagers.at_table import TableGame

HitOddsBasis = Literal["level", "award"]
"""What ``hit_odds_bound`` applies to: each progressive meter level (any award from it, the
default) or each award line paying a share of a meter."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WagerSpec(_Strict):
    """One ``[[wagers]]`` table of the file."""

    wager: str = Field(min_length=1)
    paytable: str | None = None
    min: str | None = None
    max: str | None = None
    amounts: list[str] | None = None


class SubmissionFile(_Strict):
    """The whole file (see the module docstring). Its numbers and flags are the file's own
    types, never converted: ``decks = true`` is not one deck, ``switch_hands = "no"`` not
    ``False`` (pydantic's strict integers and booleans)."""

    game: TableGame
    name: str = ""
    decks: StrictInt = Field(ge=1, le=8)
    dealer: Literal["S17", "H17"] | None = None
    switch_hands: StrictBool = False
    blackjack_premium: StrictBool = False
    tie_blackjack_pays: StrictBool | None = None
    late_surrender: StrictBool | None = None
    double_after_split: StrictBool | None = None
    split_hands: StrictInt | None = Field(default=None, ge=1, le=8)
    resplit_aces: StrictBool | None = None
    hit_split_aces: StrictBool | None = None
    seats: StrictInt = Field(default=7, ge=1, le=9)
    adjacent_boxes: StrictInt | None = Field(default=None, ge=1)
    hit_odds_bound: StrictInt = Field(default=NJ_MAX_ONE_IN, ge=1)
    hit_odds_basis: HitOddsBasis = "level"
    wagers: list[WagerSpec] = Field(min_length=1)
