"""Switch Hands and Blackjack Premium (58 Pa. Code § 633b.4): the switch decision and the house edge.

A Switch Hands player wagers a Blackjack wager in $5 increments (§ 633b.4(b)) and a Switch Hands
Ante of $1 per $5 (§ 633b.4(c)); besides the two face-up cards of the Blackjack hand the player is
dealt two face-down Switch Hands cards ((d), (e)) and, before the peek, plays either pair ((f)). The
Ante is never paid: it is the price of the option (§ 633b.4(c)). Pays:

* Switch Hands ((i)): a player who did not switch is paid 1 to 1 and 3 to 2 for a Blackjack; a
  player who switched is paid 2 to 1 for a same-suit or same-colour Blackjack (same suit implies
  same colour), 3 to 2 for another Blackjack ((i)(2) reads "(j)(1)" as (i)(1)), and — only if the
  Rules Submission says so, ``tie_pays`` — 1 to 2 for a Blackjack the dealer ties ((i)(2)(ii)).
* Blackjack Premium ((k)–(o)): each player chooses plain Blackjack (no Ante) or Switch Hands. A
  tie Blackjack pays 1 to 2 for every player ((o)); a player who placed the Ante is paid 2 to 1 for
  a same-suit or same-colour Blackjack — read literally, whether or not the player switched
  (``PremiumColoredPays.ANTE``; the alternative ``SWITCHED`` pays it only after a switch).

**Values.** The face-up pair's value (keep) is its EV from :mod:`croupier.analysis.blackjack_strategy`
with the shoe less the pair and the upcard: the discarded face-down cards are unseen, so their
removal changes nothing on average. The face-down pair's value (switch) is the average, over every
pair the shoe less the face-up pair and the upcard can hold, of that pair's EV with its own pays.
*Approximation*: each possible face-down pair's EV is computed from the shoe less that pair and the
upcard (the discarded face-up cards are not removed again from the shoe the hand is played from);
the probabilities of the face-down pairs, and of a same-colour Blackjack, are exact. Colours
matter only for Blackjacks and are counted exactly (cards by value and colour). With
``exact_removal=True`` the face-up pair is removed too (a minute instead of a second); at six decks
that lowers every house edge by about 0.005% (benchmarks/bench_switch_hands_exact.py).
:func:`simulate` plays full rounds from shuffled shoes as a second method.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb

import numpy as np

from croupier.analysis.blackjack_strategy import (
    ACE,
    LABELS,
    TEN,
    VALUES,
    PlayRules,
    _add,
    _engine,
    _hand,
    counts_total,
    game_value,
    hand_values,
)
from croupier.errors import RulesError, citation
from croupier.wagers.switch_hands import (
    BlackjackPays,
    PremiumColoredPays,
    Variant,
    blackjack_pays,
)

SECTION = "633b.4"
ANTE_RATE = Fraction(1, 5)
"""The Switch Hands Ante: $1 for every $5 Blackjack wager (§ 633b.4(c))."""


# -- cards by value and colour ---------------------------------------------------------------

_TYPES = [(v, c) for v in range(VALUES) for c in range(2)]  # (value, colour) — 20 types


def _colour_counts(decks: int) -> list[int]:
    return [(8 if v == TEN else 2) * decks for v, _ in _TYPES]


def _pairs(counts: list[int]) -> list[tuple[int, int, float]]:
    """Unordered pairs of (value, colour) types from ``counts`` with their probabilities."""
    total = sum(counts)
    all_pairs = comb(total, 2)
    out = []
    for i in range(len(_TYPES)):
        for j in range(i, len(_TYPES)):
            ways = comb(counts[i], 2) if i == j else counts[i] * counts[j]
            if ways:
                out.append((i, j, ways / all_pairs))
    return out


@dataclass(frozen=True)
class SwitchCell:
    """The switch decision for one face-up pair (by value) against one upcard."""

    pair: tuple[int, int]
    upcard: int
    weight: float
    """The chance of this face-up pair and upcard."""
    keep: float
    switch: float

    @property
    def switches(self) -> bool:
        """Whether the face-down pair is worth more (ties keep the face-up pair)."""
        return self.switch > self.keep


@dataclass(frozen=True)
class SwitchAnalysis:
    """The value of a § 633b.4 game for one kind of player, per unit of the Blackjack wager."""

    variant: Variant
    rules: PlayRules
    ante: bool
    tie_pays: bool
    premium_colored: PremiumColoredPays
    expected_hand: float
    """The Blackjack wager's expected net result (the Ante not counted)."""
    switch_rate: float
    cells: tuple[SwitchCell, ...]

    @property
    def ante_rate(self) -> float:
        """The Ante per unit of the Blackjack wager (0 for a plain Blackjack Premium player)."""
        return float(ANTE_RATE) if self.ante else 0.0

    @property
    def expected(self) -> float:
        """The player's expected net result per unit of the Blackjack wager, the Ante lost."""
        return self.expected_hand - self.ante_rate

    @property
    def house_edge(self) -> float:
        """Per unit of the Blackjack wager."""
        return -self.expected

    @property
    def house_edge_total(self) -> float:
        """Per unit of everything wagered (the Blackjack wager and the Ante)."""
        return -self.expected / (1 + self.ante_rate)


