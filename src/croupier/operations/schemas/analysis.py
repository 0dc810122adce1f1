"""The analyses croupier writes: a wager's exact par sheet (``croupier analyze WAGER --json``,
``GET /parsheets/{wager}``; ``croupier parsheet --json``), its count analysis (``croupier eor
--json``, ``GET /eor/{wager}``) and a simulated par sheet (``croupier simulate --json``, a
simulation job's result). Probabilities are exact fractions (p/q) beside their decimals; money
in integer cents."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from croupier.operations.schemas import Shape
from croupier.operations.schemas.absent import (
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

    label: str

    pays: str

    net_win: Number
    """Net win per unit wagered (e.g. 0.95 for 19 to 20)."""

    combinations: int

    probability: float

    probability_exact: Fraction
    """Exact fraction p/q."""

    return_: float = Field(alias="return")


class FaceUpCardPairs(Shape):
    """How many player hand and face-up card pairs the strategy folds, plays 1x and 3x."""

    fold: int

    play_1x: int

    play_3x: int


class ParSheetExact(Shape):
    """The par sheet's figures as exact fractions (p/q), as far as they are exact."""

    expected_return: str | Absent = absent()

    house_edge: str | Absent = absent()

    hit_frequency: str | Absent = absent()

    variance: str | Absent = absent()

    house_edge_per_ante: str | Absent = absent()

    house_edge_per_total_wagered: str | Absent = absent()

    player_hand_and_face_up_card_pairs: FaceUpCardPairs | Absent = absent()


class MeterAnalysis(Shape):
    """A progressive wager's return as a function of its meters."""

    wager_amount: str

    wager_amount_cents: int
    """Money in integer cents."""

    fixed_return: float

    return_per_1000_on_meter: dict[str, float]

    return_at_meters: float

    return_at_seed: float

    top_meter: str

    breakeven_meter: str

    breakeven_meter_cents: int
    """Money in integer cents."""

    positive_at_seed: bool

    increment_rate: float

    long_run_return: float

    long_run_return_exact: Fraction
    """Exact fraction p/q."""

    envy_per_other_player: float

    reseed_funding: Literal["reserve", "house"]
    """Who pays each reseed in the long-run return: the reserve (default) or the house."""


class WithoutTheFaceUpCard(Shape):
    """The figures when the dealer's face-up card is not used by the strategy."""

    house_edge_per_ante: float

    house_edge_per_total_wagered: float

    strategy: dict[str, float]


class HitOddsAward(Shape):
    """One award of a progressive level, and its odds."""

    outcome: str

    label: str

    pays: str

    probability: float

    probability_exact: Fraction
    """Exact fraction p/q."""

    odds: str
    """"1 in N" (N = 1/probability, rounded unless whole); "never"."""


class HitOdds(Shape):
    """A progressive level's hit odds (N.J.A.C. 13:69D-1.52(e)(4))."""

    level: str

    probability: float
    """Probability that a wager wins any award from this level's meter."""

    probability_exact: Fraction
    """Exact fraction p/q."""

    one_in: float | None
    """N of 1 in N; null when the level cannot be hit."""

    one_in_exact: Fraction | None

    odds: str

    awards: list[HitOddsAward]


