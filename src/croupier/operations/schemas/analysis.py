"""A wager's exact par sheet as croupier writes it (``croupier analyze WAGER --json``, ``GET
/parsheets/{wager}``; ``croupier parsheet --json``), with the hit odds of its progressive levels
and the whole-game figures of § 633b.4. The count analysis is in
:mod:`~croupier.operations.schemas.eor`, a simulated par sheet in
:mod:`~croupier.operations.schemas.simulation`.

Units: a return, an edge, a net win or a standard deviation is *per unit wagered* — a fraction of
the initial wager (``-0.04`` is 4% of the wager lost; ``25`` is 25 times the wager won); a
probability, frequency or share is a fraction from 0 to 1; an exact figure is a fraction ``p/q``
beside its decimal; money is integer cents (US$ 0.01) beside its text for people (``"$5"``); an
increment rate written as text is a percentage (``"18.5%"``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from croupier.operations.schemas import Shape
from croupier.operations.schemas.values import (
    Absent,
    Citation,
    Fraction,
    Number,
    Section,
    Sha256,
    absent,
)


class ParSheetOutcome(Shape):
    """One outcome of an exact par sheet: its count of combinations and probability."""

    outcome: str
    """The outcome's id (the paytable line's key; "lose" for no winning combination)."""

    label: str
    """The outcome in words, as the paytable names it."""

    pays: str
    """What it pays, as printed ("25 to 1", "100% of Progressive ($50,000)")."""

    net_win: Number
    """Net win per unit wagered (a fraction of the initial wager: 25 for 25 to 1, 0.95 for 19 to
    20, -1 for a loss); written whole when it is whole."""

    combinations: int
    """The deals counted that end in this outcome (of total_combinations)."""

    probability: float
    """combinations / total_combinations, from 0 to 1."""

    probability_exact: Fraction
    """The probability as an exact fraction p/q."""

    one_in: float | None
    """N of "1 in N": 1 / probability (the outcome comes up once in N rounds on average); null
    for an outcome no deal makes."""

    one_in_exact: Fraction | None
    """N as an exact fraction p/q (total_combinations / combinations); null with one_in."""

    return_: float = Field(alias="return")
    """This outcome's share of the expected return: probability × net_win, per unit wagered."""


class VolatilityIndex(Shape):
    """The volatility index at 90, 95 and 99 % confidence: VI = z × SD per unit wagered, z the
    two-sided standard normal quantile (1.644854, 1.959964, 2.575829)."""

    vi_90: float = Field(alias="90")
    """VI at 90 %: 1.644854 × the standard deviation."""

    vi_95: float = Field(alias="95")
    """VI at 95 %: 1.959964 × the standard deviation."""

    vi_99: float = Field(alias="99")
    """VI at 99 %: 2.575829 × the standard deviation."""


class ReturnBand(Shape):
    """The confidence band of the player's return after a number of rounds: 1 + E[X] ± VI/√N
    (the normal approximation; N rounds of one unit each)."""

    rounds: int
    """N, the rounds played (one unit wagered each): 100 to 100,000,000."""

    confidence: Literal[90, 95, 99]
    """The confidence level, in percent."""

    low: float
    """The band's low end: the return per unit wagered, stake included (0.95 is 95 % of the
    money wagered back), 1 + E[X] − VI/√N; below 0 where the approximation does not hold."""

    high: float
    """The band's high end, 1 + E[X] + VI/√N, per unit wagered, stake included."""


class MaxWin(Shape):
    """The largest net win per unit wagered on one line that can come up."""

    outcome: str
    """The line's outcome id."""

    label: str
    """The line in words."""

    pays: str
    """What it pays, as printed (a meter's share with its amount at the meter shown)."""

    net_win: Number
    """The net win per unit wagered (25 for 25 to 1; a meter award over the wager size, less
    the stake collected)."""

    amount: str | Absent = absent()
    """A progressive wager: the net win in money on its wager size at the meters shown, for
    people ("$49,995"); absent otherwise."""

    amount_cents: int | Absent = absent()
    """The same amount in integer cents (a fraction of a cent dropped)."""