def analyze(
    variant: Variant,
    rules: PlayRules,
    ante: bool = True,
    tie_pays: bool = False,
    premium_colored: PremiumColoredPays = PremiumColoredPays.ANTE,
    exact_removal: bool = False,
) -> SwitchAnalysis:
    """The house edge of a § 633b.4 game for a player who switches whenever the face-down pair is
    worth more (an Ante player), or of plain Blackjack at a Blackjack Premium table
    (``ante=False``, (k)). Per unit of the Blackjack wager, from a full shoe.

    ``exact_removal`` plays each face-down pair from the shoe less the discarded face-up pair too
    (a new strategy table for every face-up pair and upcard: a minute rather than a second);
    by default the module's approximation is used."""
    if variant is Variant.SWITCH_HANDS and not ante:
        raise RulesError("a Switch Hands player places the Switch Hands Ante", "633b.4(c)")
    if not ante:
        pays = blackjack_pays(variant, False, False, tie_pays, premium_colored)
        g = game_value(rules, pays.other, pays.tie)
        return SwitchAnalysis(variant, rules, False, tie_pays, premium_colored, g.expected, 0.0, ())
    keep_pays = blackjack_pays(variant, True, False, tie_pays, premium_colored)
    switch_pays = blackjack_pays(variant, True, True, tie_pays, premium_colored)
    decks = rules.table.decks
    full = _colour_counts(decks)
    total_cards = sum(full)
    expected = 0.0
    switched = 0.0
    cell_sums: dict[tuple[int, int, int], list[float]] = {}
    for u_type, (u, _) in enumerate(_TYPES):
        p_u = full[u_type] / total_cards
        after_up = list(full)
        after_up[u_type] -= 1
        hv = {(a, b): hand_values(rules, u, a, b) for a in range(VALUES) for b in range(a, VALUES)}
        non_bj = {k: h.value(0, 0) for k, h in hv.items() if not h.blackjack}
        bj = hv[(ACE, TEN)]
        pairs = _pairs(after_up)
        if not exact_removal:
            switches = _switch_values(
                [(i, j) for i, j, _ in pairs], after_up, non_bj, bj.p_dealer_blackjack, switch_pays
            )
        for n, (i, j, p_f) in enumerate(pairs):
            fa, fb = sorted((_TYPES[i][0], _TYPES[j][0]))
            keep_h = hv[(fa, fb)]
            if keep_h.blackjack:
                colored = _TYPES[i][1] == _TYPES[j][1]
                keep = keep_h.value(
                    keep_pays.colored if colored else keep_pays.other, keep_pays.tie
                )
            else:
                keep = non_bj[(fa, fb)]
            if exact_removal:
                rest = list(after_up)
                rest[i] -= 1
                rest[j] -= 1
                nb, q = _removed_values(rules, u, (fa, fb))
                switch = _switch_value(rest, nb, q, switch_pays)
            else:
                switch = switches[n]
            best = max(keep, switch)
            expected += p_u * p_f * best
            if switch > keep:
                switched += p_u * p_f
            acc = cell_sums.setdefault((fa, fb, u), [0.0, 0.0, 0.0])
            acc[0] += p_u * p_f
            acc[1] += p_u * p_f * keep
            acc[2] += p_u * p_f * switch
    cells = tuple(
        SwitchCell((a, b), u, w, k / w, s / w) for (a, b, u), (w, k, s) in sorted(cell_sums.items())
    )
    return SwitchAnalysis(
        variant, rules, True, tie_pays, premium_colored, expected, switched, cells
    )


