"""The 5 Treasures wagers (58 Pa. Code § 631c.3) and the Baccarat base wagers on coups worked by
hand, their settlement in cents, and the rules a round must keep.

Pays typed from § 631c.3(h) (paytables A and B) and, for the base wagers, the industry standard
(shared/regulations/base-games.md [industry]): Player 1 to 1, Banker 19 to 20, Tie 8 to 1.
"""

from __future__ import annotations

import pytest

from croupier.analysis import exact_parsheet
from croupier.cards import parse_cards
from croupier.errors import (
    CroupierError,
    RulesError,
    ShoeError,
    UnknownPaytableError,
    UnknownWagerError,
)
from croupier.wagers import get_wager
from croupier.wagers.baccarat import BaccaratTable, settle_round

# (cards in dealing order, what each hand is) → the outcome key of each 5 Treasures wager
COUPS: dict[str, dict[str, str | None]] = {
    # Player K+2 = 2 draws 3 → 5; Banker 4+Q = 4 draws on a 3: 4+3 = 7 wins with three cards
    "Ks 4h 2d Qc 3h 3s": {
        "fortune-7": "fortune-7",
        "golden-8": None,
        "heavenly-9": None,
        "blazing-7s": None,
        "cover-all": "cover-all",
    },
    # Player 0 draws 8 → 8; Banker 6+K = 6 stands on an 8: Player wins with a three-card 8
    "Ks 6h Qd Kc 8h": {
        "fortune-7": None,
        "golden-8": "golden-8",
        "heavenly-9": None,
        "blazing-7s": None,
        "cover-all": "cover-all",
    },
    # Player 0 draws 8 → 8; Banker 0 draws 9 → 9: Banker wins, no Golden 8 (the 8 must win);
    # Banker's three-card 9 is a Heavenly 9
    "Ks Kh Qd Qc 8h 9s": {
        "fortune-7": None,
        "golden-8": None,
        "heavenly-9": "heavenly-9",
        "blazing-7s": None,
        "cover-all": "cover-all",
    },
    # Player 2 draws 7 → 9; Banker 0 draws 9 → 9: both three-card 9s (a tie)
    "As Kh Ad Qc 7h 9s": {
        "fortune-7": None,
        "golden-8": None,
        "heavenly-9": "heavenly-9-both",
        "blazing-7s": None,
        "cover-all": "cover-all",
    },
    # Player 4 draws 3 → 7; Banker 2 draws 5 → 7: three-card 7s tie
    "4h 2c Kd Qs 3c 5h": {
        "fortune-7": None,
        "golden-8": None,
        "heavenly-9": None,
        "blazing-7s": "blazing-7s-three-card",
        "cover-all": "cover-all",
    },
    # Player 3+4 = 7 and Banker 4+3 = 7 stand: two-card 7s tie
    "3h 4c 4d 3s": {
        "fortune-7": None,
        "golden-8": None,
        "heavenly-9": None,
        "blazing-7s": "blazing-7s-two-card",
        "cover-all": "blazing-7s-two-card",
    },
    # Player 7 stands on two cards; Banker 3 draws 4 → 7: sevens with different card counts,
    # and the Banker's three-card 7 only ties: nothing wins
    "3h Ac 4d 2s 4c": {
        "fortune-7": None,
        "golden-8": None,
        "heavenly-9": None,
        "blazing-7s": None,
        "cover-all": None,
    },
    # Player 0 draws 7 → 7; Banker 7 stands: a two-card 7 against a three-card 7 loses
    "Ks 3h Qd 4c 7s": {
        "fortune-7": None,
        "golden-8": None,
        "heavenly-9": None,
        "blazing-7s": None,
        "cover-all": None,
    },
}


@pytest.mark.parametrize("cards", list(COUPS))
@pytest.mark.parametrize(
    "wager", ["fortune-7", "golden-8", "heavenly-9", "blazing-7s", "cover-all"]
)
def test_five_treasures_outcomes_by_hand(cards: str, wager: str) -> None:
    outcome = get_wager(wager).evaluate(parse_cards(cards), decks=8)
    assert (outcome.key if outcome else None) == COUPS[cards][wager]


# (wager, cards, paytable) → net win on $5, from the printed pays
PAYS = [
    ("fortune-7", "Ks 4h 2d Qc 3h 3s", "A", 40 * 500),
    ("golden-8", "Ks 6h Qd Kc 8h", "B", 25 * 500),
    ("heavenly-9", "Ks Kh Qd Qc 8h 9s", "A", 10 * 500),
    ("heavenly-9", "As Kh Ad Qc 7h 9s", "B", 75 * 500),
    ("blazing-7s", "4h 2c Kd Qs 3c 5h", "A", 400 * 500),
    ("blazing-7s", "4h 2c Kd Qs 3c 5h", "B", 200 * 500),
    ("blazing-7s", "3h 4c 4d 3s", "A", -500),  # "N/A" under paytable A: loses
    ("blazing-7s", "3h 4c 4d 3s", "B", 50 * 500),
    ("cover-all", "3h 4c 4d 3s", "A", -500),  # not a win under A, so not a Cover All win
    ("cover-all", "3h 4c 4d 3s", "B", 6 * 500),
    ("cover-all", "Ks 4h 2d Qc 3h 3s", "A", 6 * 500),
    ("cover-all", "Ks 3h Qd 4c 7s", "B", -500),
]


