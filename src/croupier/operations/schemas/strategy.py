"""The whole-game and strategy documents: ``croupier analyze switch-hands|blackjack-premium
--json`` (a game's § 633b.4 figures) and ``croupier strategy GAME --json`` (one shape per game,
chosen by its ``game``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from croupier.operations.schemas import Shape
from croupier.operations.schemas.analysis import GameFigures
from croupier.operations.schemas.values import (
    Absent,
    Citation,
    Section,
    absent,
)


class GameAnalysis(Shape):
    """``croupier analyze switch-hands|blackjack-premium``: a game's figures"""

    game: str
    section: Section
    citation: Citation
    rules: str
    strategy: str
    premium_colored_pays: str
    figures: list[GameFigures]


class MoveValues(Shape):
    """the expected value of each decision on one hand against one upcard"""

    stand: float
    hit: float
    double: float | Absent = absent("absent where the doubling rule does not allow it")
    split: float | Absent = absent()
    surrender: float | Absent = absent()


class ChartRow(Shape):
    """one row of the basic strategy chart: a hand, the decision and its values by upcard"""

    kind: str
    hand: str
    actions: dict[str, str]
    ev: dict[str, MoveValues]


class BlackjackRuleSet(Shape):
    """the Blackjack rules a house edge is of (§§ 633a.7–633a.11 and the common variants)"""

    decks: int
    """decks in the shoe"""
    dealer: Literal["S17", "H17"]
    """the dealer stands (S17) or hits (H17) soft 17"""
    double_after_split: bool
    """a hand made by splitting may double"""
    split_hands: int
    """the most hands by splitting and re-splitting (1: no splitting)"""
    resplit_aces: bool
    """a hand made by splitting aces may be split again"""
    hit_split_aces: bool
    """a hand made by splitting aces may draw more than one card"""
    late_surrender: bool
    """a player may surrender half the wager after the peek"""
    peek: bool
    """the dealer checks the hole card under an ace or a ten (false: a dealer Blackjack takes
    doubles and splits too)"""
    blackjack_pays: str
    """what a player Blackjack pays: 3:2, 6:5 or 1:1"""
    double_on: Literal["any", "9-11", "10-11"]
    """which first two cards may be doubled (hard 9–11, hard 10–11)"""


BlackjackStrategyName = Literal["basic", "composition"]
"""``basic``: total-dependent basic strategy; ``composition``: composition-dependent."""


class RuleEffectRow(Shape):
    """one rule of the base changed: its house edge and the change from the base's"""

    key: str
    """the variation's name ("h17", "decks-8", "pays-6:5", "no-peek" …)"""
    rule: str
    """the rule it changes ("decks", "soft 17", "Blackjack pays" …)"""
    label: str
    """what the variation is, for people"""
    rules: str
    """the whole rule set of the variation"""
    house_edge: float
    """the variation's house edge, a fraction of the initial wager"""
    change: float
    """its house edge less the base's (positive: the rule costs the player)"""


class BlackjackHouseEdge(Shape):
    """a Blackjack rule set's house edge under one strategy"""

    model_config = ConfigDict(title="GET /blackjack/house-edge")

    game: Literal["blackjack"]
    rules: str
    """the rule set, for people"""
    rule_set: BlackjackRuleSet
    strategy: BlackjackStrategyName
    strategy_description: str
    house_edge: float
    """the house edge, a fraction of the initial wager (every round from a full shoe: no cut
    card)"""


class BlackjackEffects(Shape):
    """the effect of each rule on a Blackjack rule set's house edge"""

    model_config = ConfigDict(title="GET /blackjack/effects")

    game: Literal["blackjack"]
    rules: str
    rule_set: BlackjackRuleSet
    strategy: BlackjackStrategyName
    strategy_description: str
    house_edge: float
    """the base rule set's house edge, a fraction of the initial wager"""
    effects: list[RuleEffectRow]
    """each one-rule variation of the base"""