def _removed_values(
    rules: PlayRules, upcard: int, face_up: tuple[int, int]
) -> tuple[dict[tuple[int, int], float], float]:
    """Every face-down pair's value (non-Blackjacks) and the dealer-Blackjack chance behind a
    face-down Blackjack, with the face-up pair removed from the shoe too."""
    key = (rules, upcard, face_up)
    got = _REMOVED.get(key)
    if got is None:
        counts = [(16 if v == TEN else 4) * rules.table.decks for v in range(VALUES)]
        counts[upcard] -= 1
        for v in face_up:
            counts[v] -= 1
        values: dict[tuple[int, int], float] = {}
        q = 0.0
        for a in range(VALUES):
            for b in range(a, VALUES):
                if counts[a] < 1 + (a == b) or counts[b] < 1:
                    values[(a, b)] = 0.0  # this pair cannot be dealt (weight 0)
                    continue
                hv = hand_values(rules, upcard, a, b, face_up)
                if hv.blackjack:
                    q = hv.p_dealer_blackjack
                else:
                    values[(a, b)] = hv.value(0, 0)
        got = (values, q)
        _REMOVED[key] = got
    return got


_REMOVED: dict[
    tuple[PlayRules, int, tuple[int, int]], tuple[dict[tuple[int, int], float], float]
] = {}


def _switch_value(
    rest: list[int],
    non_bj: dict[tuple[int, int], float],
    p_dealer_bj: float,
    pays: BlackjackPays,
) -> float:
    """The average value of the face-down pair drawn from ``rest`` (by value and colour)."""
    by_value = [rest[2 * v] + rest[2 * v + 1] for v in range(VALUES)]
    total = sum(by_value)
    pairs = total * (total - 1) / 2
    value = 0.0
    for (a, b), ev in non_bj.items():
        ways = by_value[a] * (by_value[a] - 1) / 2 if a == b else by_value[a] * by_value[b]
        value += ways / pairs * ev
    same = rest[2 * ACE] * rest[2 * TEN] + rest[2 * ACE + 1] * rest[2 * TEN + 1]
    other = by_value[ACE] * by_value[TEN] - same
    q = p_dealer_bj

    def bj_value(pay: Fraction) -> float:
        return q * float(pays.tie) + (1 - q) * float(pay)

    value += same / pairs * bj_value(pays.colored) + other / pairs * bj_value(pays.other)
    return value


def _switch_values(
    face_up: list[tuple[int, int]],
    after_up: list[int],
    non_bj: dict[tuple[int, int], float],
    p_dealer_bj: float,
    pays: BlackjackPays,
) -> list[float]:
    """:func:`_switch_value` for each face-up pair of (value, colour) types ``face_up`` taken from
    ``after_up``, all at once: the same float operations in the same order, over numpy arrays."""
    rest = np.tile(np.asarray(after_up, dtype=np.int64), (len(face_up), 1))
    rows = np.arange(len(face_up))
    for k in (0, 1):
        np.subtract.at(rest, (rows, np.array([f[k] for f in face_up], dtype=np.int64)), 1)
    by_value = rest[:, 0::2] + rest[:, 1::2]
    total = by_value.sum(axis=1)
    pairs = total * (total - 1) / 2
    value = np.zeros(len(face_up), dtype=np.float64)
    for (a, b), ev in non_bj.items():
        na = by_value[:, a]
        ways = na * (na - 1) / 2 if a == b else na * by_value[:, b]
        value += ways / pairs * ev
    same = rest[:, 2 * ACE] * rest[:, 2 * TEN] + rest[:, 2 * ACE + 1] * rest[:, 2 * TEN + 1]
    other = by_value[:, ACE] * by_value[:, TEN] - same
    q = p_dealer_bj
    colored = q * float(pays.tie) + (1 - q) * float(pays.colored)
    plain = q * float(pays.tie) + (1 - q) * float(pays.other)
    value += same / pairs * colored + other / pairs * plain
    out: list[float] = value.tolist()
    return out