class LevelIncrementRates(Shape):
    """A progressive level's increment rates as the paytable prints them (a fraction of each
    wager: 0.16 for 16 %)."""

    increment_rate: float | None
    """The share of each wager added to the level's meter; null when none is printed."""

    secondary_increment_rate: float | None
    """The share of each wager added to the level's reserve (it pays the reseeds); null when
    none is printed."""


class FaceUpCardPairs(Shape):
    """How many player hand and face-up card pairs the strategy folds, plays 1x and 3x."""

    fold: int
    """Pairs of the player's hand and the dealer's face-up card the strategy folds."""

    play_1x: int
    """Pairs it plays with a Play wager of 1× the Ante."""

    play_3x: int
    """Pairs it plays with a Play wager of 3× the Ante."""


class ParSheetExact(Shape):
    """The par sheet's figures as exact fractions (p/q)."""

    expected_return: Fraction
    """The expected return per unit wagered, p/q."""

    house_edge: Fraction
    """The house edge per unit wagered, p/q."""

    hit_frequency: Fraction
    """The hit frequency, p/q."""

    variance: Fraction
    """The variance of the net win per unit wagered (in squared units of the wager), p/q."""


class FourCardPokerExact(Shape):
    """Four Card Poker's Ante and Play figures as exact fractions (p/q), the strategy reading the
    dealer's face-up card."""

    house_edge_per_ante: Fraction
    """The house edge as a fraction of the Ante, p/q."""

    house_edge_per_total_wagered: Fraction
    """The house edge as a fraction of everything wagered (Ante and Play), p/q."""

    player_hand_and_face_up_card_pairs: FaceUpCardPairs
    """How the strategy plays each pair of player hand and face-up card."""


class MeterAnalysis(Shape):
    """A progressive wager's return as a function of its meters."""

    wager_amount: str
    """The progressive wager's amount, for people ("$5")."""

    wager_amount_cents: int
    """The progressive wager's amount, in integer cents."""

    fixed_return: float
    """The expected return per unit wagered with every meter at 0 (what the fixed pays give)."""

    return_per_1000_on_meter: dict[str, float]
    """By meter level: how much the expected return (per unit wagered) rises for each $1,000 on
    that meter."""

    return_at_meters: float
    """The expected return per unit wagered at the meters analysed (the par sheet's)."""

    return_at_seed: float
    """The expected return per unit wagered with every meter at its seed."""

    top_meter: str
    """The level of the top award's meter."""

    breakeven_meter: str | None
    """The top meter's amount at which the expected return is 0, the other meters at their
    seeds, for people ("$556,070.76"); null when no line pays a share of it or the wager is
    positive at any amount."""

    breakeven_meter_cents: int | None
    """The same amount in integer cents; null with breakeven_meter."""

    positive_at_seed: bool
    """Whether the expected return is 0 or better with every meter at its seed."""

    increment_rate: float
    """The share of each wager the paytable sends to the meters and reserve (a fraction of the
    wager: 0.185 for 18.5%)."""

    increment_rates: dict[str, float]
    """By meter level: the share of each wager sent to that level's meter and its reserve
    (primary and secondary rates), a fraction of the wager; empty when the paytable prints only
    a total rate."""

    long_run_return: float
    """The expected return per unit wagered in the long run, every increment paid back through
    the meters and each reseed funded as reseed_funding says."""

    long_run_return_exact: Fraction
    """The long-run return as an exact fraction p/q."""

    envy_per_other_player: float
    """The expected envy bonus per unit wagered that one other player holding the wager brings
    (0 without envy bonuses)."""

    reseed_funding: Literal["reserve", "house"]
    """Who pays each reseed in the long-run return: the reserve (default) or the house."""


class WithoutTheFaceUpCard(Shape):
    """The figures when the dealer's face-up card is not used by the strategy."""

    house_edge_per_ante: float
    """The house edge as a fraction of the Ante."""

    house_edge_per_total_wagered: float
    """The house edge as a fraction of everything wagered (Ante and Play)."""

    strategy: dict[str, float]
    """The share of hands (0 to 1) the strategy folds ("fold"), plays 1× ("play_1x") and plays
    3× ("play_3x")."""