class ParSheet(Shape):
    """A wager's exact par sheet (``croupier analyze WAGER --json``, ``GET /parsheets/{wager}``)."""

    wager: str

    wager_name: str

    section: Section
    """The section or paragraph of 58 Pa. Code, bare: "633b.1(e)"."""

    citation: Citation
    """The section's full citation: "58 Pa. Code § 633b.1(e)"."""

    paytable: str

    paytable_citation: str

    paytable_source: str

    paytable_in_regulation: bool

    paytable_example: bool
    """A paytable croupier made up as an example (not PA text, not any casino's table)."""

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

    exact: ParSheetExact

    wager_amount: str | Absent = absent()

    wager_amount_cents: int | Absent = absent()
    """Money in integer cents."""

    meters: dict[str, str] | Absent = absent()

    meters_cents: dict[str, int] | Absent = absent()

    progressive_stake: str | Absent = absent()

    increment_rate: float | Absent = absent()

    meter_analysis: MeterAnalysis | Absent = absent()

    without_the_face_up_card: WithoutTheFaceUpCard | Absent = absent()

    house_edge_per_ante: float | Absent = absent()

    house_edge_per_total_wagered: float | Absent = absent()

    average_total_wager_in_antes: float | Absent = absent()

    strategy: dict[str, float] | Absent = absent()

    paytable_sha256: Sha256
    """SHA-256 of the paytable's canonical data (croupier.paytables.paytable_digest)."""

    hit_odds: list[HitOdds] | Absent = absent()
    """Each progressive level's hit odds (N.J.A.C. 13:69D-1.52(e)(4)); absent without a progressive."""


class EorRowCount(Shape):
    """The wager's balanced count, in brief."""

    suit_aware: bool

    level: int

    betting_correlation: float

    gain_per_true_count: float

    threshold_true_count: float | None

    trigger_true_count: int | None


class EorPerfectPlay(Shape):
    """Without a count: a counter knowing every unseen card (two-card wagers)."""

    shoes: int

    rounds: int

    bets: int

    bet_frequency: float

    edge_when_betting: float | None

    win_per_shoe: float

    win_per_hour: float

    best_return: float
    """Highest exact return of the cards unseen before any round."""


class EorRow(Shape):
    """One wager's count vulnerability: the count, the counter's gain and the verdict."""

    wager: str

    wager_name: str

    section: Section
    """The section, bare: 633b.3."""

    paytable: str

    decks: int

    house_edge: float | None

    count: EorRowCount | None

    no_count: str | None

    bet_frequency: float | None

    edge_when_betting: float | None

    win_per_shoe: float | None

    win_per_hour: float | None

    win_per_hour_se: float | None
    """Standard error of win_per_hour over the simulated shoes (Blackjack and Baccarat alike); null
    when no counter was simulated."""

    win_per_hour_cents: int | None
    """Integer cents an hour at unit_cents a bet."""

    not_simulated: str | None

    perfect_play: EorPerfectPlay | None
    """Without a count: a counter knowing every unseen card (two-card wagers)."""

    verdict: str

    citation: Annotated[str, Field(pattern="^58 Pa\\. Code § ")]
    """The full citation: 58 Pa. Code § 633b.3."""

    verdict_basis: str
    """What the verdict was read from: the gain's interval (± 2 standard errors over the simulated
    shoes), or why the gain is exactly 0."""


class EorCounter(Shape):
    """The simulated counter: conditions, bets and gain."""

    conditions: str

    decks: int

    shoes: int

    rounds: int

    rounds_per_shoe: float

    penetration: float

    seats: int

    rounds_per_hour: int

    seed: int

    trigger_true_count: int

    bets: int

    bet_frequency: float

    shoes_with_a_bet: float

    edge_when_betting: float | None

    linear_edge_when_betting: float | None

    win_per_shoe: float

    win_per_shoe_se: float

    win_per_hour: float

    win_per_hour_se: float

    linear_win_per_hour: float

    flat_return: float | None

    rounds_not_counted: int


class EorRankEffect(Shape):
    """The exact effect of removing one card of a rank."""

    rank: str

    effect: float

    effect_exact: Fraction
    """Exact fraction p/q."""

    expected_return_without: float

    tag: int | None
    """Null without a count, or for a suit-aware count."""


class EorCardEffect(Shape):
    """The exact effect of removing one card (suits matter)."""

    card: str

    effect: float

    effect_exact: Fraction
    """Exact fraction p/q."""

    tag: int | None