def switch_value(
    rules: PlayRules,
    upcard: int,
    face_up: tuple[int, int],
    pays: BlackjackPays,
    remove_face_up: bool = True,
    p_same_colour: float | None = None,
) -> float:
    """The value of switching to the face-down pair, by value only, given the face-up pair (value
    indices) and the upcard: every face-down pair the shoe less the face-up pair and the upcard can
    hold, each played from the shoe less *all* those cards when ``remove_face_up`` (the exact
    reading; slow: a new recursion per face-up pair) or less the face-down pair and the upcard
    only (:func:`analyze`'s approximation). A face-down Blackjack is same-colour with chance
    ``p_same_colour`` (default: one half, the value of a full shoe's colours)."""
    counts = [(16 if v == TEN else 4) * rules.table.decks for v in range(VALUES)]
    counts[upcard] -= 1
    for v in face_up:
        counts[v] -= 1
    total = sum(counts)
    pairs = total * (total - 1) / 2
    removed = face_up if remove_face_up else ()
    same = 0.5 if p_same_colour is None else p_same_colour
    value = 0.0
    for a in range(VALUES):
        for b in range(a, VALUES):
            ways = counts[a] * (counts[a] - 1) / 2 if a == b else counts[a] * counts[b]
            if not ways:
                continue
            hv = hand_values(rules, upcard, a, b, removed)
            if hv.blackjack:
                ev = same * hv.value(pays.colored, pays.tie) + (1 - same) * hv.value(
                    pays.other, pays.tie
                )
            else:
                ev = hv.value(0, 0)
            value += ways / pairs * ev
    return value


UPCARDS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "A")
"""The dealer's upcards in chart order."""


def figures(a: SwitchAnalysis) -> dict[str, object]:
    """One kind of player's figures, JSON-ready (house edges per unit wagered)."""
    return {
        "game": a.variant.value,
        "player": "switch-hands ante" if a.ante else "plain blackjack (no ante)",
        "tie_blackjack_pays_1_to_2": a.tie_pays,
        "ante_per_blackjack_wager": a.ante_rate,
        "blackjack_wager_return": a.expected_hand,
        "expected_per_blackjack_wager": a.expected,
        "house_edge_per_blackjack_wager": a.house_edge,
        "house_edge_per_total_wagered": a.house_edge_total,
        "switch_rate": a.switch_rate,
    }