class HitOddsAward(Shape):
    """One award of a progressive level, and its odds."""

    outcome: str
    """The outcome's id (the paytable line's key)."""

    label: str
    """The outcome in words."""

    pays: str
    """What it pays from the level's meter, as printed ("10% of Progressive")."""

    probability: float
    """The probability that a wager wins it, from 0 to 1."""

    probability_exact: Fraction
    """Exact fraction p/q."""

    odds: str
    """"1 in N" (N = 1/probability, rounded unless whole); "never"."""


class HitOdds(Shape):
    """A progressive level's hit odds (N.J.A.C. 13:69D-1.52(e)(4))."""

    level: str
    """The meter level ("Progressive", "Mega", …)."""

    probability: float
    """Probability that a wager wins any award from this level's meter."""

    probability_exact: Fraction
    """Exact fraction p/q."""

    one_in: float | None
    """N of 1 in N (1/probability); null when the level cannot be hit."""

    one_in_exact: Fraction | None
    """N as an exact fraction p/q; null when the level cannot be hit."""

    odds: str
    """"1 in N", N rounded unless whole; "never" when the level cannot be hit."""

    awards: list[HitOddsAward]
    """Each award paid from this level's meter."""


class ParSheetHeading(Shape):
    """What every par sheet, exact or simulated, opens with: the wager, its section, the
    paytable and the shoe."""

    wager: str
    """The wager's id."""

    wager_name: str
    """The wager's name."""

    section: Section
    """The section or paragraph of 58 Pa. Code, bare: "633b.1(e)"."""

    citation: Citation
    """The section's full citation: "58 Pa. Code § 633b.1(e)"."""

    paytable: str
    """The paytable's id."""

    paytable_citation: str
    """Where the paytable is printed ("58 Pa. Code § 633b.1(f)"), or what it is when the
    regulation does not print it."""

    paytable_source: str
    """The file the paytable was read from (a built-in paytable file, or the user's)."""

    paytable_in_regulation: bool
    """Whether the regulation prints the paytable."""

    paytable_example: bool
    """A paytable croupier made up as an example (not PA text, not any casino's table)."""

    decks: int
    """The decks in the shoe."""

    shoe: str
    """The shoe in words ("6-deck shoe")."""


class ParSheet(ParSheetHeading):
    """A wager's exact par sheet (``croupier analyze WAGER --json``, ``GET /parsheets/{wager}``)."""

    method: str
    """How the figures were made: "exact" (every deal counted)."""

    counting: str
    """What was counted, in words: which cards are dealt, ordered or not, from which shoe."""

    outcomes: list[ParSheetOutcome]
    """Every outcome, its combinations, probability, pay and share of the return."""

    total_combinations: int
    """The deals counted."""

    expected_return: float
    """The expected net win per unit wagered (negative: the house wins)."""

    house_edge: float
    """-expected_return, per unit wagered."""

    hit_frequency: float
    """The probability that the wager wins (a push is not a hit), from 0 to 1."""

    standard_deviation: float
    """The standard deviation of the net win, per unit wagered."""

    volatility_index: VolatilityIndex
    """The volatility index VI = z × standard_deviation at 90, 95 and 99 %, by level in percent
    ("95")."""

    return_bands: list[ReturnBand]
    """The confidence band of the return after 10², 10³, …, 10⁸ rounds, each at 90, 95 and
    99 % (by rounds, then level)."""

    max_win: MaxWin
    """The largest net win per unit wagered."""

    exact: ParSheetExact | FourCardPokerExact
    """The figures as exact fractions."""

    wager_amount: str | Absent = absent()
    """A progressive wager: its amount, for people ("$5"); absent otherwise."""

    wager_amount_cents: int | Absent = absent()
    """A progressive wager: its amount in integer cents; absent otherwise."""

    meters: dict[str, str] | Absent = absent()
    """A progressive wager: the amount on each meter the pays were valued at, by level, for
    people; absent otherwise."""

    meters_cents: dict[str, int] | Absent = absent()
    """The same amounts in integer cents, by level."""

    progressive_stake: Literal["collected", "returned"] | Absent = absent()
    """A progressive wager: whether a meter award is the whole payment, the stake collected
    (the default reading), or paid on top of the returned stake; absent otherwise."""

    increment_rate: float | Absent = absent()
    """A progressive wager: the share of each wager sent to the meters and reserve (a fraction
    of the wager: 0.185 for 18.5%); absent when the paytable prints none."""

    increment_rates: dict[str, LevelIncrementRates] | Absent = absent()
    """A progressive wager: each meter level's printed increment rates, by level; absent
    otherwise."""

    meter_analysis: MeterAnalysis | Absent = absent()
    """A progressive wager: its return as a function of the meters; absent otherwise."""

    without_the_face_up_card: WithoutTheFaceUpCard | Absent = absent()
    """Four Card Poker: the figures of a strategy that does not read the dealer's face-up
    card, for comparison."""

    house_edge_per_ante: float | Absent = absent()
    """Four Card Poker: the house edge as a fraction of the Ante."""

    house_edge_per_total_wagered: float | Absent = absent()
    """Four Card Poker: the house edge as a fraction of everything wagered (Ante and Play)."""

    average_total_wager_in_antes: float | Absent = absent()
    """Four Card Poker: the Ante and Play wagered on average, in Antes."""

    strategy: dict[str, float] | Absent = absent()
    """Four Card Poker: the share of hands (0 to 1) the strategy folds ("fold"), plays 1×
    ("play_1x") and plays 3× ("play_3x")."""

    paytable_sha256: Sha256
    """SHA-256 of the paytable's canonical data (croupier.paytables.paytable_digest)."""

    hit_odds: list[HitOdds] | Absent = absent()
    """Each progressive level's hit odds (N.J.A.C. 13:69D-1.52(e)(4)); absent without a progressive."""


