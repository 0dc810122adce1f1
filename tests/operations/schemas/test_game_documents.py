"""The game commands' ``--json`` output is an instance of its model (``Model.model_validate``),
the model gives it back unchanged, and it matches the schema file generated from the model."""

from __future__ import annotations

import pytest

from document_support import check_document
from repo_paths import ROOT

BLACKJACK = str(ROOT / "examples" / "submissions" / "blackjack-6deck.toml")

CASES: list[tuple[str, list[str]]] = [
    ("hand", ["hand", "match-the-dealer", "7h 7c 7h", "-p", "1", "-d", "6"]),
    ("hand", ["hand", "perfect-pairs", "7h 8c", "-p", "A", "-d", "6"]),
    ("hand", ["hand", "banker", "Ks 4h 2d Qc 3h 3s", "-p", "commission", "-d", "8", "-a", "25.10"]),
    ("baccarat", ["baccarat", "-c", "Ks 4h 2d Qc 3h 3s"]),
    ("baccarat", ["baccarat", "-c", "Ks 4h 2d Qc 3h 3s", "--bet", "banker=25", "--bet", "tie=5"]),
    # a natural: neither hand draws, so "drew" is null (the hand-written schema said string)
    ("baccarat", ["baccarat", "-c", "9s 8h 2d Qc", "--bet", "player=10"]),
    (
        "four-card-poker",
        [
            "four-card-poker",
            *("9h 9c 9d Ks 2s", "Ah Kd 3c 4c 5s 7h"),
            *("--bet", "ante=10", "--bet", "play=best", "--bet", "aces-up=5"),
        ],
    ),
    ("axman", ["axman", "Kd Kd", "--upcard", "Qs"]),
    ("axman", ["axman", "8s 8d"]),
    ("dealer", ["dealer", "--decks", "1"]),
    (
        "blackjack-round",
        [
            "blackjack-round",
            *("--dealer", "Ad Kd", "--player", "Qd Jd", "--player", "9s 9h"),
            *("--bet", "1:blackjack=10", "--bet", "2:blackjack=10"),
            *("--bet", "1:jackpot-party=5", "--bet", "2:jackpot-party=5"),
            *("--paytable", "jackpot-party=P10"),
        ],
    ),
    ("play", ["play", "--submission", BLACKJACK, "--seed", "3", "--rounds", "2"]),
]


@pytest.mark.parametrize(("name", "args"), CASES, ids=[" ".join(a[:2]) for _, a in CASES])
def test_game_command_json_is_an_instance_of_its_model(name: str, args: list[str]) -> None:
    check_document(name, args)


def test_a_hand_is_validated_by_the_model_itself() -> None:
    from croupier.operations.schemas.games import HandResult

    data = check_document("hand", ["hand", "perfect-pairs", "7h 7h", "-p", "A", "-d", "6"])
    hand = HandResult.model_validate(data)
    assert (hand.win_cents, hand.settlement.lines[0].outcome_key) == (12_500, "perfect-pair")


def test_a_baccarat_natural_draws_no_third_card() -> None:
    from croupier.operations.schemas.games import BaccaratCoup

    # Player 9s 2d = 1, Banker 8h Qc = 8: the Banker's natural stops the draw
    data = check_document("baccarat", ["baccarat", "-c", "9s 8h 2d Qc"])
    coup = BaccaratCoup.model_validate(data)
    assert coup.banker.natural and (coup.player.drew, coup.banker.drew) == (None, None)
    assert coup.settlement is None and coup.wagers[0].amount_cents is None
