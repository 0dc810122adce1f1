"""The count-vulnerability table a table-games manager reads: for each wager, whether a card
counter can beat it, by how much, and how often.

One :class:`Vulnerability` per wager × paytable × deck count: the exact effects of removal
(:func:`croupier.analysis.eor.effect_of_removal`), the balanced count built from them, the true
count where the wager turns positive, and what a counter betting one unit there wins in simulated
whole shoes — Blackjack side wagers by :func:`croupier.analysis.eor_shoes.play_shoes`, Baccarat
wagers by :func:`croupier.analysis.eor.count_in_shoes`. A wager dealt from one deck shuffled
before every round (Four Card Poker, Criss-Cross Poker) starts every round at a count of zero: a
counter has nothing to count, and wins nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from croupier.analysis.baccarat_shoe import ShoeSimulation, simulate_shoes
from croupier.analysis.eor import (
    BACCARAT_EXACT_SAMPLE,
    BalancedCount,
    CountInShoes,
    EffectOfRemoval,
    balanced_count,
    count_in_shoes,
    effect_of_removal,
)
from croupier.analysis.eor_shoes import (
    PENETRATION,
    ROUNDS_PER_HOUR,
    SEATS,
    CounterAtTable,
    PerfectPlay,
    counts_at_the_table,
    perfect_play,
    play_shoes,
)
from croupier.errors import CroupierError, NoCountError
from croupier.games.baccarat import BaccaratRules
from croupier.paytables import Paytable
from croupier.wagers.baccarat import BaccaratWager
from croupier.wagers.base import Game, Wager

RESHUFFLED_GAMES = (Game.FOUR_CARD_POKER, Game.CRISS_CROSS_POKER)
"""Games dealt from one 52-card deck shuffled before every round (docs/interpretations.md)."""

NEGLIGIBLE_PER_HOUR = 0.01
"""A counter's gain (or loss) smaller than this many units an hour is negligible."""
INTERVAL_SE = 2.0
"""Half-width of the gain's interval the verdict reads, in standard errors (about 95%)."""

VERDICT_RULE = (
    "one rule for every game: a count is judged by the gain a counter makes with it, in units an "
    "hour, betting 1 unit when the true count is at or above the trigger and nothing otherwise, "
    "at the conditions stated (Blackjack: the penetration and seats; Baccarat: the cut card); "
    f"the gain's interval is ± {INTERVAL_SE:g} standard errors over the simulated shoes (each "
    "Baccarat coup at its exact edge, each Blackjack bet as settled), and a gain that is exactly "
    "0 has none. Exactly 0: no card count tracks it, the count never turns it positive, or no "
    "count carries between rounds (every round from a freshly shuffled deck). Otherwise: "
    f"beatable by counting when the interval lies above 0 and the gain is {NEGLIGIBLE_PER_HOUR:g} "
    f"units an hour or more; a counter still loses when it lies below 0 and the loss is "
    f"{NEGLIGIBLE_PER_HOUR:g} or more; negligible either way when the gain is smaller than "
    f"{NEGLIGIBLE_PER_HOUR:g} either way and the interval lies on one side of 0 or within "
    f"± {NEGLIGIBLE_PER_HOUR:g}; no gain shown when the interval holds 0 and reaches beyond "
    f"± {NEGLIGIBLE_PER_HOUR:g}"
)
"""The verdict's rule, stated in every output that gives a verdict (docs/interpretations.md)."""


def judge(win_per_hour: float, se: float) -> str:
    """The verdict on a simulated gain of ``win_per_hour`` units an hour with standard error
    ``se`` (:data:`VERDICT_RULE`).

    >>> judge(0.5, 0.1), judge(0.5, 0.3), judge(-0.2, 0.05), judge(0.004, 0.002)
    ('beatable by counting', 'no gain shown', 'a counter still loses', 'negligible either way')
    >>> judge(0.008, 0.002)  # shown positive, but less than 0.01 units an hour
    'negligible either way'
    """
    low, high = win_per_hour - INTERVAL_SE * se, win_per_hour + INTERVAL_SE * se
    small = abs(win_per_hour) < NEGLIGIBLE_PER_HOUR
    if low > 0:
        return "negligible either way" if small else "beatable by counting"
    if high < 0:
        return "negligible either way" if small else "a counter still loses"
    if low > -NEGLIGIBLE_PER_HOUR and high < NEGLIGIBLE_PER_HOUR:
        return "negligible either way"
    return "no gain shown"


