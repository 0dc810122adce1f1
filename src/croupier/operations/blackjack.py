"""Blackjack's house edge by rule set as every interface shows it: the rules from plain values
(the CLI's options, the service's query), the strategy by name, and the JSON documents of
``croupier strategy blackjack --json`` (:class:`~croupier.operations.schemas.strategy.
BlackjackStrategy`), ``GET /blackjack/house-edge`` (``BlackjackHouseEdge``) and ``GET
/blackjack/effects`` (``BlackjackEffects``), all read off
:mod:`croupier.analysis.blackjack_exact` (58 Pa. Code §§ 633a.7–633a.11; issue 32).

Every figure is a fraction of the initial wager, every round from a full shoe (no cut card).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from croupier.analysis.blackjack_effects import (
    BLACKJACK_PAYS,
    Progress,
    RuleEffects,
    house_edge,
    odds_text,
    rule_effects,
)
from croupier.analysis.blackjack_exact import Strategy
from croupier.errors import InputError, RulesError
from croupier.games.blackjack_rules import DoubleOn, PlayRules

__all__ = [
    "DEFAULT_STRATEGY",
    "SECTIONS",
    "effects_document",
    "effects_rows",
    "house_edge_document",
    "play_rules",
    "rule_set_dict",
    "strategy_of",
]

DEFAULT_STRATEGY = Strategy.BASIC
"""The strategy a house edge assumes when none is named: total-dependent basic strategy, what a
player at the table plays from a chart (the chart ``croupier strategy blackjack`` prints) and the
figure the published tables lead with (Hoppe's default); the composition-dependent figure, a few
thousandths of a point lower, is the best any player without counting can do
(docs/interpretations.md)."""

SECTIONS = ["58 Pa. Code § 633a.9", "§ 633a.10", "§ 633a.11"]
"""The sections whose rules the player's decisions depend on."""

MAX_DECKS = 8
"""The most decks the analysis takes (the published tables go to 8)."""


def strategy_of(text: str | None) -> Strategy:
    """The strategy named ``basic`` or ``composition`` (``None``: :data:`DEFAULT_STRATEGY`);
    :class:`InputError` for another name."""
    if text is None:
        return DEFAULT_STRATEGY
    name = text.strip().lower()
    for s in Strategy:
        if s.value == name:
            return s
    raise InputError(f"no strategy {text!r}: basic or composition")


def play_rules(
    decks: int = 6,
    h17: bool = False,
    das: bool = True,
    split_hands: int = 4,
    resplit_aces: bool = False,
    hit_split_aces: bool = False,
    surrender: bool = False,
    *,
    peek: bool = True,
    blackjack_pays: str = "3:2",
    double: str = "any",
) -> PlayRules:
    """The rule set from plain values (the CLI's options, the service's query); one
    :class:`InputError` naming the value refused (decks outside 1–8, fewer than one hand by
    splitting, a Blackjack pay other than 3:2, 6:5 or 1:1, a doubling rule other than any, 9-11
    or 10-11), or :class:`RulesError` for re-split aces with fewer than three hands
    (§ 633a.11)."""
    if not 1 <= decks <= MAX_DECKS:
        raise InputError(f"decks must be 1 to {MAX_DECKS}, not {decks}")
    if split_hands < 1:
        raise InputError(f"split hands must be 1 (no splitting) or more, not {split_hands}")
    if resplit_aces and split_hands < 3:
        raise RulesError(
            f"re-splitting aces needs split hands of 3 or more, not {split_hands}",
            section="633a.11",
        )
    pays = BLACKJACK_PAYS.get(blackjack_pays.strip().replace(" to ", ":"))
    if pays is None:
        raise InputError(f"a Blackjack pays {', '.join(BLACKJACK_PAYS)}, not {blackjack_pays!r}")
    doubles = {d.value: d for d in DoubleOn}
    double_on = doubles.get(double.strip().lower())
    if double_on is None:
        raise InputError(f"doubling is on {', '.join(doubles)}, not {double!r}")
    return PlayRules.of(
        decks,
        h17,
        das,
        split_hands,
        resplit_aces,
        hit_split_aces,
        surrender,
        peek=peek,
        blackjack_pays=pays,
        double_on=double_on,
    )


def rule_set_dict(rules: PlayRules) -> dict[str, Any]:
    """The rules as the JSON's ``rule_set`` (``BlackjackRuleSet``)."""
    t = rules.table
    return {
        "decks": t.decks,
        "dealer": "H17" if t.hits_soft_17 else "S17",
        "double_after_split": rules.double_after_split,
        "split_hands": rules.split_hands,
        "resplit_aces": rules.resplit_aces,
        "hit_split_aces": rules.hit_split_aces,
        "late_surrender": rules.late_surrender,
        "peek": t.peek,
        "blackjack_pays": odds_text(t.blackjack_pays),
        "double_on": rules.double_on.value,
    }


def house_edge_document(rules: PlayRules, strategy: Strategy) -> dict[str, Any]:
    """``GET /blackjack/house-edge``'s answer (``BlackjackHouseEdge``), the head of
    ``croupier strategy blackjack --json``. Seconds for a rule set not asked before
    (:func:`~croupier.analysis.blackjack_effects.house_edge` remembers)."""
    value = house_edge(rules, strategy)
    return {
        "game": "blackjack",
        "rules": rules.describe(),
        "rule_set": rule_set_dict(rules),
        "strategy": strategy.value,
        "strategy_description": strategy.describe(),
        "house_edge": value.house_edge,
    }


def effects_rows(effects: RuleEffects) -> list[dict[str, Any]]:
    """The effects table as JSON rows (``RuleEffectRow``)."""
    return [
        {
            "key": e.variation.key,
            "rule": e.variation.rule,
            "label": e.variation.label,
            "rules": e.variation.rules.describe(),
            "house_edge": e.house_edge,
            "change": e.change,
        }
        for e in effects.effects
    ]


def effects_document(
    rules: PlayRules,
    strategy: Strategy,
    only: Iterable[str] | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """``GET /blackjack/effects``'s answer (``BlackjackEffects``): the base's house edge and
    each one-rule variation's (``only``: those variation keys)."""
    effects = rule_effects(rules, strategy, only=only, progress=progress)
    return {
        **house_edge_document(rules, strategy),
        "effects": effects_rows(effects),
    }
