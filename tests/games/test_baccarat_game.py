"""The Baccarat base game (58 Pa. Code Chapter 631a) against the rules as printed.

The drawing table below is typed from shared/regulations/base-games.md (§ 631a.11), not from the
library; each coup is worked out by hand in its comment.
"""

from __future__ import annotations

import numpy as np
import pytest

from croupier.cards import DECK, Rank, parse_cards
from croupier.errors import RulesError, ShoeError
from croupier.games.baccarat import (
    VALUE_OF_INDEX,
    BaccaratRules,
    CoupSummary,
    Winner,
    banker_draws,
    coup_arrays,
    deal_coup,
    play_coup,
    point_value,
    rank_value,
    summary_indices,
)

# § 631a.11, Banker total 3–6 when the Player drew; columns: value of the Player's third card 0–9.
PRINTED_TABLE = {
    3: "DDDDDDDDSD",
    4: "SSDDDDDDSS",
    5: "SSSSDDDDSS",
    6: "SSSSSSDDSS",
}


def test_point_values_ace_one_courts_zero() -> None:
    expected = {Rank.ACE: 1, Rank.TEN: 0, Rank.JACK: 0, Rank.QUEEN: 0, Rank.KING: 0}
    expected |= {r: int(r) for r in Rank if Rank.TWO <= r <= Rank.NINE}
    assert {r: rank_value(r) for r in Rank} == expected
    assert point_value(parse_cards("Qh")[0]) == 0


@pytest.mark.parametrize("banker", range(10))
@pytest.mark.parametrize("third", range(10))
def test_banker_draws_as_printed_after_a_player_draw(banker: int, third: int) -> None:
    if banker <= 2:
        expected = True  # draws on 0–2
    elif banker >= 7:
        expected = False  # stands on 7 (8 and 9 are naturals)
    else:
        expected = PRINTED_TABLE[banker][third] == "D"
    assert banker_draws(banker, third) is expected


@pytest.mark.parametrize("banker", range(8))
def test_banker_after_a_standing_player_draws_on_0_to_5(banker: int) -> None:
    assert banker_draws(banker, None) is (banker <= 5)


@pytest.mark.parametrize(
    ("cards", "player", "banker", "winner", "used"),
    [
        # Player 9+K = 9 natural; Banker 3+2 = 5 would draw but a natural stops all drawing
        ("9h 3c Kd 2s", (9, 2), (5, 2), Winner.PLAYER, 4),
        # Banker 4+4 = 8 natural; Player 2+1 = 3 does not draw
        ("2h 4c Ad 4s", (3, 2), (8, 2), Winner.BANKER, 4),
        # Player 6 stands; Banker 5 draws (Player stood): 5+9 = 4; Player wins 6–4
        ("Qh 2c 6d 3s 9c", (6, 2), (4, 3), Winner.PLAYER, 5),
        # Player 7 stands; Banker 6 stands: 7–6
        ("3h Kc 4d 6s", (7, 2), (6, 2), Winner.PLAYER, 4),
        # Player 0 draws 8 → 8; Banker 3 stands on a Player third card of 8: 8–3
        ("Th 2c Jd As 8h", (8, 3), (3, 2), Winner.PLAYER, 5),
        # Player 0 draws 9 → 9; Banker 3 draws on a 9: 3+4 = 7: 9–7
        ("Th 2c Jd As 9h 4d", (9, 3), (7, 3), Winner.PLAYER, 6),
        # Player 1 draws A → 2; Banker 4 stands on an ace: 4–2
        ("Ah 2c Kd 2s As", (2, 3), (4, 2), Winner.BANKER, 5),
        # Player 5 draws 6 → 1; Banker 6 draws on a 6: 6+K = 6: 6–1
        ("5h 3c Kd 3s 6c Kh", (1, 3), (6, 3), Winner.BANKER, 6),
        # Player 5 draws 5 → 0; Banker 6 stands on a 5: 6–0
        ("5h 3c Kd 3s 5c", (0, 3), (6, 2), Winner.BANKER, 5),
        # Player 4 draws 3 → 7; Banker 2 always draws: 2+5 = 7: tie with three cards each
        ("4h 2c Kd Qs 3c 5h", (7, 3), (7, 3), Winner.TIE, 6),
    ],
)
def test_coups_worked_by_hand(
    cards: str,
    player: tuple[int, int],
    banker: tuple[int, int],
    winner: Winner,
    used: int,
) -> None:
    coup = deal_coup(parse_cards(cards))
    assert (coup.player.total, coup.player.size) == player
    assert (coup.banker.total, coup.banker.size) == banker
    assert coup.winner is winner
    assert coup.cards_used == used
    # dealing order: Player gets the 1st and 3rd cards, Banker the 2nd and 4th
    dealt = parse_cards(cards)
    assert coup.player.cards[:2] == (dealt[0], dealt[2])
    assert coup.banker.cards[:2] == (dealt[1], dealt[3])


