"""A wager's count analysis as croupier writes it: the effect of removal, the balanced count and
the simulated counter (``croupier eor WAGER --json``, ``GET /eor/{wager}``), and the
count-vulnerability table of every wager (``croupier eor --json``).

Units: a return, an edge or an effect is *per unit wagered* — a fraction of the initial wager
(``-0.0106`` is 1.06% of the wager lost); a counter's win is in *units*, one unit being the
counter's bet; a frequency or share is a fraction from 0 to 1; an exact figure is a fraction
``p/q`` beside its decimal; money is integer cents (US$ 0.01). A *true count* is the running
count (the tags of the cards seen) divided by the decks still unseen.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from croupier.operations.schemas import Shape
from croupier.operations.schemas.values import Absent, Fraction, Section, absent


class EorRowCount(Shape):
    """The wager's balanced count, in brief."""

    suit_aware: bool
    """Whether the count tags cards (52 tags: suits tagged apart), not ranks."""

    level: int
    """The largest tag the count uses (1 to 4)."""

    betting_correlation: float
    """The correlation (-1 to 1) of the tags with the effects of removal: how well the count
    tracks the wager."""

    gain_per_true_count: float
    """How much the expected return rises (per unit wagered) for each point of true count, by
    the linear estimate."""

    threshold_true_count: float | None
    """The true count at which the wager turns positive; null when the count's correlation with
    the wager is not positive (it never does)."""

    trigger_true_count: int | None
    """The whole true count a counter bets at: the threshold rounded up; null with it."""


class EorPerfectPlay(Shape):
    """Without a count: a counter knowing every unseen card (two-card wagers)."""

    shoes: int
    """Shoes simulated."""

    rounds: int
    """Rounds dealt in them."""

    bets: int
    """Rounds bet: those whose exact expected return, from the cards unseen, was positive."""

    bet_frequency: float
    """bets / rounds, from 0 to 1."""

    edge_when_betting: float | None
    """The mean exact expected return of the rounds bet, per unit wagered; null without a bet."""

    win_per_shoe: float
    """Units expected to be won a shoe."""

    win_per_hour: float
    """Units expected to be won an hour, at the counter's rounds an hour."""

    best_return: float
    """Highest exact return of the cards unseen before any round."""


class EorRow(Shape):
    """One wager's count vulnerability: the count, the counter's gain and the verdict."""

    wager: str
    """The wager's id."""

    wager_name: str
    """The wager's name."""

    section: Section
    """The section, bare: 633b.3."""

    paytable: str
    """The paytable's id."""

    decks: int
    """The decks in the shoe."""

    house_edge: float | None
    """The full shoe's house edge per unit wagered; null when the effects of removal were not
    computed."""

    count: EorRowCount | None
    """The wager's balanced count; null when no count tracks it."""

    no_count: str | None
    """Why no count is given; null when one is."""

    bet_frequency: float | None
    """The share of rounds (coups) the counter bets, from 0 to 1; null when no counter was
    simulated."""

    edge_when_betting: float | None
    """The counter's mean return per unit bet (observed; Baccarat: the exact edge of the shoes as
    they stood); null when it never bet or none was simulated."""

    win_per_shoe: float | None
    """Units the counter wins a shoe; null when no counter was simulated."""

    win_per_hour: float | None
    """Units the counter wins an hour; null when no counter was simulated."""

    win_per_hour_se: float | None
    """Standard error of win_per_hour over the simulated shoes (Blackjack and Baccarat alike); null
    when no counter was simulated."""

    win_per_hour_cents: int | None
    """Integer cents an hour at unit_cents a bet."""

    not_simulated: str | None
    """Why no counter was simulated; null when one was."""

    perfect_play: EorPerfectPlay | None
    """Without a count: a counter knowing every unseen card (two-card wagers)."""

    verdict: str
    """The row in a few words, by the verdict rule ("beatable by counting", "negligible either
    way", …)."""

    citation: Annotated[str, Field(pattern="^58 Pa\\. Code § ")]
    """The full citation: 58 Pa. Code § 633b.3."""

    verdict_basis: str
    """What the verdict was read from: the gain's interval (± 2 standard errors over the simulated
    shoes), or why the gain is exactly 0."""


class EorCounter(Shape):
    """The simulated counter: conditions, bets and gain (Blackjack side wagers)."""

    conditions: str
    """The simulated conditions in words."""

    decks: int
    """The decks in the shoe."""

    shoes: int
    """Shoes simulated."""

    rounds: int
    """Rounds dealt in them."""

    rounds_per_shoe: float
    """rounds / shoes."""

    penetration: float
    """The share of the shoe (0 to 1) dealt before the cut card."""

    seats: int
    """Seats playing (hit/stand basic strategy)."""

    rounds_per_hour: int
    """Rounds dealt an hour."""

    seed: int
    """The random generator's seed."""

    trigger_true_count: int
    """The counter bets one unit at this true count or more, nothing otherwise."""

    bets: int
    """Rounds bet."""

    bet_frequency: float
    """bets / rounds, from 0 to 1."""

    shoes_with_a_bet: float
    """The share of shoes (0 to 1) with at least one bet."""

    edge_when_betting: float | None
    """The observed mean return of the bets, per unit bet; null without a bet."""

    linear_edge_when_betting: float | None
    """The mean return of the same bets by the linear estimate (full-shoe return + gain per
    true-count point × true count); null without a bet."""

    win_per_shoe: float
    """Units won a shoe (observed)."""

    win_per_shoe_se: float
    """Standard error of win_per_shoe."""

    win_per_hour: float
    """Units won an hour, at rounds_per_hour."""

    win_per_hour_se: float
    """Standard error of win_per_hour."""

    linear_win_per_hour: float
    """Units an hour by the linear estimate."""

    flat_return: float | None
    """The observed mean return of the wager over every round, per unit wagered (a check
    against the exact figure); null when only the rounds bet were settled."""

    rounds_not_counted: int
    """Rounds left out because the shoe ran out of cards in them."""


