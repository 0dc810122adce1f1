"""Settling a dealt Blackjack round's AxMan and Jackpot Party Progressive wagers.

A round is given as the dealer's cards in dealing order (upcard, hole card, every card drawn, the
bust card included) and each player's initial two cards, seats numbered from the dealer's left
(seat 1 is first base). :func:`settle_round` checks the whole round first — the dealer's hand
follows the drawing rule (§ 633a.7), a shoe of the table's decks holds every card, each wager is
allowed (AxMan at 6 or 8 decks, § 633c.12(a); a Jackpot Party paytable for the table's deck count
and a $1 or $5 wager, § 633b.2(b), (e), (i)) — and only then settles, so a rejected round changes
nothing. Wagers are settled from the player farthest to the dealer's right, counterclockwise
(§ 633c.12(e)): seats in descending order.

Jackpot Party is read on the player's two cards and the dealer's first two (§ 633b.2(a), (g)); a
player holding the wager also receives the paytable's envy bonus for each Royal Flush made by
*another* player holding the wager (§ 633b.2(i), "Pays w/ Envy"). AxMan is read on the dealer's
whole hand and the player's kings of diamonds (§ 633c.12(e)–(j)).

>>> from croupier.cards import parse_cards
>>> from croupier.games.blackjack import BlackjackRules
>>> rnd = BlackjackDeal.parse(dealer="Qs 5h Kd", players=["Kd 7c", "As Ah"])  # Q-5, K♦ busts
>>> for s in settle_round(rnd, BlackjackRules(6), axman_cents={1: 500, 2: 500}):
...     print(s.describe())
seat 2: AxMan As Ah Qs 5h Kd: Jacks or better pair pays 5 to 1; +$25 on $5
seat 1: AxMan Kd 7c Qs 5h Kd: Jacks or better pair pays 5 to 1 ×2; +$50 on $5
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from croupier.cards import Card, Shoe, format_cards, parse_cards
from croupier.errors import CardError, InputError
from croupier.games.blackjack import BlackjackRules, check_dealer_hand
from croupier.paytables import MeterLevel, Paytable
from croupier.units import format_money
from croupier.wagers.at_table import SettlementLine
from croupier.wagers.axman import axman_for
from croupier.wagers.base import ProgressiveStake, Settlement, line_of
from croupier.wagers.jackpot_party import ENVY_RULE, JackpotParty, envy_bonuses, envy_sources


@dataclass(frozen=True)
class BlackjackDeal:
    """A dealt Blackjack round: the dealer's cards in dealing order and each seat's initial two
    cards (``players[0]`` is seat 1, first base, at the dealer's left)."""

    dealer: tuple[Card, ...]
    players: tuple[tuple[Card, Card], ...]

    @staticmethod
    def parse(dealer: str, players: Iterable[str]) -> BlackjackDeal:
        """A round from card text, e.g. ``BlackjackDeal.parse("Kd 6s 9h", ["Kd 7c", "As Ah"])``.

        Raises :class:`CardError` naming the bad token or a player hand that is not two cards.
        """
        seats: list[tuple[Card, Card]] = []
        for i, text in enumerate(players, start=1):
            cards = parse_cards(text)
            if len(cards) != 2:
                raise CardError(
                    f"seat {i}: a player's initial hand is two cards, got {len(cards)}", text
                )
            seats.append((cards[0], cards[1]))
        return BlackjackDeal(parse_cards(dealer), tuple(seats))

    def cards(self) -> tuple[Card, ...]:
        """Every card of the round."""
        return tuple(c for p in self.players for c in p) + self.dealer


@dataclass(frozen=True)
class SideWagerSettlement:
    """One seat's settled wagers: the AxMan and Jackpot Party settlements (``None`` when not
    placed) and the envy bonuses it receives, with the seats whose hands paid them."""

    seat: int
    axman: Settlement | None
    jackpot_party: Settlement | None
    envy_cents: int = 0
    envy_from: tuple[int, ...] = ()
    envy: tuple[tuple[int, str, int], ...] = ()
    """Each envy bonus: (the seat whose hand paid it, that hand's paytable label, integer
    cents) — :func:`~croupier.wagers.jackpot_party.envy_sources`."""

    @property
    def net_cents(self) -> int:
        """The seat's net result over both wagers and envy bonuses."""
        return (
            (self.axman.win_cents if self.axman else 0)
            + (self.jackpot_party.win_cents if self.jackpot_party else 0)
            + self.envy_cents
        )

    def lines(self) -> tuple[SettlementLine, ...]:
        """The seat's settlement lines (the table's record): Jackpot Party, each envy bonus a
        line of its own naming the seat it comes from (§ 633b.2(i)), then AxMan."""
        out = []
        if self.jackpot_party is not None:
            out.append(line_of(self.seat, self.jackpot_party))
            out += (
                SettlementLine.envy_bonus(self.seat, JackpotParty.id, src, hand, cents, ENVY_RULE)
                for src, hand, cents in self.envy
            )
        if self.axman is not None:
            out.append(line_of(self.seat, self.axman))
        return tuple(out)

    def describe(self) -> str:
        """One line per settled wager, prefixed with the seat."""
        parts = []
        if self.jackpot_party is not None:
            parts.append(f"Jackpot Party {self.jackpot_party.describe()}")
        if self.axman is not None:
            parts.append(f"AxMan {self.axman.describe()}")
        if self.envy_cents:
            seats = ", ".join(map(str, self.envy_from))
            parts.append(f"envy {format_money(self.envy_cents)} (seat {seats})")
        return f"seat {self.seat}: " + "; ".join(parts)


def settle_round(
    rnd: BlackjackDeal,
    rules: BlackjackRules,
    axman_cents: Mapping[int, int] | None = None,
    jackpot_party_cents: Mapping[int, int] | None = None,
    jackpot_party_paytable: str | Paytable | None = None,
    meter_cents: Mapping[MeterLevel, int] | None = None,
    stake: ProgressiveStake = ProgressiveStake.COLLECTED,
) -> tuple[SideWagerSettlement, ...]:
    """Settle the AxMan and Jackpot Party wagers of a dealt round, in settlement order.

    ``axman_cents`` and ``jackpot_party_cents`` map seat numbers (1 = first base) to wager amounts
    in cents. Raises :class:`CardError`, :class:`~croupier.errors.ShoeError`,
    :class:`~croupier.errors.RulesError`, :class:`~croupier.errors.UnknownPaytableError` or
    :class:`InputError` before settling anything.
    """
    axman_cents = dict(axman_cents or {})
    jp_cents = dict(jackpot_party_cents or {})
    seats = len(rnd.players)
    for what, wagers in (("AxMan", axman_cents), ("Jackpot Party", jp_cents)):
        for seat in wagers:
            if not 1 <= seat <= seats:
                raise InputError(f"{what} wager at seat {seat}, but the round has seats 1–{seats}")
    if jp_cents and jackpot_party_paytable is None:
        raise InputError("Jackpot Party wagers need a paytable (e.g. P1)")
    check_dealer_hand(rnd.dealer, rules)
    Shoe.standard(rules.decks).check_deal(rnd.cards())
    axman = axman_for(rules)
    jp = JackpotParty()
    table = None
    if jackpot_party_paytable is not None:
        table = (
            jackpot_party_paytable
            if isinstance(jackpot_party_paytable, Paytable)
            else jp.paytable(jackpot_party_paytable, rules.decks)
        )
    ax_table = axman.paytable("standard", rules.decks) if axman_cents else None
    # check every wager before settling any (a rejected round changes nothing)
    jp_results: dict[int, Settlement] = {}
    ax_results: dict[int, Settlement] = {}
    meters = dict(meter_cents) if meter_cents else None
    for seat, cents in jp_cents.items():
        assert table is not None
        cards = rnd.players[seat - 1] + rnd.dealer[:2]
        jp_results[seat] = jp.settle(cards, table, cents, rules.decks, meters, stake)
    for seat, cents in axman_cents.items():
        assert ax_table is not None
        cards = rnd.players[seat - 1] + rnd.dealer
        ax_results[seat] = axman.settle(cards, ax_table, cents, rules.decks)
    envy = envy_bonuses(jp_results)
    sources = envy_sources(jp_results)
    return tuple(
        SideWagerSettlement(
            seat,
            ax_results.get(seat),
            jp_results.get(seat),
            *envy.get(seat, (0, ())),
            sources.get(seat, ()),
        )
        for seat in sorted(set(jp_cents) | set(axman_cents), reverse=True)
    )


def describe_round(rnd: BlackjackDeal) -> str:
    """The round in one line: the dealer's cards, then each seat's."""
    seats = "; ".join(f"seat {i}: {format_cards(p)}" for i, p in enumerate(rnd.players, 1))
    return f"dealer: {format_cards(rnd.dealer)}; {seats}"


def seats_with(amount_cents: int, seats: Sequence[int]) -> dict[int, int]:
    """The same wager amount at each of ``seats``."""
    return dict.fromkeys(seats, amount_cents)