class GameFigures(Shape):
    """A whole game's § 633b.4 figures for one player's strategy."""

    game: str
    """The game: "switch-hands" or "blackjack-premium"."""

    player: str
    """The kind of player, in words: with the Switch Hands Ante, or plain Blackjack."""

    tie_blackjack_pays_1_to_2: bool
    """Whether the optional 1 to 2 pay on a tied Blackjack is offered (§ 633b.4(i)(2)(ii))."""

    ante_per_blackjack_wager: float
    """The Ante per unit of the Blackjack wager (0 for a plain Blackjack player)."""

    blackjack_wager_return: float
    """The Blackjack wager's expected net result per unit of it, the Ante not counted."""

    expected_per_blackjack_wager: float
    """The player's expected net result per unit of the Blackjack wager, the Ante lost."""

    house_edge_per_blackjack_wager: float
    """-expected_per_blackjack_wager: the house edge per unit of the Blackjack wager."""

    house_edge_per_total_wagered: float
    """The house edge per unit of everything wagered (the Blackjack wager and the Ante)."""

    switch_rate: float
    """The share of rounds (0 to 1) in which the player switches."""


class GameFigureSet(Shape):
    """A whole game's § 633b.4 figures (Switch Hands, Blackjack Premium) at one deck count."""

    section: Section
    """The section or paragraph of 58 Pa. Code, bare: "633b.1(e)"."""

    citation: Citation
    """The section's full citation: "58 Pa. Code § 633b.1(e)"."""

    decks: int
    """The decks in the shoe."""

    rules: str
    """The table's rules the figures assume, in words."""

    figures: list[GameFigures]
    """One set of figures per game and kind of player."""


class ParSheetFile(Shape):
    """``croupier parsheet --json`` (and the parsheets.json of --out)."""

    parsheets: list[ParSheet]
    """Every exact par sheet asked for, each as croupier analyze --json prints it."""

    games: list[GameFigureSet] | Absent = absent()
    """The whole-game § 633b.4 figures (Switch Hands, Blackjack Premium) per deck count."""


