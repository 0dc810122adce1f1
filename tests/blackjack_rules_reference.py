"""Published Blackjack house edges by rule set, for a continuous shuffler (no cut card), in percent of
the initial wager — the figures tests/analysis/test_blackjack_exact.py holds croupier to.

Sources:

* ``HOPPE``: H. Hoppe, "bjnb: Blackjack Notebook", github.com/hhoppe/blackjack (blackjack.py /
  blackjack.ipynb, section "House edge results"), its exact probabilistic analysis ("prob") at
  ``EFFORT=3``, ``cut_card=0``: ``analyze_number_of_decks(Rules(cut_card=0))`` and
  ``Rules(hit_soft17=False, cut_card=0)`` (basic strategy), the same with
  ``COMPOSITION_DEPENDENT_STRATEGY``, ``explore_rule_variations(Rules(num_decks=8 | 1,
  cut_card=0), …)`` and the Play'n GO rule sets (``PLAYNGO_*_RULES``). Printed to 0.001 %.
* ``WIZARD``: the Wizard of Odds' blackjack house-edge calculator
  (https://wizardofodds.com/games/blackjack/calculator/, M. Shackleford, last updated 2015-04-16),
  as Hoppe's notebook reads its table (``WizardHouseEdgeCalculator``: the calculator's
  ``edgeTable``, composition-dependent strategy, no cut card, plus 1.3598 % … for 6 to 5). Its
  *basic-strategy* figures are that table plus Hoppe's two offsets by deck count (basic strategy
  with a cut card, minus the cut card's effect) — an estimate, not a figure the Wizard prints; they
  are listed for the comparison table, and the tests hold croupier to them only for the
  composition-dependent strategy.

Base rules of every row unless the name says otherwise (Hoppe's ``Rules()``): dealer hits soft 17,
peek (a dealer Blackjack takes the original wager only), double on any two cards, double after
split, split to 4 hands, aces split once with one card each, late surrender, Blackjack pays 3 to 2.
"ENHC" is no hole-card peek with every wager lost to a dealer Blackjack (Hoppe's ``obo=False``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from croupier.games.blackjack_rules import DoubleOn, PlayRules


@dataclass(frozen=True)
class Published:
    """One rule set's published house edges (percent; ``None`` where the source has none)."""

    name: str
    rules: PlayRules
    hoppe_basic: float | None
    hoppe_composition: float | None
    wizard_basic: float | None = None
    wizard_composition: float | None = None
    note: str = field(default="")


def rules_of(
    decks: int,
    h17: bool = True,
    *,
    das: bool = True,
    split: int = 4,
    rsa: bool = False,
    hsa: bool = False,
    ls: bool = True,
    peek: bool = True,
    pays: Fraction = Fraction(3, 2),
    double: DoubleOn = DoubleOn.ANY,
) -> PlayRules:
    return PlayRules.of(
        decks, h17, das, split, rsa, hsa, ls, peek=peek, blackjack_pays=pays, double_on=double
    )


DECKS: list[Published] = [
    # analyze_number_of_decks(Rules(cut_card=0)) and (…, COMPOSITION_DEPENDENT_STRATEGY)
    Published("1 deck, H17", rules_of(1), 0.013, -0.030, 0.008, -0.030),
    Published("2 decks, H17", rules_of(2), 0.328, 0.314, 0.328, 0.314),
    Published("4 decks, H17", rules_of(4), 0.480, 0.475, 0.481, 0.475),
    Published("6 decks, H17", rules_of(6), 0.530, 0.527, 0.531, 0.527),
    Published("8 decks, H17", rules_of(8), 0.555, 0.553, 0.555, 0.553),
    # analyze_number_of_decks(Rules(hit_soft17=False, cut_card=0)) (basic); composition-dependent
    # 1 deck S17 from explore_rule_variations(Rules(num_decks=1, cut_card=0), CDS)
    Published("1 deck, S17", rules_of(1, False), -0.161, -0.205, -0.166, -0.205),
    Published("2 decks, S17", rules_of(2, False), 0.144, None, 0.141),
    Published("4 decks, S17", rules_of(4, False), 0.287, None, 0.286),
    Published("6 decks, S17", rules_of(6, False), 0.333, None, 0.334),
    Published("8 decks, S17", rules_of(8, False), 0.357, 0.355, 0.357, 0.355),
]