@dataclass(frozen=True)
class CounterConditions:
    """How the simulated counter plays: shoes dealt, seed, penetration (Blackjack; Baccarat uses
    its cut card), seats, rounds an hour, and the trigger (``None``: the count's own)."""

    shoes: int = 20_000
    seed: int = 1
    penetration: Fraction = PENETRATION
    seats: int = SEATS
    rounds_per_hour: int = ROUNDS_PER_HOUR
    trigger: int | None = None
    baccarat: BaccaratRules | None = None
    baccarat_sample: int = BACCARAT_EXACT_SAMPLE
    """Baccarat: coups bet whose exact edge is evaluated (a seeded sample beyond)."""
    perfect_shoes: int | None = None
    """Shoes for the perfect-information bound (``None``: ``shoes``)."""


@dataclass(frozen=True)
class Vulnerability:
    """One row of the count-vulnerability table (see the module docstring).

    Exactly one of ``count`` and ``no_count`` is set once the effects are known; ``counter``
    (Blackjack) or ``coups`` (Baccarat) holds the simulated counter when one was played;
    ``not_simulated`` says why none was."""

    wager: str
    wager_name: str
    section: str
    paytable: str
    decks: int
    eor: EffectOfRemoval | None
    count: BalancedCount | None
    no_count: str | None
    counter: CounterAtTable | None = None
    coups: CountInShoes | None = None
    coups_per_hour: int = ROUNDS_PER_HOUR
    not_simulated: str | None = None
    baccarat_rules: BaccaratRules | None = None
    coups_seed: int | None = None
    perfect: PerfectPlay | None = None
    """Without a count: what a counter knowing every unseen card would win (two-card wagers)."""

    @property
    def house_edge(self) -> float | None:
        """The full shoe's exact house edge."""
        return None if self.eor is None else float(-self.eor.expected_return)

    def _played(
        self,
        at_table: Callable[[CounterAtTable], float | None],
        in_shoes: Callable[[CountInShoes], float | None],
    ) -> float | None:
        """A figure of the simulated counter: Blackjack's (``at_table``), else Baccarat's
        (``in_shoes``), else ``None`` (none was simulated)."""
        if self.counter is not None:
            return at_table(self.counter)
        return in_shoes(self.coups) if self.coups is not None else None

    @property
    def bet_frequency(self) -> float | None:
        """Share of rounds the counter bets."""
        return self._played(lambda c: c.bet_frequency, lambda s: s.bet_frequency)

    @property
    def edge_when_betting(self) -> float | None:
        """The counter's mean return per unit bet (observed; Baccarat: exact edge of the shoes
        as they stood)."""
        return self._played(lambda c: c.edge_when_betting, lambda s: s.average_edge)

    @property
    def win_per_shoe(self) -> float | None:
        """Units the counter wins a shoe."""
        return self._played(lambda c: c.win_per_shoe, lambda s: s.win_per_shoe)

    @property
    def win_per_hour(self) -> float | None:
        """Units the counter wins an hour."""
        if self.counter is not None:
            return self.counter.win_per_hour
        if self.coups is not None and self.coups.coups:
            return (
                self.coups.win_per_shoe * self.coups.shoes / self.coups.coups * self.coups_per_hour
            )
        return None

    @property
    def win_per_hour_se(self) -> float | None:
        """Standard error of :attr:`win_per_hour` over the simulated shoes (Blackjack: of the
        bets as settled; Baccarat: of the coups bet at their exact edges)."""
        if self.counter is not None:
            return self.counter.win_per_hour_se
        if self.coups is not None and self.coups.coups:
            per_shoe = self.coups.coups / self.coups.shoes
            return self.coups.win_per_shoe_se / per_shoe * self.coups_per_hour
        return None

    @property
    def _exactly_nothing(self) -> str | None:
        """Why a counter's gain is exactly 0, when it is (none was simulated: a trigger given
        where the count never turns the wager positive is simulated and judged as any)."""
        if self.eor is None or self.counter is not None or self.coups is not None:
            return None
        if self.count is None:
            return "no card count tracks it"
        if self.count.threshold is None:
            return "the count never turns it positive"
        if self._reshuffled:
            return "no count carries between rounds"
        return None

    @property
    def verdict(self) -> str:
        """The row in a few words, by :data:`VERDICT_RULE` (one rule for every game)."""
        if self.eor is None:
            return "not computed"
        exact = self._exactly_nothing
        if exact is not None:
            return exact
        win, se = self.win_per_hour, self.win_per_hour_se
        if win is None or se is None:
            return "not simulated"
        return judge(win, se)

    @property
    def verdict_basis(self) -> str:
        """What the verdict was read from, in words."""
        if self.eor is None:
            return "no effect of removal computed"
        if self._exactly_nothing is not None:
            return "the gain is exactly 0"
        win, se = self.win_per_hour, self.win_per_hour_se
        if win is None or se is None:
            return f"no gain simulated ({self.not_simulated or 'no shoes'})"
        shoes = (
            self.counter.shoes
            if self.counter is not None
            else self.coups.shoes
            if self.coups
            else 0
        )
        low, high = win - INTERVAL_SE * se, win + INTERVAL_SE * se
        return (
            f"{win:+.3f} ± {se:.3f} units an hour over {shoes:,} simulated shoes: interval "
            f"{low:+.3f} to {high:+.3f} (± {INTERVAL_SE:g} standard errors)"
        )

    @property
    def _reshuffled(self) -> bool:
        return bool(self.not_simulated and self.not_simulated.startswith("dealt from one deck"))

    def heading(self) -> dict[str, Any]:
        """The JSON keys that name the row: wager, section, paytable and decks."""
        return {
            "wager": self.wager,
            "wager_name": self.wager_name,
            "section": self.section,
            "citation": f"58 Pa. Code § {self.section}",
            "paytable": self.paytable,
            "decks": self.decks,
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready row."""
        c = self.count
        return {
            **self.heading(),
            "house_edge": self.house_edge,
            "count": None if c is None else {"suit_aware": c.suit_aware, **count_figures(c)},
            "no_count": self.no_count,
            "bet_frequency": self.bet_frequency,
            "edge_when_betting": self.edge_when_betting,
            "win_per_shoe": self.win_per_shoe,
            "win_per_hour": self.win_per_hour,
            "win_per_hour_se": self.win_per_hour_se,
            "win_per_hour_cents": None,
            "not_simulated": self.not_simulated,
            "perfect_play": self.perfect.to_dict() if self.perfect is not None else None,
            "verdict": self.verdict,
            "verdict_basis": self.verdict_basis,
        }


def count_figures(count: BalancedCount) -> dict[str, Any]:
    """The JSON figures of a balanced count: its level, betting correlation, gain per true count,
    the true count where the wager turns positive and the one the counter bets at."""
    return {
        "level": count.level,
        "betting_correlation": count.betting_correlation,
        "gain_per_true_count": count.gain_per_true_count,
        "threshold_true_count": count.threshold,
        "trigger_true_count": count.trigger,
    }


@lru_cache(maxsize=4)
def _baccarat_shoes(shoes: int, seed: int, rules: BaccaratRules) -> ShoeSimulation:
    return simulate_shoes(shoes, seed, rules, record=True)


def default_decks(wager: Wager, paytable: str | Paytable | None = None) -> int:
    """The most decks the wager (and paytable) is offered with — a paytable printed once for each
    of several deck counts (Match the Dealer's "1" for 6 and for 8 decks) by all its printings."""
    tables = None
    if isinstance(paytable, str):
        tables = [t for t in wager.paytables() if t.key == paytable] or [wager.paytable(paytable)]
    if isinstance(paytable, Paytable):
        tables = [paytable]
    decks = [d for t in (tables or wager.paytables()) for d in t.decks]
    return max(decks) if decks else 8


def default_paytable(wager: Wager, decks: int) -> str:
    """The wager's first paytable offered with ``decks`` decks."""
    for t in wager.paytables():
        if decks in t.decks:
            return t.key
    return wager.paytables()[0].key


def vulnerability(
    wager: Wager,
    paytable: str | Paytable,
    decks: int,
    conditions: CounterConditions | None = None,
    progress: Callable[[int], None] | None = None,
) -> Vulnerability:
    """The count-vulnerability row of one wager × paytable × deck count (``conditions``: how
    the counter is simulated; ``shoes=0`` simulates none). Raises what
    :func:`~croupier.analysis.eor.effect_of_removal` raises."""
    cond = conditions or CounterConditions()
    eor = effect_of_removal(wager, paytable, decks)
    head = (wager.id, wager.name, wager.section, eor.paytable, decks, eor)
    try:
        count = balanced_count(eor)
    except NoCountError as exc:
        perfect = None
        if cond.shoes and wager.game not in RESHUFFLED_GAMES:
            perfect = perfect_play(
                wager,
                eor.paytable,
                decks,
                shoes=cond.perfect_shoes or cond.shoes,
                seed=cond.seed,
                penetration=cond.penetration,
                seats=cond.seats,
                rounds_per_hour=cond.rounds_per_hour,
            )
        return Vulnerability(*head, None, str(exc), perfect=perfect)
    row = Vulnerability(*head, count, None)
    level = cond.trigger if cond.trigger is not None else count.trigger
    if level is None:
        return row
    if wager.game in RESHUFFLED_GAMES:
        return _with(
            row,
            not_simulated="dealt from one deck shuffled before every round: every round starts "
            "at a count of 0, below the trigger",
        )
    if not cond.shoes:
        return _with(row, not_simulated="no shoes simulated (--shoes 0)")
    if isinstance(wager, BaccaratWager):
        rules = cond.baccarat or BaccaratRules(decks=decks)
        if rules.decks != decks:
            rules = BaccaratRules(decks=decks, cut_card=rules.cut_card, burn=rules.burn)
        sim = _baccarat_shoes(cond.shoes, cond.seed, rules)
        coups = count_in_shoes(
            wager, eor.paytable, count, sim, trigger=level, sample=cond.baccarat_sample
        )
        return _with(
            row,
            coups=coups,
            coups_per_hour=cond.rounds_per_hour,
            baccarat_rules=rules,
            coups_seed=cond.seed,
        )
    if not counts_at_the_table(wager):
        return _with(row, not_simulated=f"croupier does not deal whole shoes for {wager.id}")
    counter = play_shoes(
        wager,
        eor.paytable,
        decks,
        count,
        eor.expected_return,
        trigger=level,
        shoes=cond.shoes,
        seed=cond.seed,
        penetration=cond.penetration,
        seats=cond.seats,
        rounds_per_hour=cond.rounds_per_hour,
        progress=progress,
    )
    return _with(row, counter=counter)


def _with(row: Vulnerability, **changes: Any) -> Vulnerability:
    from dataclasses import replace

    return replace(row, **changes)


def table_rows(
    wagers: list[Wager],
    decks: int | None,
    conditions: CounterConditions | None = None,
) -> list[Vulnerability]:
    """One row per wager (its first paytable for the deck count; ``decks`` ``None``: the most
    decks it is offered with); a wager croupier cannot analyse this way gets a row saying why."""
    rows = []
    for w in wagers:
        d = decks if decks is not None else default_decks(w)
        key = default_paytable(w, d)
        try:
            rows.append(vulnerability(w, key, d, conditions))
        except CroupierError as exc:
            rows.append(Vulnerability(w.id, w.name, w.section, key, d, None, None, str(exc)))
    return rows