def test_missing_third_card_cites_the_drawing_rule() -> None:
    with pytest.raises(RulesError) as exc:
        deal_coup(parse_cards("Th 2c Jd As"))  # Player 0 must draw
    assert exc.value.section == "631a.11"
    with pytest.raises(RulesError) as exc:
        deal_coup(parse_cards("Th 2c Jd As 9h"))  # Banker 3 draws on a Player 9
    assert exc.value.section == "631a.11"


def test_extra_cards_after_a_natural_are_refused() -> None:
    with pytest.raises(RulesError, match="natural"):
        deal_coup(parse_cards("9h 3c Kd 2s 5d"))


def test_fewer_than_four_cards_cite_the_deal() -> None:
    with pytest.raises(RulesError) as exc:
        play_coup(parse_cards("9h 3c Kd"))
    assert exc.value.section == "631a.9"


def test_play_coup_reads_only_the_cards_it_needs() -> None:
    # the six-card convention: a natural coup dealt six cards uses the first four
    assert play_coup(parse_cards("9h 3c Kd 2s 5d 5c")).cards_used == 4


def test_a_coup_reads_the_same_from_a_list_a_tuple_or_a_longer_deal() -> None:
    # Player 3+2 = 5 draws the 4h: 9; Banker 1+6 = 7 stands on a Player third card of 4
    dealt = parse_cards("3s Ac 2d 6h 4h")
    coups = [
        play_coup(dealt),
        play_coup(list(dealt)),
        play_coup(dealt + parse_cards("Kd Qs 9c 9d")),
        deal_coup(dealt),
    ]
    for coup in coups:
        assert coup.cards == dealt
        assert coup.player.cards == parse_cards("3s 2d 4h")
        assert coup.banker.cards == parse_cards("Ac 6h")
        assert (coup.summary.player_total, coup.summary.banker_total) == (9, 7)
        assert coup.winner is Winner.PLAYER
    with pytest.raises(RulesError, match="1 more given: Kd"):
        deal_coup(dealt + parse_cards("Kd"))
    for _ in range(2):  # refused every time, not only the first
        with pytest.raises(RulesError) as exc:
            play_coup(dealt[:4])  # Player 5 draws, and no fifth card is given
        assert exc.value.section == "631a.11"


def test_summary_index_round_trips() -> None:
    seen = set()
    for index in range(400):
        s = CoupSummary.from_index(index)
        assert s.index == index
        seen.add((s.player_total, s.banker_total, s.player_cards, s.banker_cards))
    assert len(seen) == 400


def test_vectorised_coups_agree_with_the_scalar_coup() -> None:
    rng = np.random.default_rng(631)
    cards = rng.integers(0, 52, size=(20_000, 6))
    pt, bt, pn, bn = coup_arrays(VALUE_OF_INDEX[cards])
    index = summary_indices(VALUE_OF_INDEX[cards])
    for i, row in enumerate(cards.tolist()):
        coup = play_coup([DECK[c] for c in row])
        s = coup.summary
        assert (pt[i], bt[i], pn[i], bn[i]) == (
            s.player_total,
            s.banker_total,
            s.player_cards,
            s.banker_cards,
        )
        assert index[i] == s.index


def test_rules_refuse_a_cut_card_without_room() -> None:
    BaccaratRules(decks=8, cut_card=11)  # 5 + 6 cards: the last coup always fits
    with pytest.raises(ShoeError):
        BaccaratRules(decks=8, cut_card=10)
    with pytest.raises(ShoeError):
        BaccaratRules(decks=9)