_VARIATIONS = [
    ("S17", {"h17": False}),
    ("no DAS", {"das": False}),
    ("double on 10-11", {"double": DoubleOn.TEN_OR_ELEVEN}),
    ("split to 2 hands", {"split": 2}),
    ("resplit aces", {"rsa": True}),
    ("hit split aces", {"hsa": True}),
    ("ENHC, no surrender", {"peek": False, "ls": False}),
    ("no surrender", {"ls": False}),
    ("Blackjack pays 6 to 5", {"pays": Fraction(6, 5)}),
]

# explore_rule_variations(Rules(num_decks=8, cut_card=0)) and (…, COMPOSITION_DEPENDENT_STRATEGY):
# (Hoppe basic, Hoppe CD, Wizard basic, Wizard CD)
_EIGHT = [
    (0.357, 0.355, 0.357, 0.355),
    (0.699, 0.697, 0.699, 0.698),
    (0.751, 0.749, 0.752, 0.750),
    (0.609, 0.608, 0.610, 0.608),
    (0.485, 0.483, 0.486, 0.484),
    (0.375, 0.373, 0.368, 0.366),
    (0.758, 0.756, 0.758, 0.756),
    (0.646, 0.645, 0.647, 0.645),
    (1.913, 1.911, 1.913, 1.911),
]
# explore_rule_variations(Rules(num_decks=1, cut_card=0)) and (…, COMPOSITION_DEPENDENT_STRATEGY)
_ONE = [
    (-0.161, -0.205, -0.166, -0.205),
    (0.156, 0.114, 0.152, 0.114),
    (0.314, 0.272, 0.311, 0.272),
    (0.041, -0.001, 0.038, -0.001),
    (-0.019, -0.061, -0.024, -0.062),
    (-0.117, -0.160, -0.132, -0.170),
    (0.162, 0.121, 0.160, 0.121),
    (0.044, 0.008, 0.046, 0.008),
    (1.407, 1.365, 1.403, 1.365),
]

_HSA_NOTE = (
    "Hoppe and the Wizard disagree on hitting split aces; bjstrat.net agrees with Hoppe "
    "(8 decks 0.373 %, 1 deck -0.160 %)"
)

VARIATIONS: list[Published] = [
    Published(
        f"{decks} deck{'s' if decks > 1 else ''}, H17, {name}",
        rules_of(decks, **kwargs),  # type: ignore[arg-type]
        *figures,
        note=_HSA_NOTE if name == "hit split aces" else "",
    )
    for decks, table in ((8, _EIGHT), (1, _ONE))
    for (name, kwargs), figures in zip(_VARIATIONS, table, strict=True)
    if name != "S17" or decks == 8
]

# Hoppe's notebook, "Common casino rules" (basic strategy, cut_card=0), with the Wizard's figure
# as Hoppe quotes it (https://wizardofodds.com/online-gambling/playn-go/).
CASINOS: list[Published] = [
    Published(
        "Play'n GO standard: 6 decks, S17, split to 2 hands, no surrender",
        rules_of(6, False, split=2, ls=False),
        0.460,
        None,
        0.460,
    ),
    Published(
        "Play'n GO European: 6 decks, S17, ENHC, double on 9-11, split to 2 hands, no surrender",
        rules_of(6, False, split=2, ls=False, peek=False, double=DoubleOn.NINE_TO_ELEVEN),
        0.665,
        None,
        0.664,
    ),
    Published(
        "Play'n GO single deck: S17, split to 2 hands, Blackjack pays 6 to 5",
        rules_of(1, False, split=2, pays=Fraction(6, 5)),
        1.263,
        None,
        1.258,
    ),
]

# The Wizard's table itself, to five decimals (Hoppe's WizardHouseEdgeCalculator.test):
# 6 decks, S17, resplit aces, otherwise the base rules, composition-dependent, no cut card.
WIZARD_6D_S17_RSA_COMPOSITION = 0.26197

ALL: list[Published] = DECKS + VARIATIONS + CASINOS
