"""The hold report judges a table only on wagers enough for its band (the trial: BJ-7, two $5
Perfect Pairs wagers, one a Perfect Pair, was flagged outside "-$81.93 to $83.15"), and gives a
verdict only once the handle supports one: the band excludes a hold of zero (issue 30).

By hand, 6 decks (312 cards): the player's second card matches the first's rank and suit in 5 of
the 311 cards left (a Perfect Pair, 25 to 1), its rank and colour in another suit in 6 (a Colored
Pair, 12 to 1), its rank in the other colour in 12 (a Mixed Pair, 6 to 1); the other 288 lose.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pytest

from baccarat_reference import tree_counts
from croupier.service.web.hold import (
    CHEBYSHEV_SD,
    FALSE_FLAG,
    Par,
    _figures,
    judge,
    lines_needed,
    lines_to_exclude_zero,
    verdict,
)
from croupier.units import format_money
from service_support import (
    BLACKJACK_SUBMISSION,
    DEALER,
    PIT,
    Server,
    keyed,
    link,
    pp_round,
    serving,
)

PP = {25: Fraction(5, 311), 12: Fraction(6, 311), 6: Fraction(12, 311), -1: Fraction(288, 311)}
"""Perfect Pairs paytable A at 6 decks: net pay per unit → probability."""


def moments(dist: dict[int, Fraction]) -> tuple[Fraction, Fraction, Fraction]:
    """Mean, variance and third central moment, from the raw moments."""
    e1, e2, e3 = (sum((p * x**k for x, p in dist.items()), Fraction(0)) for k in (1, 2, 3))
    return e1, e2 - e1**2, e3 - 3 * e1 * e2 + 2 * e1**3


MEAN, VAR, THIRD = moments(PP)


def test_perfect_pairs_needs_627_wagers_by_cochrans_rule() -> None:
    assert (Fraction(-19, 311), Fraction(1464138, 96721)) == (MEAN, VAR)
    skew2 = THIRD**2 / VAR**3  # ≈ 25.04: skewness ≈ 5.0
    assert 626 < 25 * skew2 < 627
    par = Par.of((Fraction(x), p) for x, p in PP.items())
    assert (par.edge, par.variance, par.third) == (-MEAN, VAR, THIRD)
    assert lines_needed(par) == 627
    # the service's own figures, from the par sheet's combination counts: the same
    assert _figures("perfect-pairs", "A", "633b.1", 6) == par


def test_a_long_shot_needs_about_25_hits() -> None:
    """A wager paying 999 to 1 once in 1,000: its skewness² is (1 − 2p)² / (p (1 − p)) (a
    two-point distribution's), 998² / 999, so Cochran's rule asks for more than
    25 × 996,004 / 999 = 24,925.03 wagers — 24.9 expected hits."""
    p = Fraction(1, 1000)
    par = Par.of([(Fraction(999), p), (Fraction(-1), 1 - p)])
    assert par.edge == 0
    assert lines_needed(par) == 24_926


def test_the_trials_two_wagers_are_too_few_to_judge() -> None:
    """Two $5 wagers (500 cents each), one a Perfect Pair: the hold is −$120. The ± 3 SD band
    would be −$81.93 to $83.15 and flag it; an honest table falls outside that band when its
    two wagers hold a Perfect Pair, two Colored Pairs or a Colored and a Mixed Pair (a player's
    win above 16.4 units): 1 − (306/311)² + (6/311)² + 2·(6/311)(12/311) = 3,265/96,721 = 3.4%
    of the time, not 0.27%."""
    par = Par.of((Fraction(x), p) for x, p in PP.items())
    squares, cubes = 2 * 500**2, 2 * 500**3
    theo = -MEAN * 1000
    sd = math.sqrt(VAR * squares)
    assert (
        format_money(math.floor(theo - 3 * sd)),
        format_money(math.ceil(theo + 3 * sd)),
    ) == ("-$81.93", "$83.15")
    tripped = sum(
        (PP[a] * PP[b] for a in PP for b in PP if (a + b) * 500 > float(-theo) + 3 * sd),
        Fraction(0),
    )
    assert tripped == Fraction(3265, 96721)
    j = judge(par, handle=1000, squares=squares, cubes=cubes, hold=-12_000)
    assert (j.rule, j.judged, j.flagged, j.needed_normal, j.effective) == (
        "chebyshev",
        False,
        False,
        627,
        Fraction(2),
    )
    half = math.sqrt(VAR * squares * 10_000 / 27)  # Chebyshev at 0.27%: k² = 1/0.0027
    assert j.low == pytest.approx(float(theo) - half) and j.high == pytest.approx(
        float(theo) + half
    )
    assert verdict(j, 2) == "not enough handle to judge: 2 of the 36,503 wagers needed"
    # a hold beyond even that band is flagged: a table paying 2 × $625 on two $5 wagers
    far = judge(par, handle=1000, squares=squares, cubes=cubes, hold=-125_000)
    assert far.flagged and not far.judged
    assert verdict(far, 2) == (
        "outside the band: beyond ± 19.2 SD, which holds at any count (not enough handle to "
        "judge within ± 3 SD: 2 of the 36,503 wagers needed)"
    )


@pytest.mark.parametrize(("lines", "rule"), [(626, "chebyshev"), (627, "normal")])
def test_the_normal_band_from_the_627th_wager(lines: int, rule: str) -> None:
    """A hold 3.5 SD below the theoretical: flagged by the ± 3 SD band once the wagers are
    enough for it — an anomaly, though the handle is still too small for a "within the band"
    verdict; at one fewer it is well inside ± 19.2 SD, and not judged."""
    par = Par.of((Fraction(x), p) for x, p in PP.items())
    squares = lines * 500**2
    theo = -MEAN * 500 * lines
    hold = math.floor(theo - Fraction(7, 2) * Fraction(math.sqrt(VAR * squares)))
    j = judge(par, handle=500 * lines, squares=squares, cubes=lines * 500**3, hold=hold)
    assert (j.rule, j.flagged) == (rule, rule == "normal")
    assert not j.judged
    assert verdict(j, lines) == (
        "outside the band: beyond ± 3 SD (not enough handle to judge within it: 627 of the "
        "36,503 wagers needed)"
        if rule == "normal"
        else "not enough handle to judge: 626 of the 36,503 wagers needed"
    )


def test_unequal_stakes_count_as_fewer_wagers() -> None:
    """600 wagers of $5 and 30 of $100: 630 wagers, but as skewed as
    (Σs²)³ / (Σs³)² = 315,000³ / 30,075,000² ≈ 34.6 of equal stakes (in dollars), and for the
    band's width against the theoretical hold (Σs)² / Σs² = 6,000² / 315,000 ≈ 114.3 of equal
    stakes: 114.3 of 36,503 is further from a verdict than 34.6 of 627, so it is the one shown."""
    par = Par.of((Fraction(x), p) for x, p in PP.items())
    stakes = [500] * 600 + [10_000] * 30
    j = judge(
        par,
        handle=sum(stakes),
        squares=sum(s**2 for s in stakes),
        cubes=sum(s**3 for s in stakes),
        hold=0,
    )
    assert j.effective == Fraction(315_000**3, 30_075_000**2)
    assert j.effective_zero == Fraction(6_000**2, 315_000)
    assert (j.rule, round(float(j.effective), 1)) == ("chebyshev", 34.6)
    assert verdict(j, 630) == (
        "not enough handle to judge: 630 (as 114.3 of equal stakes) of the 36,503 wagers needed"
    )


def test_perfect_pairs_gets_a_verdict_from_the_36503rd_wager() -> None:
    """By hand: the ± 3 SD band of ``n`` equal wagers excludes a hold of zero when
    edge × n > 3σ√n, i.e. n > 9σ² / edge² = 9 × (1,464,138 / 96,721) / (19 / 311)²
    = 13,177,242 / 361 = 36,502.06: the verdict starts at the 36,503rd wager."""
    assert Fraction(13_177_242, 361) == 9 * VAR / MEAN**2
    assert 36_502 < Fraction(13_177_242, 361) < 36_503
    par = Par.of((Fraction(x), p) for x, p in PP.items())
    assert lines_to_exclude_zero(par) == 36_503
    for lines, judged in ((36_502, False), (36_503, True)):
        theo = -MEAN * 500 * lines  # a table holding exactly its theoretical
        j = judge(
            par, handle=500 * lines, squares=lines * 500**2, cubes=lines * 500**3, hold=round(theo)
        )
        assert (j.rule, j.excludes_zero, j.judged, j.flagged) == ("normal", judged, judged, False)
        assert (j.low > 0) is judged  # the band's low end above a hold of zero
        assert j.needed == 36_503
        assert verdict(j, lines) == (
            "within the band"
            if judged
            else "not enough handle to judge: 36,502 of the 36,503 wagers needed"
        )


def test_one_25_dollar_banker_wager_gets_no_verdict() -> None:
    """Baccarat's Banker wager at 8 decks, counted coup by coup (tests/baccarat_reference.py,
    the second method): wins 0.458597, loses 0.446247, ties 0.095156 — the Wizard of Odds'
    published figures ("Baccarat", 8 decks) — paid 19 to 20, a house edge of 1.0579%. Its
    skewness is so small that Cochran's rule is met by one wager, and the old report called one
    $25 wager "within the band"; but that band holds every result one wager can have (the
    stake lost, a tie, 19 to 20 won) and a hold of zero: no verdict, 69,161 wagers needed."""
    shoe = (16 * 8,) + (4 * 8,) * 9  # 8 decks by baccarat value: ten-valued cards, then 1-9
    coups = tree_counts(shoe)
    total = sum(coups.values())
    won = Fraction(sum(n for (p, b, _, _), n in coups.items() if b > p), total)
    lost = Fraction(sum(n for (p, b, _, _), n in coups.items() if b < p), total)
    assert [round(float(x), 6) for x in (won, lost, 1 - won - lost)] == [
        0.458597,
        0.446247,
        0.095156,
    ]
    par = Par.of([(Fraction(19, 20), won), (Fraction(0), 1 - won - lost), (Fraction(-1), lost)])
    assert f"{float(par.edge):.4%}" == "1.0579%"
    assert _figures("banker", "commission", "631a.8", 8) == par  # the service's, from the par sheet
    assert lines_needed(par) == 1
    j = judge(par, handle=2_500, squares=2_500**2, cubes=2_500**3, hold=2_500)
    assert all(j.low <= hold <= j.high for hold in (2_500, 0, -2_375))
    assert j.low < 0  # the band holds a hold of zero
    assert (j.rule, j.flagged, j.excludes_zero, j.judged) == ("normal", False, False, False)
    # 9 × variance / edge² = 69,160.9...: the band excludes zero from the 69,161st wager
    assert 69_160 < 9 * par.variance / par.edge**2 < 69_161
    assert verdict(j, 1) == "not enough handle to judge: 1 of the 69,161 wagers needed"


def honest_holds(lines: int) -> tuple[np.ndarray, np.ndarray]:
    """Every hold (cents) of ``lines`` honest $5 Perfect Pairs wagers and its exact probability
    (the distribution convolved ``lines`` times; a second method to the rule's)."""
    one = np.zeros(27)
    for x, p in PP.items():
        one[x + 1] = float(p)
    dist = np.array([1.0])
    for _ in range(lines):
        dist = np.convolve(dist, one)
    net = np.arange(len(dist)) - lines  # the players' net in units
    return -500 * net, dist


@pytest.mark.parametrize("lines", [1, 2, 5, 40, 626, 627, 1000])
def test_an_honest_table_is_flagged_at_most_about_0_27_percent_of_the_time(lines: int) -> None:
    """The exact chance that an honest table is flagged, at each count of wagers: at most 0.27%
    with too few (Chebyshev's bound holds for any distribution), and within a sixth of it
    above once the normal band applies (Cochran's rule: 0.31% at 627 wagers)."""
    par = Par.of((Fraction(x), p) for x, p in PP.items())
    holds, probs = honest_holds(lines)
    j = judge(par, handle=500 * lines, squares=lines * 500**2, cubes=lines * 500**3, hold=0)
    flagged = float(probs[(holds < j.low) | (holds > j.high)].sum())
    if j.rule == "chebyshev":
        assert flagged <= float(FALSE_FLAG)
    else:
        assert flagged <= float(FALSE_FLAG) * 7 / 6
    assert pytest.approx(19.245, abs=1e-3) == CHEBYSHEV_SD


# -- over HTTP -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with serving("sqlite", tmp_path_factory.mktemp("h-fcp-hold")) as srv:
        yield srv


def test_the_hold_report_says_too_few_to_judge_and_how_many_are_needed(server: Server) -> None:
    """The trial's table: two $5 Perfect Pairs wagers at an open table, 8♠ 8♠ (+$125) and
    8♠ 9♥ (−$5): hold −$120 on a $10 handle, not flagged — not enough handle to judge, 36,503
    needed (627 for the normal band) — its band the Chebyshev one of ± 19.2 SD."""
    table = "BJ-7-" + uuid.uuid4().hex[:6]
    with server.client() as c:
        link(c, server, table)
        opened = c.post(
            "/tables",
            json={"table": table, "submission": BLACKJACK_SUBMISSION},
            headers=keyed(server.auth(PIT)),
        )
        assert opened.status_code == 201, opened.text
        for rid, cards in (("a", "8s 8s"), ("b", "8s 9h")):
            r = c.post(
                "/rounds/settle",
                params={"table": table},
                json=pp_round(rid, cards=cards),
                headers=keyed(server.auth(DEALER)),
            )
            assert r.status_code == 201, r.text
        report = c.get("/hold-report", params={"table": table}, headers=server.auth(PIT)).json()
    (row,) = [r for r in report["rows"] if r["wager"] == "perfect-pairs"]
    assert (row["rounds"], row["handle_cents"], row["hold_cents"]) == (2, 1_000, -12_000)
    assert (row["flagged"], row["judged"], row["band_rule"], row["excludes_zero"]) == (
        False,
        False,
        "chebyshev",
        False,
    )
    assert (row["lines_needed_normal"], row["lines_needed_zero"], row["lines_needed"]) == (
        627,
        36_503,
        36_503,
    )
    assert row["verdict"] == "not enough handle to judge: 2 of the 36,503 wagers needed"
    theo = float(-MEAN * 1000)
    half = math.sqrt(VAR * 2 * 500**2 * 10_000 / 27)
    band = f"{format_money(math.floor(theo - half))} to {format_money(math.ceil(theo + half))}"
    assert row["band"] == band
    assert report["chebyshev_sd"] == 19.245