@dataclass(frozen=True)
class GameSheet:
    """The whole-game figures of § 633b.4 at one deck count under PA's default rules: Switch
    Hands with and without the optional 1 to 2 tie pay (§ 633b.4(i)(2)(ii)), and both kinds of
    Blackjack Premium player (§ 633b.4(k), (o)); ``chart`` is the Switch Hands analysis whose
    keep-or-switch decisions (§ 633b.4(f)) the report draws."""

    decks: int
    rules: str
    analyses: tuple[SwitchAnalysis, ...]

    @property
    def chart(self) -> SwitchAnalysis:
        """The Switch Hands analysis without the tie pay."""
        return self.analyses[0]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready figures."""
        return {
            "section": "633b.4",
            "citation": citation("633b.4"),
            "decks": self.decks,
            "rules": self.rules,
            "figures": [figures(a) for a in self.analyses],
        }


@cache
def game_sheet(decks: int) -> GameSheet:
    """The :class:`GameSheet` for ``decks`` decks (under a second: a strategy table per
    upcard)."""
    rules = PlayRules.of(decks)
    analyses = (
        analyze(Variant.SWITCH_HANDS, rules, True, False),
        analyze(Variant.SWITCH_HANDS, rules, True, True),
        analyze(Variant.PREMIUM, rules, True, True),
        analyze(Variant.PREMIUM, rules, False, True),
    )
    return GameSheet(decks, rules.describe(), analyses)


def switch_chart(analysis: SwitchAnalysis) -> dict[str, dict[str, SwitchCell]]:
    """The decision by face-up pair (``'T,6'``) and upcard (``'2'`` … ``'A'``)."""
    out: dict[str, dict[str, SwitchCell]] = {}
    for cell in analysis.cells:
        a, b = cell.pair
        label = f"{LABELS[a]},{LABELS[b]}" if a == ACE else f"{LABELS[b]},{LABELS[a]}"
        out.setdefault(label, {})[LABELS[cell.upcard]] = cell
    return out


# -- simulation of full rounds -------------------------------------------------------------------


@dataclass(frozen=True)
class SimulatedRounds:
    """Simulated rounds: the mean net result per unit of the Blackjack wager (the Ante counted)
    and its standard error."""

    rounds: int
    mean: float
    standard_error: float

    def standard_errors_from(self, exact: float) -> float:
        """How many standard errors the mean is from ``exact``."""
        return (self.mean - exact) / self.standard_error


def simulate(analysis: SwitchAnalysis, rounds: int, seed: int) -> SimulatedRounds:
    """Deal ``rounds`` full rounds from freshly shuffled shoes and play them with the engine's
    strategy: switch by :attr:`SwitchAnalysis.cells` (an Ante player), then play the chosen pair
    by the strategy engine (composition-dependent play of the hand's own cards; split hands by the
    engine's split valuation), the dealer drawing to the rule. A second method for
    :func:`analyze`: it removes every card actually dealt."""
    rules = analysis.rules
    decks = rules.table.decks
    # card k of the shoe: value index and colour
    values = np.array(
        [v for v in range(VALUES) for _ in range(2) for _ in range((8 if v == TEN else 2) * decks)],
        dtype=np.int64,
    )
    colours = np.array(
        [c for v in range(VALUES) for c in range(2) for _ in range((8 if v == TEN else 2) * decks)],
        dtype=np.int64,
    )
    n_cards = len(values)
    rng = np.random.default_rng(seed)
    decide = {(c.pair, c.upcard): c.switches for c in analysis.cells}
    keep_pays = (
        blackjack_pays(
            analysis.variant, analysis.ante, False, analysis.tie_pays, analysis.premium_colored
        )
        if analysis.ante
        else blackjack_pays(analysis.variant, False, False, analysis.tie_pays)
    )
    switch_pays = (
        blackjack_pays(analysis.variant, True, True, analysis.tie_pays, analysis.premium_colored)
        if analysis.ante
        else keep_pays
    )
    total = 0.0
    total_sq = 0.0
    for _ in range(rounds):
        deal = rng.choice(n_cards, size=40, replace=False)
        vals = values[deal].tolist()
        cols = colours[deal].tolist()
        up, hole = vals[0], vals[5]
        f = (vals[1], vals[2])
        fkey = (min(f), max(f))
        switched = analysis.ante and decide[(fkey, up)]
        pi = (3, 4) if switched else (1, 2)
        a, b = vals[pi[0]], vals[pi[1]]
        pays = switch_pays if switched else keep_pays
        dealer_bj = {up, hole} == {ACE, TEN}
        player_bj = {a, b} == {ACE, TEN}
        if player_bj:
            colored = cols[pi[0]] == cols[pi[1]]
            net = float(pays.tie) if dealer_bj else float(pays.colored if colored else pays.other)
        elif dealer_bj:
            net = -1.0
        else:
            net = _play_out(rules, up, hole, a, b, vals)
        result = net - analysis.ante_rate
        total += result
        total_sq += result * result
    mean = total / rounds
    var = max(total_sq / rounds - mean * mean, 0.0)
    return SimulatedRounds(rounds, mean, (var / rounds) ** 0.5)


def _play_out(rules: PlayRules, up: int, hole: int, a: int, b: int, vals: list[int]) -> float:
    """The net of a round neither side has a Blackjack in: the pair ``a``, ``b`` played by the
    strategy engine against the dealer's ``up`` and ``hole`` cards, drawing from ``vals[6:]``."""
    lo, hi = min(a, b), max(a, b)
    action = hand_values(rules, up, lo, hi).action.value
    if action == "surrender":
        return -0.5
    if action == "split":
        hands, pos = _play_split(rules, up, a, vals)
    else:
        eng = _engine(rules, up)
        h = _hand(a, b)
        pos = 6
        if action == "double":
            h = _add(h, vals[pos])
            pos += 1
            hands = [(h, 2.0)]
        else:
            if action == "hit":
                h = _add(h, vals[pos])
                pos += 1
                while counts_total(h)[0] < 21 and eng.hit(h) > eng.stand(h):
                    h = _add(h, vals[pos])
                    pos += 1
            hands = [(h, 1.0)]
    return _against_dealer(rules, up, hole, hands, vals, pos)


def _play_split(
    rules: PlayRules, up: int, a: int, vals: list[int]
) -> tuple[list[tuple[tuple[int, ...], float]], int]:
    """A pair of ``a`` split (re-split while the rules allow) and each hand played by the
    engine's split valuation: the hands with their stakes, and the next card's position."""
    eng = _engine(rules, up, _hand(a))
    hands: list[tuple[tuple[int, ...], float]] = []  # (hand, stake)
    pos = 6
    pending, made = 2, 2
    aces = a == ACE
    while pending:
        pending -= 1
        h = _add(_hand(a), vals[pos])
        second = vals[pos]
        pos += 1
        resplit = not aces or rules.resplit_aces
        if second == a and resplit and made < rules.split_hands:
            pending += 2  # this hand and the new one each take a card
            made += 1
            continue
        if aces and not rules.hit_split_aces:
            hands.append((h, 1.0))
            continue
        stand, hit = eng.stand(h), eng.hit(h)
        dbl = eng.double(h) if rules.double_after_split else -9.0
        if dbl > max(stand, hit):
            h = _add(h, vals[pos])
            pos += 1
            hands.append((h, 2.0))
            continue
        while counts_total(h)[0] < 21 and eng.hit(h) > eng.stand(h):
            h = _add(h, vals[pos])
            pos += 1
        hands.append((h, 1.0))
    return hands, pos


def _against_dealer(
    rules: PlayRules,
    up: int,
    hole: int,
    hands: list[tuple[tuple[int, ...], float]],
    vals: list[int],
    pos: int,
) -> float:
    """The dealer draws to the rule from ``vals[pos:]``; the net of the player's ``hands``
    (with their stakes) against the dealer's total."""
    dealer = _hand(up, hole)
    while True:
        t, soft = counts_total(dealer)
        if t > 17 or (t == 17 and not (soft and rules.table.hits_soft_17)):
            break
        dealer = _add(dealer, vals[pos])
        pos += 1
    dt = counts_total(dealer)[0]
    net = 0.0
    for h, stake in hands:
        pt = counts_total(h)[0]
        if pt > 21:
            net -= stake
        elif dt > 21 or pt > dt:
            net += stake
        elif pt < dt:
            net -= stake
    return net


__all__ = [
    "ANTE_RATE",
    "SECTION",
    "UPCARDS",
    "BlackjackPays",
    "GameSheet",
    "PremiumColoredPays",
    "SimulatedRounds",
    "SwitchAnalysis",
    "SwitchCell",
    "Variant",
    "analyze",
    "blackjack_pays",
    "figures",
    "game_sheet",
    "simulate",
    "switch_chart",
    "switch_value",
]