@pytest.mark.parametrize(("wager", "cards", "paytable", "win"), PAYS)
def test_five_treasures_pay_the_printed_odds(
    wager: str, cards: str, paytable: str, win: int
) -> None:
    w = get_wager(wager)
    s = w.settle(parse_cards(cards), w.paytable(paytable, 8), 500, 8)
    assert s.win_cents == win
    assert s.returned_cents == (500 + win if win > 0 else 0)


def test_base_wagers_settle_in_cents() -> None:
    # Banker wins 7–5: Banker 19 to 20, Player loses, Tie loses
    r = settle_round(parse_cards("Ks 4h 2d Qc 3h 3s"), {"banker": 1000, "player": 500, "tie": 100})
    assert [s.win_cents for s in r.settlements] == [950, -500, -100]
    assert r.win_cents == 350 and r.returned_cents == 1950
    # a tie: Player and Banker push, Tie pays 8 to 1 (9 to 1 as an option)
    tie = parse_cards("3h 4c 4d 3s")
    r = settle_round(tie, {"player": 500, "banker": 500, "tie": 500})
    assert [(s.win_cents, s.returned_cents) for s in r.settlements] == [
        (0, 500),
        (0, 500),
        (4000, 4500),
    ]
    r = settle_round(tie, {"tie": 500}, BaccaratTable(tie="9-to-1"))
    assert r.win_cents == 4500


def test_commission_rounds_down_to_the_cent() -> None:
    r = settle_round(parse_cards("Ks 4h 2d Qc 3h 3s"), {"banker": 101})
    (s,) = r.settlements
    assert s.win_cents == 95  # 101 × 19/20 = 95.95 cents
    assert s.rounding_cents_dropped == pytest.approx(0.95)


def test_no_commission_variants() -> None:
    # Banker wins with a three-card 7: pays 1 to 1 under "no-commission", pushes under "ez"
    seven = parse_cards("Ks 4h 2d Qc 3h 3s")
    assert settle_round(seven, {"banker": 1000}, BaccaratTable(banker="ez")).win_cents == 0
    r = settle_round(seven, {"banker": 1000}, BaccaratTable(banker="no-commission"))
    assert r.win_cents == 1000
    # Banker wins with 6 (Player 5 draws 5 → 0, Banker 3+3 = 6 stands on a 5): 1 to 2
    six = parse_cards("5h 3c Kd 3s 5c")
    r = settle_round(six, {"banker": 1000}, BaccaratTable(banker="no-commission"))
    assert r.win_cents == 500


def test_a_five_treasures_wager_needs_a_baccarat_wager() -> None:
    cards = parse_cards("Ks 4h 2d Qc 3h 3s")
    with pytest.raises(RulesError) as exc:
        settle_round(cards, {"cover-all": 500})
    assert exc.value.section == "631c.3(c)"
    # Cover All may be placed without the other four (§ 631c.3(f)(5)), with a Baccarat wager
    r = settle_round(cards, {"tie": 500, "cover-all": 500})
    assert [s.wager for s in r.settlements] == ["tie", "cover-all"]


def test_round_errors_are_typed_and_change_nothing() -> None:
    with pytest.raises(UnknownWagerError):
        settle_round(parse_cards("3h 4c 4d 3s"), {"banker": 500, "perfect-pairs": 500})
    with pytest.raises(RulesError) as exc:
        settle_round(parse_cards("Th 2c Jd As"), {"banker": 500})  # the Player must draw
    assert exc.value.section == "631a.11"
    with pytest.raises(ShoeError):
        settle_round(parse_cards("As As As As As As"), {"banker": 500}, BaccaratTable(decks=1))
    with pytest.raises(CroupierError):
        settle_round(parse_cards("3h 4c 4d 3s"), {"banker": 0})


def test_a_wager_sees_only_its_own_paytables() -> None:
    banker = get_wager("banker")
    assert [t.key for t in banker.paytables()] == ["commission", "no-commission", "ez"]
    with pytest.raises(UnknownPaytableError, match="commission"):
        banker.paytable("8-to-1", 8)
    assert [t.key for t in get_wager("cover-all").paytables()] == ["A", "B"]


def test_base_pays_are_marked_as_not_printed_in_the_regulation() -> None:
    for wager in ("player", "banker", "tie"):
        for table in get_wager(wager).paytables():
            assert not table.regulation
            assert "industry" in table.citation
    assert all(t.regulation for t in get_wager("fortune-7").paytables())


def test_cover_all_par_sheet_says_how_a_two_card_blazing_7s_is_paid() -> None:
    rows_a = exact_parsheet(get_wager("cover-all"), "A", decks=8).rows
    rows_b = exact_parsheet(get_wager("cover-all"), "B", decks=8).rows
    assert rows_a[1].pays == "N/A (loses)"
    assert rows_b[1].pays == "6 to 1 (paid as Cover All)"
    assert rows_a[1].combinations == rows_b[1].combinations
