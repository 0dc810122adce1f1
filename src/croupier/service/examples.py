"""The examples the OpenAPI document shows (and the README's curl flow uses)."""

from __future__ import annotations

from typing import Any

SUBMISSION_EXAMPLE: dict[str, Any] = {
    "game": "blackjack",
    "name": "BJ-1",
    "decks": 6,
    "dealer": "S17",
    "wagers": [
        {"wager": "blackjack", "min": "$10", "max": "$1,000"},
        {"wager": "perfect-pairs", "paytable": "A", "min": "$5", "max": "$100"},
    ],
}
"""A six-deck Blackjack table with Perfect Pairs (§ 633b.1)."""

ROUND_EXAMPLE: dict[str, Any] = {
    "id": "r1",
    "base_game": "external",
    "submission": SUBMISSION_EXAMPLE,
    "steps": [
        {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25"},
        {"action": "bet", "seat": 3, "wager": "perfect-pairs", "amount": "$5"},
        {"action": "no-more-bets"},
        {"action": "deal", "players": {"3": "8s 8s"}, "dealer": "Kd 9c"},
        {"action": "settle"},
    ],
}
"""A round at a hybrid table whose own system settles the Blackjack wager (``"base_game":
"external"``): a perfect pair of eights, paid 25 to 1 under paytable A (§ 633b.1(e)), and the
Blackjack wager recorded as the base game's, with no win."""

STEP_EXAMPLES: dict[str, dict[str, Any]] = {
    "bet": {
        "summary": "A wager at a seat",
        "value": {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25"},
    },
    "no-more-bets": {"summary": "The lock-out", "value": {"action": "no-more-bets"}},
    "deal": {
        "summary": "The cards dealt",
        "value": {"action": "deal", "players": {"3": "8s 8s"}, "dealer": "Kd 9c"},
    },
    "hit": {
        "summary": "A hit: the card dealt (`card`, one)",
        "value": {"action": "hit", "seat": 3, "card": "5d"},
    },
    "stand": {"summary": "A player's decision", "value": {"action": "stand", "seat": 3}},
    "double": {
        "summary": "A double: the one card dealt (`amount` to double for less)",
        "value": {"action": "double", "seat": 3, "card": "Th"},
    },
    "split": {"summary": "A split of a pair", "value": {"action": "split", "seat": 3}},
    "dealer-draw": {
        "summary": "The dealer's draws, in order (`cards`; one may be `card`)",
        "value": {"action": "dealer-draw", "cards": "5h Kd"},
    },
    "settle": {"summary": "Settle the round", "value": {"action": "settle"}},
}
"""One example of each kind of step; a field a step's action does not read is refused
(each action's model, :mod:`croupier.table.steps`)."""
