"""The effect of each Blackjack rule on the house edge: for a base rule set, each variation's
house edge and its change from the base (the table every house-edge calculator shows), read off
:func:`croupier.analysis.blackjack_exact.rule_set_value` (58 Pa. Code §§ 633a.7–633a.11; issue 32).

A *variation* changes one rule of the base and keeps the others: the deck count (1, 2, 4, 6, 8),
the dealer on soft 17, double after split, the most hands by splitting (2, 3, 4), re-splitting
aces, hitting split aces, late surrender, what a Blackjack pays (3 to 2, 6 to 5, 1 to 1), the
hole-card peek, and which two cards may be doubled (any, 9–11, 10–11). A variation equal to the
base is not listed; re-splitting aces is listed only where the base allows three hands or more,
and the split-ace rules only where it allows splitting.

Each figure is the engine's: every round from a full shoe (no cut card), as a fraction of the
initial wager; a *change* is the variation's house edge less the base's (positive: the rule
costs the player). The engine's figures are floats (its module docstring says why), so are these.

Rule sets take seconds each (:func:`house_edge` keeps the last :data:`CACHE_SIZE` answers, so a
page or a service asked again answers at once); :func:`rule_effects` reports progress.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from fractions import Fraction

from croupier.analysis.blackjack_exact import RuleSetValue, Strategy, rule_set_value
from croupier.errors import InputError
from croupier.games.blackjack import BlackjackRules, SoftSeventeen
from croupier.games.blackjack_rules import DoubleOn, PlayRules

__all__ = [
    "BLACKJACK_PAYS",
    "CACHE_SIZE",
    "DECK_COUNTS",
    "RuleEffect",
    "RuleEffects",
    "Variation",
    "house_edge",
    "odds_text",
    "rule_effects",
    "variations",
]

DECK_COUNTS = (1, 2, 4, 6, 8)
"""The deck counts the effects table compares (those the published tables print)."""

BLACKJACK_PAYS: dict[str, Fraction] = {
    "3:2": Fraction(3, 2),
    "6:5": Fraction(6, 5),
    "1:1": Fraction(1),
}
"""What a player Blackjack may pay, by the text the CLI and the service take."""

CACHE_SIZE = 256
"""The most rule-set answers :func:`house_edge` keeps (least recently used dropped first)."""

_CACHE: OrderedDict[tuple[PlayRules, Strategy], RuleSetValue] = OrderedDict()
_LOCK = threading.Lock()
"""One rule set computed at a time: the engine's own caches are shared, and two computations
would only share the cores."""


def house_edge(rules: PlayRules, strategy: Strategy) -> RuleSetValue:
    """:func:`~croupier.analysis.blackjack_exact.rule_set_value`, remembered: the last
    :data:`CACHE_SIZE` rule sets × strategies answer without computing. Thread-safe (a service's
    threads wait for one another's computation, not for a cached answer)."""
    key = (rules, strategy)
    got = _CACHE.get(key)
    if got is not None:
        return got
    with _LOCK:
        got = _CACHE.get(key)
        if got is None:
            got = rule_set_value(rules, strategy)
            _CACHE[key] = got
            while len(_CACHE) > CACHE_SIZE:
                _CACHE.popitem(last=False)
        else:
            _CACHE.move_to_end(key)
        return got


def odds_text(pays: Fraction) -> str:
    """``'3:2'``, ``'6:5'``, ``'1:1'``: what a Blackjack pays, as the options take it."""
    p = Fraction(pays)
    return f"{p.numerator}:{p.denominator}"


@dataclass(frozen=True)
class Variation:
    """One rule of a base rule set changed: ``key`` a stable name (``"h17"``, ``"decks-8"``,
    ``"pays-6:5"`` …), ``rule`` the rule it changes (``"decks"``, ``"soft 17"`` …), ``label`` what
    it is for people (``"dealer hits soft 17"``), ``rules`` the whole changed rule set."""

    key: str
    rule: str
    label: str
    rules: PlayRules


def _table(base: PlayRules, table: BlackjackRules) -> PlayRules:
    return replace(base, table=table)


def variations(base: PlayRules) -> list[Variation]:
    """Every one-rule variation of ``base`` (see the module docstring), in the order the table
    lists them."""
    t = base.table
    out: list[Variation] = []
    for decks in DECK_COUNTS:
        if decks != t.decks:
            label = f"{decks} deck{'s' if decks > 1 else ''}"
            out.append(
                Variation(f"decks-{decks}", "decks", label, _table(base, replace(t, decks=decks)))
            )
    if t.hits_soft_17:
        stands = _table(base, replace(t, soft_17=SoftSeventeen.STANDS))
        out.append(Variation("s17", "soft 17", "dealer stands on soft 17", stands))
    else:
        hits = _table(base, replace(t, soft_17=SoftSeventeen.HITS))
        out.append(Variation("h17", "soft 17", "dealer hits soft 17", hits))
    das = not base.double_after_split
    out.append(
        Variation(
            "das" if das else "no-das",
            "double after split",
            "double after split" if das else "no double after split",
            replace(base, double_after_split=das),
        )
    )
    for hands in (2, 3, 4):
        if hands != base.split_hands:
            rules = replace(base, split_hands=hands, resplit_aces=base.resplit_aces and hands >= 3)
            out.append(Variation(f"split-{hands}", "splitting", f"split to {hands} hands", rules))
    if base.split_hands >= 3:
        rsa = not base.resplit_aces
        out.append(
            Variation(
                "resplit-aces" if rsa else "no-resplit-aces",
                "re-split aces",
                "re-split aces" if rsa else "aces split once",
                replace(base, resplit_aces=rsa),
            )
        )
    if base.split_hands >= 2:
        hsa = not base.hit_split_aces
        out.append(
            Variation(
                "hit-split-aces" if hsa else "no-hit-split-aces",
                "hit split aces",
                "hit split aces" if hsa else "split aces take one card",
                replace(base, hit_split_aces=hsa),
            )
        )
    ls = not base.late_surrender
    out.append(
        Variation(
            "surrender" if ls else "no-surrender",
            "surrender",
            "late surrender" if ls else "no surrender",
            replace(base, late_surrender=ls),
        )
    )
    for text, pays in BLACKJACK_PAYS.items():
        if pays != Fraction(t.blackjack_pays):
            out.append(
                Variation(
                    f"pays-{text}",
                    "Blackjack pays",
                    f"Blackjack pays {pays.numerator} to {pays.denominator}",
                    _table(base, replace(t, blackjack_pays=pays)),
                )
            )
    peek = not t.peek
    out.append(
        Variation(
            "peek" if peek else "no-peek",
            "peek",
            "hole-card peek" if peek else "no hole-card peek (a dealer Blackjack takes all)",
            _table(base, replace(t, peek=peek)),
        )
    )
    for double in DoubleOn:
        if double is not base.double_on:
            out.append(
                Variation(
                    f"double-{double.value}",
                    "doubling",
                    double.describe() + ("" if double is DoubleOn.ANY else " only"),
                    replace(base, double_on=double),
                )
            )
    return out


@dataclass(frozen=True)
class RuleEffect:
    """One variation's house edge and its change from the base's (fractions of the initial
    wager; ``change`` positive when the variation is worse for the player)."""

    variation: Variation
    house_edge: float
    change: float


@dataclass(frozen=True)
class RuleEffects:
    """The effects table of a base rule set under one strategy."""

    base: RuleSetValue
    strategy: Strategy
    effects: tuple[RuleEffect, ...]


Progress = Callable[[int, int, str], None]
"""``progress(done, total, what)``: called before each rule set is valued and once at the end."""


def rule_effects(
    base: PlayRules,
    strategy: Strategy = Strategy.BASIC,
    *,
    only: Iterable[str] | None = None,
    progress: Progress | None = None,
) -> RuleEffects:
    """The house edge of ``base`` and of each of its :func:`variations` under ``strategy``, each
    with its change from the base; ``only`` keeps the variations of those keys (an unknown key is
    a :class:`~croupier.errors.InputError` naming the known ones). Seconds per rule set: the
    base and each variation are valued by :func:`house_edge` (remembered)."""
    found = variations(base)
    if only is not None:
        wanted = list(dict.fromkeys(only))
        keys = {v.key for v in found}
        unknown = [k for k in wanted if k not in keys]
        if unknown:
            raise InputError(
                f"no variation {', '.join(map(repr, unknown))} of these rules "
                f"(variations: {', '.join(sorted(keys))})"
            )
        found = [v for v in found if v.key in wanted]
    total = len(found) + 1
    if progress is not None:
        progress(0, total, base.describe())
    value = house_edge(base, strategy)
    effects = []
    for i, v in enumerate(found, start=1):
        if progress is not None:
            progress(i, total, v.label)
        edge = house_edge(v.rules, strategy).house_edge
        effects.append(RuleEffect(v, edge, edge - value.house_edge))
    if progress is not None:
        progress(total, total, "done")
    return RuleEffects(value, strategy, tuple(effects))
