"""Four Card Poker wagers — 58 Pa. Code § 641a.7(d), and settling a dealt round.

* ``four-card-poker`` — the Ante and Play (§ 641a.7(d)(1)): the player's best four of five against
  the dealer's best four of six; Play of one to three times the Ante or fold; the dealer always
  qualifies; a tie goes to the player; Ante bonus on three-of-a-kind or better. Its par sheet is
  that of the optimal strategy (:class:`~croupier.games.four_card_poker.AntePlayStrategy`), per
  unit of the Ante.
* ``aces-up`` (§ 641a.7(d)(2)) — the player's best four, pair of aces or better.
* ``four-card-progressive`` (§ 641a.7(d)(4)) — a four-card three-of-a-kind or better (§ 641a.1).
* ``five-card-progressive`` (§ 641a.7(d)(5)) — a five-card three-of-a-kind or better.
* ``bad-beat-bonus`` (§ 641a.7(d)(6)) — a losing hand of two pair or better, paid on its rank.
* ``five-card-hand-bonus`` / ``five-card-hand-bonus-dealer`` (§ 641a.7(d)(7)) — a flush or better
  in the player's five cards / the dealer's five-card hand (best five of six).
* ``six-card-bonus`` (§ 641a.7(d)(8)) — the player's five and the Six Card Bonus card,
  three-of-a-kind or better (best five of the six).

The Ante bonus and the Aces Up table are shipped as data (not PA text); every other table comes
from the operator, and croupier ships clearly labelled EXAMPLE tables
(``paytables/examples/641a.7-examples.toml``) loaded as not printed in the regulation.

>>> from croupier.cards import parse_cards
>>> rnd = settle_round(parse_cards("9h 9c 9d Ks 2s"), parse_cards("Ah Ad 7c 7s 3d 4h"),
...                    FourCardPokerBets(ante_cents=500, play_cents=1500, aces_up_cents=500))
>>> [(s.name, s.win_cents) for s in rnd.results]   # 1 + 3 Antes won, 2 to 1 bonus; 8 to 1
[('Ante', 500), ('Play', 1500), ('Ante bonus', 1000), ('Aces Up', 4000)]
"""

from croupier.paytables import MeterLevel, MeterShare
from croupier.poker.five_card import evaluate_five
from croupier.wagers.four_card_poker.ante_play import (
    DEFAULT_PAYTABLES,
    AntePlay,
    AntePlayOutcome,
    FourCardPokerSettlement,
    WagerResult,
    settle_round,
)
from croupier.wagers.four_card_poker.common import (
    BONUS_CARD,
    DEALER,
    DEALER_DOWN,
    PLAYER,
    SECTION,
    UPCARD,
    FourCardPokerBets,
    FourCardPokerWager,
    _subset_categories,
    example_paytables,
)
from croupier.wagers.four_card_poker.side import (
    AcesUp,
    AcesUpOutcome,
    BadBeatBonus,
    BadBeatOutcome,
    FiveCardBonusOutcome,
    FiveCardHandBonus,
    FiveCardHandBonusDealer,
    FiveCardProgressive,
    FiveCardProgressiveOutcome,
    FourCardProgressive,
    FourCardProgressiveOutcome,
    SixCardBonus,
    SixCardBonusOutcome,
)

__all__ = [
    "BONUS_CARD",
    "DEALER",
    "DEALER_DOWN",
    "DEFAULT_PAYTABLES",
    "PLAYER",
    "SECTION",
    "UPCARD",
    "AcesUp",
    "AcesUpOutcome",
    "AntePlay",
    "AntePlayOutcome",
    "BadBeatBonus",
    "BadBeatOutcome",
    "FiveCardBonusOutcome",
    "FiveCardHandBonus",
    "FiveCardHandBonusDealer",
    "FiveCardProgressive",
    "FiveCardProgressiveOutcome",
    "FourCardPokerBets",
    "FourCardPokerSettlement",
    "FourCardPokerWager",
    "FourCardProgressive",
    "FourCardProgressiveOutcome",
    "MeterLevel",
    "MeterShare",
    "SixCardBonus",
    "SixCardBonusOutcome",
    "WagerResult",
    "_subset_categories",
    "evaluate_five",
    "example_paytables",
    "settle_round",
]
