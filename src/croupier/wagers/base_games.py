"""The base games croupier runs rounds of, as the table needs to know them: their base wagers, the
ones croupier records without settling, and the paragraphs of their procedure — data of the
table, not of any wager (no wager module imports this one, so a change to a citation here leaves
the stored counts' fingerprints, :func:`croupier.analysis.precomputed.fingerprint`, as they were).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from croupier.errors import InputError
from croupier.wagers.at_table import TableGame


class SettledBy(Enum):
    """Who settles a round's base game (its ``"base_game"``): croupier (the default), or the
    table's own system (``"external"``: croupier records each base wager as the base game's, with
    no win, and settles the wagers around it). Chosen by the request, never by what its steps
    happen to record (docs/interpretations.md)."""

    CROUPIER = "croupier"
    EXTERNAL = "external"

    @classmethod
    def parse(cls, value: object) -> SettledBy:
        """``"croupier"`` or ``"external"`` (or a :class:`SettledBy`); :class:`InputError`
        otherwise."""
        if isinstance(value, SettledBy):
            return value
        for member in cls:
            if value == member.value:
                return member
        raise InputError(f'base_game is "croupier" or "external", not {value!r}')


@dataclass(frozen=True)
class BaseGame:
    """What the table needs to know of a base game: its base wagers (one of which a table offers,
    § 601a.2), those croupier records without settling (id → the section that settles them, and
    why), the wager a decision after the cards is made on (the Ante's Play or fold) and its
    paragraph, the cards each player and the dealer are dealt (``None``: no fixed number), and
    the paragraphs of its procedure, lock-out, deal and of the adjacent boxes a player may wager
    on (``None``: the game has no such rule)."""

    base_wagers: tuple[str, ...]
    procedure_rule: str
    lockout_rule: str
    deal_rule: str
    hand_size: int | None
    dealer_size: int | None = None
    recorded: Mapping[str, str] = field(default_factory=dict)
    recorded_why: str = ""
    decision_wager: str | None = None
    decision_rule: str | None = None
    adjacent_boxes_rule: str | None = None
    wager_rule: str | None = None
    """The paragraph requiring a base wager before the deal (§ 633a.6(d)); ``None``: the
    procedure's."""
    own_procedure: str | None = None
    """The base game's own section for dealing and completing a round, which the procedure's and
    deal's paragraphs (those of a side wager's section: § 633b.1(d), § 674b.1(c)) refer to — cited
    in their stead at a table that offers no wager of that section (the deal, a refusal out of
    phase); ``None``: the procedure's paragraph is the base game's own."""
    own_settlement: str | None = None
    """The base game's own section for settling a round, cited in the procedure's stead at a
    table that offers no wager of its section (the "round settled" record); ``None``:
    :attr:`own_procedure`."""
    croupier_settles: bool = True
    """Whether croupier can settle the base game (``"base_game": "croupier"``); ``False``: only
    the table's own system does (Criss-Cross Poker: croupier does not play its hands), so a
    round there declares ``"external"``."""

    @property
    def external_allowed(self) -> bool:
        """Whether a round may declare its base game external: the game has base wagers croupier
        can record as the base game's (:attr:`recorded`)."""
        return bool(self.recorded)


BASE_GAMES: Mapping[TableGame, BaseGame] = {
    TableGame.BLACKJACK: BaseGame(
        ("blackjack",),
        procedure_rule="633b.1(d)",
        lockout_rule="633b.2(d)(2)",
        deal_rule="633b.1(d)",
        hand_size=2,
        recorded={"blackjack": "633a.6(d)"},
        recorded_why="the Blackjack wager is settled by the table's own system",
        wager_rule="633a.6(d)",
        own_procedure="633a.7",  # § 633b.1(d): "in accordance with § 633a.7(a)—(f)"
    ),
    TableGame.BACCARAT: BaseGame(
        ("player", "banker", "tie"),
        procedure_rule="631c.3(c)",
        lockout_rule="631c.3(c)",
        deal_rule="631a.9",
        hand_size=None,
        wager_rule="631a.8(a)",
        own_procedure="631a.9",  # § 631c.3(d): "in accordance with § 631a.9(b)—(f)"
        own_settlement="631a.12",  # § 631c.3(d): "§ § 631a.10—631a.12", payment of wagers
    ),
    TableGame.FOUR_CARD_POKER: BaseGame(
        ("four-card-poker",),
        procedure_rule="641a.7(c)",
        lockout_rule="641a.7(c)",
        deal_rule="641a.7(d)",
        hand_size=5,
        dealer_size=6,
        decision_wager="four-card-poker",
        decision_rule="641a.7(d)(1)",
        adjacent_boxes_rule="641a.7(e)",
    ),
    TableGame.CRISS_CROSS_POKER: BaseGame(
        ("criss-cross",),
        procedure_rule="674b.1(c)",
        lockout_rule="674b.1(c)",
        deal_rule="674b.1(c)",
        hand_size=2,
        recorded={"criss-cross": "674a.7(d)"},
        wager_rule="674a.7(d)",
        recorded_why="the Criss-Cross Poker wagers are settled by the base game",
        own_procedure="674a.11",  # § 674b.1(c), (d): "in accordance with § 674a.11"
        croupier_settles=False,
    ),
}
"""The base games croupier runs rounds of: the Blackjack wager
(§ 633a.6(d)), the Baccarat wagers (§ 631a.8(a)), the Ante (§ 641a.7(d)(1), registered as
``four-card-poker``: Ante and Play) and the Criss-Cross Poker wagers (§ 674a.7(d))."""

RECORDED_BASE: Mapping[str, str] = {
    wager: section for g in BASE_GAMES.values() for wager, section in g.recorded.items()
}
"""Base wagers croupier records but does not settle (the players' decisions are not recorded) →
the section that settles them."""
