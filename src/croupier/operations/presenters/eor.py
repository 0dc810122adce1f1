"""Effects of removal, the balanced count and a simulated counter's gain in words and as JSON: what
``croupier eor`` prints and ``GET /eor/{wager}`` answers; and the counter's bet and conditions both
read from their options (``--unit``, ``?unit=``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from croupier.analysis.eor import CARD_ORDER, RANK_ORDER, BalancedCount, EffectOfRemoval
from croupier.analysis.eor_table import (
    VERDICT_RULE,
    CounterConditions,
    Vulnerability,
    count_figures,
)
from croupier.errors import InputError
from croupier.games.baccarat import BaccaratRules, BurnRule
from croupier.operations.presenters.arguments import money
from croupier.units import format_money


def tag_text(tag: int) -> str:
    """A count's tag as shown: ``+1``, ``-2``, ``0``."""
    return f"{tag:+d}" if tag else "0"


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def describe_count(count: BalancedCount) -> str:
    """The count in words: tags, level, correlation, gain and threshold."""
    if count.suit_aware:
        tags = "  ".join(f"{c.symbol} {tag_text(count.card_tag(c))}" for c in CARD_ORDER)
        kind = "suit-aware balanced count"
    else:
        tags = "  ".join(f"{r.letter} {tag_text(count.tag(r))}" for r in RANK_ORDER)
        kind = "balanced count"
    text = (
        f"{kind} (level {count.level}): {tags}\n"
        f"betting correlation {count.betting_correlation:.3f}; each true-count point moves the "
        f"expected return by {count.gain_per_true_count:+.4%}"
    )
    if count.threshold is None:
        return text + "; the count never turns the wager positive"
    return (
        text + f"; the wager turns positive at true count {count.threshold:+.2f} "
        f"(a counter bets at {count.trigger:+d} or more)"
    )


def describe_counter(row: Vulnerability, unit_cents: int) -> str:
    """The simulated counter in words."""
    unit = format_money(unit_cents)
    if row.counter is not None:
        c = row.counter
        if not c.bets:
            return c.conditions() + f": no round reached true count {c.trigger:+d}"
        return (
            c.conditions() + f": bets on {c.bet_frequency:.2%} of {c.rounds:,} rounds, in "
            f"{c.shoes_with_a_bet / c.shoes:.1%} of shoes; observed return on those bets "
            f"{c.edge_when_betting or 0:+.3%} (linear estimate {c.linear_edge_when_betting or 0:+.3%}); "
            f"{c.win_per_shoe:+.3f} ± {c.win_per_shoe_se:.3f} units a shoe, "
            f"{c.win_per_hour:+.3f} ± {c.win_per_hour_se:.3f} units an hour "
            f"({money_per_hour(c.win_per_hour, unit_cents)} an hour at {unit} a bet)"
        )
    if row.coups is not None:
        r = row.coups
        if not r.bets:
            return (
                f"{r.shoes:,} simulated Baccarat shoes: no coup reached true count {r.trigger:+d}"
            )
        return (
            f"{r.shoes:,} simulated Baccarat shoes: {r.bet_frequency:.2%} of {r.coups:,} coups at "
            f"true count {r.trigger:+d} or more, in {r.shoes_with_a_bet:.1%} of shoes; exact edge "
            f"on those coups {r.average_edge or 0:+.3%} ({r.positive_share or 0:.1%} of them "
            f"positive; {r.evaluated:,} evaluated); {r.win_per_shoe:+.3f} ± "
            f"{r.win_per_shoe_se:.3f} units a shoe, {row.win_per_hour or 0:+.3f} ± "
            f"{row.win_per_hour_se or 0:.3f} units an hour at {row.coups_per_hour} coups an hour "
            f"({money_per_hour(row.win_per_hour or 0, unit_cents)} an hour at {unit} a bet)"
        )
    if row.perfect is not None:
        return describe_perfect(row, unit_cents)
    return f"no simulated counter: {row.not_simulated}" if row.not_simulated else ""


def describe_perfect(row: Vulnerability, unit_cents: int) -> str:
    """The perfect-information bound in words."""
    p = row.perfect
    assert p is not None
    edge = p.edge_when_betting
    return (
        f"no count, but a computer knowing every unseen card ({p.shoes:,} simulated shoes, the "
        f"same table) would bet {p.bet_frequency:.2%} of {p.rounds:,} rounds"
        + (f" at an exact {edge:+.3%}" if edge is not None else "")
        + f": {p.win_per_shoe:+.4f} units a shoe, {p.win_per_hour:+.4f} units an hour "
        f"({money_per_hour(p.win_per_hour, unit_cents)} an hour at {format_money(unit_cents)} "
        "a bet) — the most any count could win; the best exact return before a round was "
        f"{p.best:+.3%} ({p.bets:,} rounds above 0)"
    )