class EorCount(Shape):
    """The wager's balanced count: its tags and the true count it bets at."""

    suit_aware: bool

    tags: dict[str, int]
    """By rank letter (A…K), or by card (Ac…Ks) for a suit-aware count."""

    level: int

    betting_correlation: float

    gain_per_true_count: float

    threshold_true_count: float | None

    trigger_true_count: int | None


class EorShoes(Shape):
    """Baccarat: the counter in simulated whole shoes."""

    decks: int

    cut_card: int

    burn: str

    coups_after_cut_card: int

    seed: int

    shoes: int

    coups: int

    trigger_true_count: int

    bets: int

    bet_frequency: float

    shoes_with_a_bet: float

    coups_evaluated_exactly: int

    average_edge_when_betting: float | None

    positive_share_when_betting: float | None

    win_per_shoe: float

    win_per_shoe_se: float
    """Standard error of win_per_shoe over the shoes: each shoe's expected win from the exact edges of
    its coups bet."""


class EorDetail(Shape):
    """A wager's count analysis (``croupier eor WAGER --json``, ``GET /eor/{wager}``)."""

    wager: str

    wager_name: str

    section: Section
    """The section, bare: 633b.3."""

    paytable: str

    decks: int

    expected_return: float

    expected_return_exact: Fraction
    """Exact fraction p/q."""

    method: str

    suits_matter: bool

    effects: Annotated[list[EorRankEffect], Field(min_length=13, max_length=13)]

    card_effects: list[EorCardEffect]

    count: EorCount | None

    no_count: str

    counter: EorCounter | None

    vulnerability: EorRow

    shoes: EorShoes | Absent = absent()
    """Baccarat: the counter in simulated whole shoes."""

    citation: Annotated[str, Field(pattern="^58 Pa\\. Code § ")]
    """The full citation: 58 Pa. Code § 633b.3."""

    verdict_rule: str
    """The rule every verdict follows, for every game (docs/interpretations.md)."""


class EorTable(Shape):
    """The count-vulnerability table (``croupier eor --json``, no wager or several)."""

    unit_cents: int

    verdict_rule: str
    """The rule every verdict follows, for every game (docs/interpretations.md)."""

    wagers: list[EorRow]


class SimulatedParSheetOutcome(Shape):
    """One outcome of a simulated par sheet: its hits and observed frequency."""

    outcome: str

    label: str

    pays: str

    net_win: Number
    """Net win per unit wagered (e.g. 0.95 for 19 to 20)."""

    hits: int

    frequency: float
    """Observed share of rounds (hits / rounds)."""

    frequency_fraction: Fraction
    """Hits / rounds as an exact fraction p/q (observed, not a probability)."""

    return_: float = Field(alias="return")


class SimulatedParSheet(Shape):
    """A simulated par sheet (``croupier simulate --json``, a simulation job's result)."""

    wager: str

    wager_name: str

    section: Section
    """The section or paragraph of 58 Pa. Code, bare: "633b.1(e)"."""

    citation: Citation
    """The section's full citation: "58 Pa. Code § 633b.1(e)"."""

    paytable: str

    paytable_citation: str

    paytable_source: str

    paytable_in_regulation: bool

    paytable_example: bool
    """A paytable croupier made up as an example (not PA text, not any casino's table)."""

    decks: int

    shoe: str

    method: str

    counting: str

    outcomes: list[SimulatedParSheetOutcome]

    rounds: int

    expected_return: float

    house_edge: float

    hit_frequency: float

    standard_deviation: float

    standard_error: float

    exact_house_edge: float

    z_score: float

    seed_entropy: Annotated[str, Field(pattern="^[0-9]+$")]
    """The entropy of the run's numpy SeedSequence (decimal digits; may exceed 2^53): --seed, or fresh
    entropy when none was given; chunk i draws from SeedSequence(entropy).spawn(n)[i]."""

    workers: Annotated[int, Field(ge=1)]
    """Dask workers of the local cluster (1: no cluster); with --scheduler, the workers the scheduler
    reported."""

    scheduler: str | None
    """The Dask scheduler address given with --scheduler, or null."""

    chunk_rounds: Annotated[int, Field(ge=1)]
    """Rounds per chunk (the last chunk may be shorter)."""

    kernel: bool
    """Whether a compiled kernel dealt the rounds (else the numpy simulator)."""

    wager_amount: str | Absent = absent()

    wager_amount_cents: int | Absent = absent()
    """Money in integer cents."""

    meters: dict[str, str] | Absent = absent()

    meters_cents: dict[str, int] | Absent = absent()

    progressive_stake: str | Absent = absent()

    increment_rate: float | Absent = absent()

    paytable_sha256: Sha256
    """SHA-256 of the paytable's canonical data (croupier.paytables.paytable_digest)."""

    hit_odds: list[HitOdds] | Absent = absent()
    """Each progressive level's hit odds (N.J.A.C. 13:69D-1.52(e)(4)); absent without a progressive."""