class BlackjackStrategy(Shape):
    """a Blackjack rule set's house edge under the strategy named, the basic strategy chart and,
    with --effects, the effect of each rule"""

    model_config = ConfigDict(title="croupier strategy blackjack --json")

    game: Literal["blackjack"]
    sections: list[str]
    rules: str
    rule_set: BlackjackRuleSet
    house_edge: float
    """the house edge under ``strategy``, a fraction of the initial wager (no cut card)"""
    strategy: BlackjackStrategyName
    strategy_description: str
    chart: list[ChartRow] | Absent = absent(
        "the total-dependent chart of two-card hands (absent without the peek)"
    )
    effects: list[RuleEffectRow] | Absent = absent(
        "with --effects: each one-rule variation of the rules"
    )


class AnteBonus(Shape):
    """the Ante bonus pays of the paytable"""

    four_of_a_kind: str = Field(alias="four-of-a-kind")
    straight_flush: str = Field(alias="straight-flush")
    three_of_a_kind: str = Field(alias="three-of-a-kind")


class StrategyRule(Shape):
    """one rule of the strategy without the face-up card"""

    hands: str
    decision: str
    player_hands: int
    exceptions: int


class Frequency(Shape):
    """how often the strategy folds, plays 1× and plays 3×"""

    fold: float
    play_1x: float
    play_3x: float


class ByRank(Shape):
    """the decision by the dealer's face-up rank"""

    two: str = Field(alias="2")
    three: str = Field(alias="3")
    four: str = Field(alias="4")
    five: str = Field(alias="5")
    six: str = Field(alias="6")
    seven: str = Field(alias="7")
    eight: str = Field(alias="8")
    nine: str = Field(alias="9")
    ten: str = Field(alias="T")
    jack: str = Field(alias="J")
    queen: str = Field(alias="Q")
    king: str = Field(alias="K")
    ace: str = Field(alias="A")


class FaceUpRow(Shape):
    """one group of the player's hands and its decision against each face-up rank"""

    hands: str
    decisions: ByRank
    exceptions: int
    deals: int


class FaceUpStrategy(Shape):
    """the strategy reading the dealer's face-up card"""

    by_face_up_rank: list[FaceUpRow]
    house_edge_per_ante: float
    house_edge_per_total_wagered: float
    frequency: Frequency


class FourCardPokerStrategy(Shape):
    """the Four Card Poker strategy, without and with the dealer's face-up card"""

    model_config = ConfigDict(title="croupier strategy four-card-poker --json")

    game: Literal["four-card-poker"]
    section: Section
    citation: Citation
    paytable: str
    ante_bonus: AnteBonus
    rule: list[StrategyRule]
    house_edge_per_ante: float
    house_edge_per_total_wagered: float
    average_total_wager_in_antes: float
    frequency: Frequency
    with_the_face_up_card: FaceUpStrategy


class SwitchChoice(Shape):
    """keep or switch one pair of hands against one upcard"""

    switch: bool
    keep_ev: float
    switch_ev: float


class SwitchHandsStrategy(Shape):
    """when to switch the hands' second cards (§ 633b.4(f))"""

    model_config = ConfigDict(title="croupier strategy switch-hands --json")

    game: Literal["switch-hands", "blackjack-premium"]
    section: Section
    citation: Citation
    rules: str
    tie_blackjack_pays_1_to_2: bool
    switch_rate: float
    chart: dict[str, dict[str, SwitchChoice]]
    """the player's hands → the upcard → keep or switch"""


Strategy = Annotated[
    BlackjackStrategy | FourCardPokerStrategy | SwitchHandsStrategy,
    Field(discriminator="game"),
]
"""``croupier strategy GAME --json``: one shape per game, told apart by ``game``."""


__all__ = [
    "BlackjackEffects",
    "BlackjackHouseEdge",
    "BlackjackRuleSet",
    "BlackjackStrategy",
    "FourCardPokerStrategy",
    "GameAnalysis",
    "RuleEffectRow",
    "Strategy",
    "SwitchHandsStrategy",
]