def money_per_hour(units: float, unit_cents: int) -> str:
    """``units`` an hour at ``unit_cents`` a unit, in dollars."""
    return format_money(round(units * unit_cents))


def _effects_dict(eor: EffectOfRemoval, count: BalancedCount | None) -> dict[str, Any]:
    suit_aware = count is not None and count.suit_aware
    return {
        "expected_return": float(eor.expected_return),
        "expected_return_exact": _frac(eor.expected_return),
        "method": eor.method,
        "suits_matter": eor.suits_matter,
        "effects": [
            {
                "rank": r.rank.letter,
                "effect": float(r.effect),
                "effect_exact": _frac(r.effect),
                "expected_return_without": float(r.expected_return),
                "tag": None if count is None or suit_aware else count.tag(r.rank),
            }
            for r in eor.effects
        ],
        "card_effects": [
            {
                "card": str(c.card),
                "effect": float(c.effect),
                "effect_exact": _frac(c.effect),
                "tag": None if count is None else count.card_tag(c.card),
            }
            for c in eor.card_effects
        ],
    }


def row_dict(row: Vulnerability, unit_cents: int) -> dict[str, Any]:
    """One wager's vulnerability row as JSON (``croupier eor --json``), money at ``unit_cents`` a
    unit."""
    hour = row.win_per_hour
    return row.to_dict() | {
        "win_per_hour_cents": None if hour is None else round(hour * unit_cents)
    }


def detail_dict(row: Vulnerability, unit_cents: int) -> dict[str, Any]:
    """The JSON of ``croupier eor WAGER --json`` (docs/schemas/eor.schema.json) for one row
    whose effects of removal are known; ``unit_cents``: the counter's bet, for the hourly
    figure in cents."""
    assert row.eor is not None
    c = row.count
    d: dict[str, Any] = {
        **row.heading(),
        **_effects_dict(row.eor, c),
        "count": None
        if c is None
        else {
            "suit_aware": c.suit_aware,
            "tags": {str(card): c.card_tag(card) for card in CARD_ORDER}
            if c.suit_aware
            else {r.letter: c.tag(r) for r in RANK_ORDER},
            **count_figures(c),
        },
        "no_count": row.no_count or "",
        "counter": row.counter.to_dict() if row.counter is not None else None,
        "vulnerability": row_dict(row, unit_cents),
        "verdict_rule": VERDICT_RULE,
    }
    if row.coups is not None and row.baccarat_rules is not None:
        r = row.baccarat_rules
        d["shoes"] = {
            "decks": r.decks,
            "cut_card": r.cut_card,
            "burn": r.burn.value,
            "coups_after_cut_card": r.coups_after_cut_card,
            "seed": row.coups_seed,
            **row.coups.to_dict(),
        }
    return d


def unit_of(unit: str, option: str = "--unit") -> int:
    """The counter's bet in cents from dollars (``"25"``); :class:`InputError` unless positive,
    naming ``option`` (the service passes its query parameter's name)."""
    unit_cents = money(unit, option)
    if unit_cents is None or unit_cents <= 0:
        raise InputError(f"{option} is a positive number of dollars, not {unit!r}")
    return unit_cents


def counter_conditions(
    shoes: int,
    seed: int,
    penetration: float,
    seats: int,
    rounds_per_hour: int,
    trigger: int | None = None,
    decks: int | None = None,
    cut_card: int = 14,
    burn: BurnRule = BurnRule.FIRST_CARD,
) -> CounterConditions:
    """How the simulated counter plays, from the options of ``croupier eor`` (the service's
    ``GET /eor/{wager}`` takes the same); :class:`InputError` for a penetration outside (0, 1)."""
    if not 0 < penetration < 1:
        raise InputError(f"--penetration is a share above 0 and below 1, not {penetration}")
    return CounterConditions(
        shoes=shoes,
        seed=seed,
        penetration=Fraction(penetration).limit_denominator(1000),
        seats=seats,
        rounds_per_hour=rounds_per_hour,
        trigger=trigger,
        baccarat=BaccaratRules(decks=decks or 8, cut_card=cut_card, burn=burn),
    )


__all__ = [
    "counter_conditions",
    "describe_count",
    "describe_counter",
    "describe_perfect",
    "detail_dict",
    "money_per_hour",
    "row_dict",
    "tag_text",
    "unit_of",
]
