"""The analysis commands' ``--json`` documents: ``analyze`` (a wager's exact par sheet),
``analyze switch-hands|blackjack-premium`` (a game's figures) and ``strategy GAME``."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from croupier.operations.schemas import Shape
from croupier.operations.schemas.values import (
    Cents,
    Citation,
    PaytableDigest,
    Ratio,
    Section,
    SkipJsonSchema,
    absent,
)


class ParSheetOutcome(Shape):
    """one line of the par sheet: an outcome, its pay, how often and what it returns"""

    outcome: str
    label: str
    pays: str
    net_win: float
    """net win per unit wagered (e.g. 0.95 for 19 to 20)"""
    combinations: int
    probability: float
    probability_exact: Ratio
    return_: float = Field(alias="return")
    """the outcome's share of the expected return, per unit wagered"""


class ParSheetExact(Shape):
    """the par sheet's figures as exact fractions"""

    expected_return: str
    house_edge: str
    hit_frequency: str
    variance: str


class PlayCounts(Shape):
    """how many of the player's hands and the face-up cards fold, play 1× and play 3×"""

    fold: int
    play_1x: int
    play_3x: int


class FourCardPokerExact(Shape):
    """Four Card Poker's figures as exact fractions, reading the dealer's face-up card"""

    house_edge_per_ante: str
    house_edge_per_total_wagered: str
    player_hand_and_face_up_card_pairs: PlayCounts


class MeterAnalysis(Shape):
    """the progressive wager's return as its meters move"""

    wager_amount: str
    wager_amount_cents: Cents
    fixed_return: float
    return_per_1000_on_meter: dict[str, float]
    return_at_meters: float
    return_at_seed: float
    top_meter: str
    breakeven_meter: str
    breakeven_meter_cents: Cents
    positive_at_seed: bool
    increment_rate: float
    long_run_return: float
    long_run_return_exact: Ratio
    reseed_funding: Literal["reserve", "house"]
    """who pays each reseed in the long-run return: the reserve (default) or the house"""
    envy_per_other_player: float


class BlindFigures(Shape):
    """Four Card Poker without reading the dealer's face-up card"""

    house_edge_per_ante: float
    house_edge_per_total_wagered: float
    strategy: dict[str, float]


class HitOddsAward(Shape):
    """one award paid from a progressive level's meter"""

    outcome: str
    label: str
    pays: str
    probability: float
    probability_exact: Ratio
    odds: str
    """"1 in N" (N = 1/probability, rounded unless whole); "never\""""


class HitOdds(Shape):
    """a progressive level's hit odds"""

    level: str
    probability: float
    """probability that a wager wins any award from this level's meter"""
    probability_exact: Ratio
    one_in: float | None
    """N of 1 in N; null when the level cannot be hit"""
    one_in_exact: Annotated[str, Field(pattern=r"^-?[0-9]+/[0-9]+$")] | None
    odds: str
    awards: list[HitOddsAward]


class ParSheet(Shape):
    """``croupier analyze WAGER``: a wager's exact par sheet"""

    wager: str
    wager_name: str
    section: Section
    citation: Citation
    paytable: str
    paytable_citation: str
    paytable_source: str
    paytable_in_regulation: bool
    paytable_example: bool
    """a paytable croupier made up as an example (not PA text, not any casino's table)"""
    decks: int
    shoe: str
    method: str
    counting: str
    outcomes: list[ParSheetOutcome]
    total_combinations: int
    expected_return: float
    house_edge: float
    hit_frequency: float
    standard_deviation: float
    paytable_sha256: PaytableDigest
    hit_odds: list[HitOdds] | SkipJsonSchema[None] = absent(
        "each progressive level's hit odds (N.J.A.C. 13:69D-1.52(e)(4)); absent without a "
        "progressive"
    )
    exact: ParSheetExact | FourCardPokerExact
    wager_amount: str | SkipJsonSchema[None] = absent()
    wager_amount_cents: int | SkipJsonSchema[None] = absent("money in integer cents")
    meters: dict[str, str] | SkipJsonSchema[None] = absent()
    meters_cents: dict[str, Cents] | SkipJsonSchema[None] = absent()
    progressive_stake: str | SkipJsonSchema[None] = absent()
    increment_rate: float | SkipJsonSchema[None] = absent()
    meter_analysis: MeterAnalysis | SkipJsonSchema[None] = absent()
    without_the_face_up_card: BlindFigures | SkipJsonSchema[None] = absent()
    house_edge_per_ante: float | SkipJsonSchema[None] = absent()
    house_edge_per_total_wagered: float | SkipJsonSchema[None] = absent()
    average_total_wager_in_antes: float | SkipJsonSchema[None] = absent()
    strategy: dict[str, float] | SkipJsonSchema[None] = absent()


class GameFigures(Shape):
    """a game's figures for one kind of player"""

    game: str
    player: str
    tie_blackjack_pays_1_to_2: bool
    ante_per_blackjack_wager: float
    blackjack_wager_return: float
    expected_per_blackjack_wager: float
    house_edge_per_blackjack_wager: float
    house_edge_per_total_wagered: float
    switch_rate: float


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
    double: float
    split: float | SkipJsonSchema[None] = absent()
    surrender: float | SkipJsonSchema[None] = absent()


class ChartRow(Shape):
    """one row of the basic strategy chart: a hand, the decision and its values by upcard"""

    kind: str
    hand: str
    actions: dict[str, str]
    ev: dict[str, MoveValues]


class BlackjackStrategy(Shape):
    """the basic strategy chart of a Blackjack table"""

    model_config = ConfigDict(title="croupier strategy blackjack --json")

    game: Literal["blackjack"]
    sections: list[str]
    rules: str
    house_edge: float
    strategy: str
    chart: list[ChartRow]


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
    "BlackjackStrategy",
    "FourCardPokerStrategy",
    "GameAnalysis",
    "ParSheet",
    "Strategy",
    "SwitchHandsStrategy",
]