class EorRankEffect(Shape):
    """The exact effect of removing one card of a rank."""

    rank: str
    """The rank's letter: A, 2, …, 9, T, J, Q, K."""

    effect: float
    """The change in the expected return (per unit wagered) when one card of the rank is taken
    out of the full shoe, averaged over its four suits."""

    effect_exact: Fraction
    """Exact fraction p/q."""

    expected_return_without: float
    """The expected return per unit wagered of the shoe less that card."""

    tag: int | None
    """Null without a count, or for a suit-aware count."""


class EorCardEffect(Shape):
    """The exact effect of removing one card (suits matter)."""

    card: str
    """The card: rank then suit ("Ac", "Td")."""

    effect: float
    """The change in the expected return (per unit wagered) when this card is taken out of the
    full shoe."""

    effect_exact: Fraction
    """Exact fraction p/q."""

    tag: int | None
    """The card's tag in the count; null without a count."""


class EorCount(Shape):
    """The wager's balanced count: its tags and the true count it bets at."""

    suit_aware: bool
    """Whether the count tags cards (52 tags: suits tagged apart), not ranks."""

    tags: dict[str, int]
    """By rank letter (A…K), or by card (Ac…Ks) for a suit-aware count."""

    level: int
    """The largest tag the count uses (1 to 4)."""

    betting_correlation: float
    """The correlation (-1 to 1) of the tags with the effects of removal: how well the count
    tracks the wager."""

    gain_per_true_count: float
    """How much the expected return rises (per unit wagered) for each point of true count, by
    the linear estimate."""

    threshold_true_count: float | None
    """The true count at which the wager turns positive; null when it never does."""

    trigger_true_count: int | None
    """The whole true count a counter bets at: the threshold rounded up; null with it."""


class EorShoes(Shape):
    """Baccarat: the counter in simulated whole shoes."""

    decks: int
    """The decks in the shoe."""

    cut_card: int
    """Cards behind the cut card."""

    burn: Literal["first-card", "none"]
    """How cards are burned at the start of the shoe: "first-card" (the first card turned up
    and as many burned as its value) or "none"."""

    coups_after_cut_card: int
    """Coups dealt after the coup in which the cut card comes out."""

    seed: int
    """The random generator's seed."""

    shoes: int
    """Shoes simulated."""

    coups: int
    """Coups dealt in them."""

    trigger_true_count: int
    """The counter bets one unit at this true count or more, nothing otherwise."""

    bets: int
    """Coups bet."""

    bet_frequency: float
    """bets / coups, from 0 to 1."""

    shoes_with_a_bet: float
    """The share of shoes (0 to 1) with at least one bet."""

    coups_evaluated_exactly: int
    """The coups bet whose exact edge was computed (all, or a seeded sample)."""

    average_edge_when_betting: float | None
    """The mean exact expected return (per unit bet) of the shoe as it stood at the coups bet;
    null without a bet."""

    positive_share_when_betting: float | None
    """The share (0 to 1) of the coups bet whose exact expected return was positive; null
    without a bet."""

    win_per_shoe: float
    """Units expected to be won a shoe: average_edge_when_betting × bets / shoes."""

    win_per_shoe_se: float
    """Standard error of win_per_shoe over the shoes: each shoe's expected win from the exact edges of
    its coups bet."""


class EorDetail(Shape):
    """A wager's count analysis (``croupier eor WAGER --json``, ``GET /eor/{wager}``)."""

    wager: str
    """The wager's id."""

    wager_name: str
    """The wager's name."""

    section: Section
    """The section, bare: 633b.3."""

    paytable: str
    """The paytable's id."""

    decks: int
    """The decks in the shoe."""

    expected_return: float
    """The full shoe's expected return per unit wagered."""

    expected_return_exact: Fraction
    """Exact fraction p/q."""

    method: str
    """How the exact counts were made, in words."""

    suits_matter: bool
    """Whether some rank's four suits have different effects of removal."""

    effects: Annotated[list[EorRankEffect], Field(min_length=13, max_length=13)]
    """Each rank's effect of removal, A to K."""

    card_effects: list[EorCardEffect]
    """Each card's effect of removal (the 52 cards; empty when only the ranks' are known)."""

    count: EorCount | None
    """The wager's balanced count; null when no count tracks it."""

    no_count: str
    """Why no count is given; empty when one is."""

    counter: EorCounter | None
    """The counter simulated at a Blackjack table; null when none was."""

    vulnerability: EorRow
    """The wager's row of the count-vulnerability table."""

    shoes: EorShoes | Absent = absent()
    """Baccarat: the counter in simulated whole shoes."""

    citation: Annotated[str, Field(pattern="^58 Pa\\. Code § ")]
    """The full citation: 58 Pa. Code § 633b.3."""

    verdict_rule: str
    """The rule every verdict follows, for every game (docs/interpretations.md)."""


class EorTable(Shape):
    """The count-vulnerability table (``croupier eor --json``, no wager or several)."""

    unit_cents: int
    """The counter's bet (one unit), in integer cents."""

    verdict_rule: str
    """The rule every verdict follows, for every game (docs/interpretations.md)."""

    wagers: list[EorRow]
    """One row per wager."""


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
]