class ParSheetSummaryRow(Shape):
    """One par sheet's summary row, as a table-games manager compares paytables by it
    (``croupier parsheet --summary --json``, the summary.json of ``--out``, the web comparison's
    CSV; :class:`croupier.analysis.summary.SummaryRow`)."""

    wager: str
    """The wager's id."""

    wager_name: str
    """The wager's name."""

    section: Section
    """The section or paragraph of 58 Pa. Code, bare: "633b.1(e)"."""

    citation: Citation
    """The section's full citation: "58 Pa. Code § 633b.1(e)"."""

    paytable: str
    """The paytable's id."""

    paytable_status: Literal[
        "printed in the regulation",
        "not printed in the regulation",
        "EXAMPLE, made up; not PA text",
    ]
    """Where the paytable stands: printed in the regulation, not printed there (a user's, or
    pays seen at a casino), or an example croupier made up."""

    paytable_citation: str
    """Where the paytable is printed, or what it is when the regulation does not print it."""

    paytable_in_regulation: bool
    """Whether the regulation prints the paytable."""

    paytable_example: bool
    """A paytable croupier made up as an example (not PA text, not any casino's table)."""

    decks: int
    """The decks in the shoe."""

    house_edge: float
    """The house edge per unit wagered, a progressive's meters at their seeds."""

    house_edge_exact: Fraction
    """The house edge as an exact fraction p/q."""

    long_run_return: float | None
    """What the wager returns in the long run per unit wagered, the stake included (0.9437 is
    94.37% of the money wagered; above 1 is the player's edge): a progressive's by the meter
    model under reseed_funding, a fixed-pay wager's 1 + its expected return; null for a user's
    progressive paytable."""

    long_run_return_exact: Fraction | None
    """The long-run return as an exact fraction p/q; null with long_run_return."""

    reseed_funding: Literal["reserve", "house"] | None
    """A progressive: who pays each reseed in the long-run return; null for a fixed-pay wager."""

    wager_amount: str | None
    """A progressive: the wager size the row's meter figures are on, for people ("$5"); null
    for a fixed-pay wager or when the paytable is not offered at the size asked for."""

    wager_amount_cents: int | None
    """The same wager size in integer cents; null with wager_amount."""

    top_meter: str | None
    """A progressive: the level of the top award's meter ("Progressive", "Mega"); null
    otherwise."""

    breakeven_meter: str | None
    """The top meter's amount at which a wager of wager_amount breaks even (expected return 0),
    the other meters at their seeds, for people ("$583,449.50"); null for a fixed-pay wager, a
    wager positive at every meter, or a size not offered."""

    breakeven_meter_cents: int | None
    """The breakeven meter in integer cents, rounded to the cent; null with breakeven_meter."""

    breakeven: str
    """The breakeven in words with the wager it is on: "$583,449.50 on $5", "not offered at
    $1", "positive at every meter" or "—"."""

    offered: bool
    """False when a wager size was asked for (the comparison's stake) and the paytable does not
    take it; true otherwise."""

    hit_frequency: float
    """The probability that the wager wins (a push is not a hit), from 0 to 1."""

    hit_frequency_exact: Fraction
    """The hit frequency as an exact fraction p/q."""

    standard_deviation: float
    """The standard deviation of the net win, per unit wagered."""

    variance_exact: Fraction
    """The variance of the net win per unit wagered, exact p/q (the standard deviation is its
    square root)."""

    vi_90: float
    """The volatility index at 90% confidence: 1.644854 × standard_deviation."""

    vi_95: float
    """The volatility index at 95% confidence: 1.959964 × standard_deviation."""

    vi_99: float
    """The volatility index at 99% confidence: 2.575829 × standard_deviation."""


class ParSheetSummaryFile(Shape):
    """``croupier parsheet --summary --json`` (and the summary.json of ``croupier parsheet
    --out``)."""

    summary: list[ParSheetSummaryRow]
    """One row per par sheet asked for."""

    volatility_index: str
    """How the volatility index is worked out, in words (z the two-sided normal quantile)."""

    games: list[GameFigureSet] | Absent = absent()
    """The whole-game § 633b.4 figures (Switch Hands, Blackjack Premium) per deck count."""


__all__ = [
    "FaceUpCardPairs",
    "FourCardPokerExact",
    "GameFigureSet",
    "GameFigures",
    "HitOdds",
    "HitOddsAward",
    "LevelIncrementRates",
    "MaxWin",
    "MeterAnalysis",
    "ParSheet",
    "ParSheetExact",
    "ParSheetFile",
    "ParSheetHeading",
    "ParSheetOutcome",
    "ParSheetSummaryFile",
    "ParSheetSummaryRow",
    "ReturnBand",
    "VolatilityIndex",
    "WithoutTheFaceUpCard",
]
