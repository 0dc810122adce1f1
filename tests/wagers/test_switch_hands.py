"""Switch Hands and Blackjack Premium (58 Pa. Code § 633b.4): pays, the switch decision, the
house edge and the settlement of dealt hands."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.analysis.blackjack_strategy import PlayRules, game_value
from croupier.analysis.switch_hands import (
    PremiumColoredPays,
    SwitchAnalysis,
    Variant,
    analyze,
    blackjack_pays,
    simulate,
    switch_chart,
)
from croupier.cards import parse_cards
from croupier.errors import InputError, RulesError, ShoeError
from croupier.games.blackjack import BlackjackRules
from croupier.wagers.switch_hands import PlayedHand, SwitchSeat, check_wagers, settle_seat

RULES = PlayRules.of(6)
H, T2, Z = Fraction(1, 2), Fraction(2), Fraction(0)
TP = Fraction(3, 2)


def test_blackjack_pays_follow_the_section() -> None:
    sh = Variant.SWITCH_HANDS
    # (i)(1): no switch — 3 to 2, a tie pushes
    p = blackjack_pays(sh, True, False, tie_pays=True)
    assert (p.colored, p.other, p.tie) == (TP, TP, Z)
    # (i)(2): switched — same colour 2 to 1, other 3 to 2, the tie only if the submission says so
    assert blackjack_pays(sh, True, True).tie == Z
    p = blackjack_pays(sh, True, True, tie_pays=True)
    assert (p.colored, p.other, p.tie) == (T2, TP, H)
    # (o): Premium — every tie 1 to 2; a plain player 3 to 2; an Ante player 2 to 1 same colour
    p = blackjack_pays(Variant.PREMIUM, False, False)
    assert (p.colored, p.other, p.tie) == (TP, TP, H)
    assert blackjack_pays(Variant.PREMIUM, True, False).colored == T2
    alt = blackjack_pays(Variant.PREMIUM, True, False, premium_colored=PremiumColoredPays.SWITCHED)
    assert alt.colored == TP
    with pytest.raises(RulesError, match=r"633b\.4\(c\)"):
        blackjack_pays(sh, False, False)
    with pytest.raises(RulesError, match=r"633b\.4\(k\)"):
        blackjack_pays(Variant.PREMIUM, False, True)


@pytest.fixture(scope="module")
def switch_hands() -> SwitchAnalysis:
    return analyze(Variant.SWITCH_HANDS, RULES, True, False)


def test_a_player_who_never_switches_plays_plain_blackjack(switch_hands: SwitchAnalysis) -> None:
    a = switch_hands
    keep = sum(c.weight * c.keep for c in a.cells)
    assert sum(c.weight for c in a.cells) == pytest.approx(1.0)
    assert keep == pytest.approx(game_value(RULES).expected, abs=1e-12)


def test_switch_decisions(switch_hands: SwitchAnalysis) -> None:
    chart = switch_chart(switch_hands)
    assert all(not c.switches for c in chart["T,T"].values())
    assert all(not c.switches for c in chart["A,T"].values())
    # a stiff 16 is below the average pair against every upcard (even a 6: about -0.16 against
    # +0.25); a 19 above it against every upcard
    assert all(c.switches for c in chart["T,6"].values())
    assert not any(c.switches for c in chart["T,9"].values())
    a = switch_hands
    # the option is worth something, but less than the Ante it costs (§ 633b.4(c))
    assert 0 < a.expected_hand < 0.2
    assert a.house_edge_total == pytest.approx(a.house_edge / 1.2)


def test_tie_pay_lowers_the_edge(switch_hands: SwitchAnalysis) -> None:
    with_tie = analyze(Variant.SWITCH_HANDS, RULES, True, True)
    assert with_tie.house_edge < switch_hands.house_edge


def test_premium_plain_player_is_blackjack_with_the_tie_paid() -> None:
    # Hand-computed: both player and dealer Blackjack from six decks — the player's A and T
    # (2·24·96 of C(312,2) ordered…) then the dealer's A/T in either order from 310 cards.
    p_player = Fraction(2 * 24 * 96, 312 * 311)
    p_dealer = Fraction(2 * 23 * 95, 310 * 309)
    plain = analyze(Variant.PREMIUM, RULES, ante=False)
    gain = plain.expected - game_value(RULES).expected
    assert gain == pytest.approx(float(p_player * p_dealer / 2), abs=1e-12)
    assert plain.house_edge_total == plain.house_edge


# -- settlement --------------------------------------------------------------------------------


def _seat(
    up: str,
    down: str,
    switched: bool,
    hands: list[tuple[str, int]],
    wager: int = 1000,
    ante: int = 200,
    surrendered: bool = False,
) -> SwitchSeat:
    u, d = parse_cards(up), parse_cards(down)
    played = tuple(PlayedHand(parse_cards(h), dbl) for h, dbl in hands)
    return SwitchSeat(wager, ante, (u[0], u[1]), (d[0], d[1]), switched, played, surrendered)


R6 = BlackjackRules(6)
SH, PREM = Variant.SWITCH_HANDS, Variant.PREMIUM


def test_switched_suited_blackjack_pays_2_to_1() -> None:
    seat = _seat("Td 6c", "Ah Kh", True, [("Ah Kh", 0)])
    s = settle_seat(seat, parse_cards("9s 7c 5d"), SH, R6)
    assert [ln.net_cents for ln in s.lines] == [-200, 2000]  # Ante lost, $10 × 2
    assert s.net_cents == 1800
    assert "same-suit" in s.lines[1].label


def test_unswitched_and_other_colour_blackjacks_pay_3_to_2() -> None:
    kept = _seat("Ah Kh", "Td 6c", False, [("Ah Kh", 0)], wager=500, ante=100)
    assert settle_seat(kept, parse_cards("9s 8c"), SH, R6).net_cents == 750 - 100
    mixed = _seat("Td 6c", "Ah Ks", True, [("Ah Ks", 0)])
    assert settle_seat(mixed, parse_cards("9s 8c"), SH, R6).net_cents == 1500 - 200


def test_tie_blackjack() -> None:
    seat = _seat("Td 6c", "Ah Kd", True, [("Ah Kd", 0)])
    dealer = parse_cards("As Qs")
    assert settle_seat(seat, dealer, SH, R6).net_cents == -200  # a push; the Ante is lost
    assert settle_seat(seat, dealer, SH, R6, tie_pays=True).net_cents == 500 - 200
    # Blackjack Premium pays the tie 1 to 2 to a plain player too ((o)), who has no Ante
    plain = _seat("Ah Kd", "Td 6c", False, [("Ah Kd", 0)], wager=700, ante=0)
    s = settle_seat(plain, dealer, PREM, R6)
    assert s.net_cents == 350 and len(s.lines) == 1


def test_premium_ante_player_kept_same_colour_blackjack() -> None:
    # (o) read literally: an Ante player's same-colour Blackjack pays 2 to 1, switched or not
    kept = _seat("Ah Kd", "Td 6c", False, [("Ah Kd", 0)])
    dealer = parse_cards("9s 8c")
    assert settle_seat(kept, dealer, PREM, R6).net_cents == 2000 - 200
    alt = settle_seat(kept, dealer, PREM, R6, premium_colored=PremiumColoredPays.SWITCHED)
    assert alt.net_cents == 1500 - 200


def test_dealer_blackjack_takes_the_original_wager_only() -> None:
    seat = _seat("Td 6c", "9h 9d", False, [("Td 6c", 0)])
    assert settle_seat(seat, parse_cards("Ks Ad"), SH, R6).net_cents == -1000 - 200


def test_split_double_and_surrender() -> None:
    seat = _seat("8d 8c", "Ah 5d", False, [("8d 3c 9s", 1000), ("8c Tc", 0)])
    s = settle_seat(seat, parse_cards("Ts 7c"), SH, R6)
    assert [ln.net_cents for ln in s.lines] == [-200, 2000, 1000]
    bust = _seat("Td 6c", "2h 2d", False, [("Td 6c 9h", 0)])
    assert settle_seat(bust, parse_cards("Ts 7c"), SH, R6).net_cents == -1200
    sur = _seat("Td 6c", "2h 2d", False, [("Td 6c", 0)], surrendered=True)
    assert settle_seat(sur, parse_cards("Ts 7c"), SH, R6).net_cents == -500 - 200


def test_wagers_not_in_5_dollar_increments_are_refused() -> None:
    with pytest.raises(RulesError, match=r"633b\.4\(b\)"):
        check_wagers(SH, 700, 140)
    with pytest.raises(RulesError, match=r"633b\.4\(c\)"):
        check_wagers(SH, 1000, 100)
    check_wagers(PREM, 700, 0)  # a plain Blackjack Premium player is not held to $5
    with pytest.raises(RulesError, match=r"633b\.4\(b\)"):
        check_wagers(PREM, 700, 140)
    seat = _seat("Td 6c", "Ah Kd", True, [("Ah Kd", 0)], wager=700, ante=140)
    with pytest.raises(RulesError, match=r"633b\.4\(b\)"):
        settle_seat(seat, parse_cards("9s 8c"), SH, R6)


def test_cards_the_shoe_cannot_hold_are_refused() -> None:
    seat = _seat("Ah Kd", "Ah 6c", False, [("Ah Kd", 0)])  # two aces of hearts: one deck
    with pytest.raises(ShoeError):
        settle_seat(seat, parse_cards("9s 8c"), SH, BlackjackRules(1))
    assert settle_seat(seat, parse_cards("9s 8c"), SH, R6).net_cents == 1500 - 200


def test_bad_rounds_are_refused() -> None:
    plain_switch = _seat("Td 6c", "Ah Kd", True, [("Ah Kd", 0)], wager=700, ante=0)
    with pytest.raises(RulesError, match=r"633b\.4\(k\)"):
        settle_seat(plain_switch, parse_cards("9s 8c"), PREM, R6)
    wrong_pair = _seat("Td 6c", "Ah Kd", True, [("Td 6c 2s", 0)])
    with pytest.raises(InputError):
        settle_seat(wrong_pair, parse_cards("9s 8c"), SH, R6)
    no_pair = _seat("Td 6c", "Ah Kd", False, [("Td 2s", 0), ("6c 3h", 0)])
    with pytest.raises(RulesError, match=r"633a\.11"):
        settle_seat(no_pair, parse_cards("9s 8c"), SH, R6)
    short_dealer = _seat("Td 6c", "Ah Kd", False, [("Td 6c", 0)])
    with pytest.raises(RulesError, match=r"633a\.7"):
        settle_seat(short_dealer, parse_cards("9s 5c"), SH, R6)


# -- simulation of full rounds (a second method: every dealt card removed) -------------------


def test_simulated_switch_hands_rounds_agree(switch_hands: SwitchAnalysis) -> None:
    s = simulate(switch_hands, 20_000, seed=8)
    assert abs(s.standard_errors_from(switch_hands.expected)) < 4


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "ante", "tie"),
    [
        (Variant.SWITCH_HANDS, True, False),
        (Variant.SWITCH_HANDS, True, True),
        (Variant.PREMIUM, True, True),
        (Variant.PREMIUM, False, True),
    ],
)
def test_simulated_rounds_agree_within_4_standard_errors(
    variant: Variant, ante: bool, tie: bool
) -> None:
    a = analyze(variant, RULES, ante, tie)
    s = simulate(a, 200_000, seed=633)
    assert abs(s.standard_errors_from(a.expected)) < 4