class GameFigures(Shape):
    """A whole game's § 633b.4 figures for one player's strategy."""

    game: str

    player: str

    tie_blackjack_pays_1_to_2: bool

    ante_per_blackjack_wager: float

    blackjack_wager_return: float

    expected_per_blackjack_wager: float

    house_edge_per_blackjack_wager: float

    house_edge_per_total_wagered: float

    switch_rate: float


class GameFigureSet(Shape):
    """A whole game's § 633b.4 figures (Switch Hands, Blackjack Premium) at one deck count."""

    section: Section
    """The section or paragraph of 58 Pa. Code, bare: "633b.1(e)"."""

    citation: Citation
    """The section's full citation: "58 Pa. Code § 633b.1(e)"."""

    decks: int

    rules: str

    figures: list[GameFigures]


class ParSheetFile(Shape):
    """``croupier parsheet --json`` (and the parsheets.json of --out)."""

    parsheets: list[ParSheet]
    """Every exact par sheet asked for, each as croupier analyze --json prints it."""

    games: list[GameFigureSet] | Absent = absent()
    """The whole-game § 633b.4 figures (Switch Hands, Blackjack Premium) per deck count."""


class JobError(Shape):
    """Why a simulation job failed."""

    error_type: str
    """The croupier error's class, or InternalError."""
    detail: str
    """The error in one line."""
    section: str | Absent | None = absent()
    """The section the error cites (null: none); absent on an internal error."""


class SimulationJob(Shape):
    """A simulation job (``POST /simulations``, ``GET /simulations/{job}``)."""

    job: str
    """The job's id."""
    status: Literal["queued", "preparing", "running", "done", "failed", "cancelled", "abandoned"]
    """Where it is: abandoned when its server stopped touching it (its process is gone)."""
    request: dict[str, Any]
    """The simulation asked for, as the service read it."""
    done: int
    """Rounds dealt so far."""
    total: int
    """Rounds to deal."""
    progress: float
    """done / total."""
    requested_by: str
    """The staff member who started it."""
    result: SimulatedParSheet | None
    """Once done: the simulated par sheet (as croupier simulate --json); null until then."""
    error: JobError | None
    """Once failed: why; null otherwise."""


__all__ = [
    "EorCardEffect",
    "EorCount",
    "EorCounter",
    "EorDetail",
    "EorPerfectPlay",
    "EorRankEffect",
    "EorRow",
    "EorRowCount",
    "EorShoes",
    "EorTable",
    "FaceUpCardPairs",
    "GameFigureSet",
    "GameFigures",
    "HitOdds",
    "HitOddsAward",
    "JobError",
    "MeterAnalysis",
    "ParSheet",
    "ParSheetExact",
    "ParSheetFile",
    "ParSheetOutcome",
    "SimulatedParSheet",
    "SimulatedParSheetOutcome",
    "SimulationJob",
    "WithoutTheFaceUpCard",
]
