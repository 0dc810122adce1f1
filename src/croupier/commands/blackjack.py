"""Blackjack commands: the dealer-outcome table, AxMan given the player's cards, settling a round.

``croupier dealer`` prints the exact probability of each dealer result by upcard (the table every
blackjack analyst publishes); ``croupier axman CARDS`` the exact AxMan figures given the player's two
cards (and the upcard); ``croupier blackjack-round`` settles a dealt round's AxMan and Jackpot Party
wagers (58 Pa. Code § 633c.12, § 633b.2).
"""

from __future__ import annotations

import difflib
import json
from typing import Annotated, Any

import typer
from rich.table import Table

from croupier.analysis.axman import axman_given
from croupier.cards import parse_card, parse_cards
from croupier.commands.common import JsonFlag, _meter_arg, _money, app, out
from croupier.errors import InputError
from croupier.games.blackjack import (
    BlackjackRules,
    DealerCompletion,
    DealerResult,
    SoftSeventeen,
    dealer_results_by_upcard,
)
from croupier.paytables import MeterLevel
from croupier.units import format_money
from croupier.wagers.at_table import RoundSettlement
from croupier.wagers.base import Settlement
from croupier.wagers.blackjack_round import BlackjackDeal, describe_round, settle_round

DecksOption = Annotated[int, typer.Option("--decks", "-d", min=1, help="Decks in the shoe.")]
H17Option = Annotated[
    bool, typer.Option("--h17", help="The dealer hits soft 17 (default: stands, PA's rule).")
]


def _rules(decks: int, h17: bool) -> BlackjackRules:
    return BlackjackRules(decks=decks, soft_17=SoftSeventeen.HITS if h17 else SoftSeventeen.STANDS)


@app.command()
def dealer(
    decks: DecksOption = 6,
    h17: H17Option = False,
    peeked: Annotated[
        bool,
        typer.Option(
            "--peeked",
            help="Given the dealer has no Blackjack (after the peek), as players see it.",
        ),
    ] = False,
    json_out: JsonFlag = False,
) -> None:
    """Exact probability of the dealer's final result (17–21, Blackjack, bust) by upcard."""
    rules = _rules(decks, h17)
    table = dealer_results_by_upcard(rules, peeked=peeked)
    if json_out:
        data = {
            "rules": rules.describe(),
            "peeked": peeked,
            "upcards": {
                up: {r.value: float(p) for r, p in results.items()} for up, results in table.items()
            },
            "upcards_exact": {
                up: {r.value: str(p) for r, p in results.items()} for up, results in table.items()
            },
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    t = Table(
        title=f"Dealer's final result by upcard · {rules.describe()}"
        + (" · after the peek (no dealer Blackjack)" if peeked else " · before the peek"),
        title_justify="left",
        caption="exact, from the dealer's final-hand distribution over the shoe less the upcard",
        caption_justify="left",
    )
    t.add_column("Upcard")
    columns = [r for r in DealerResult if not (peeked and r is DealerResult.BLACKJACK)]
    for r in columns:
        t.add_column(r.value, justify="right")
    for up, results in table.items():
        t.add_row(up, *(f"{float(results[r]):.6f}" for r in columns))
    out.print(t)


@app.command()
def axman(
    cards: Annotated[str, typer.Argument(help="The player's initial two cards, e.g. 'Kd 7c'.")],
    decks: DecksOption = 6,
    h17: H17Option = False,
    upcard: Annotated[
        str | None, typer.Option("--upcard", help="The dealer's upcard, if known.")
    ] = None,
    json_out: JsonFlag = False,
) -> None:
    """Exact AxMan figures (§ 633c.12) given the player's two cards: each hand's probability,
    the king-of-diamonds multiplier and the expected return."""
    rules = _rules(decks, h17)
    a = axman_given(parse_cards(cards), rules, parse_card(upcard) if upcard else None)
    if json_out:
        print(json.dumps(a.to_dict(), indent=2, ensure_ascii=False))
        return
    shown = f" · dealer shows {a.upcard}" if a.upcard else ""
    t = Table(
        title=f"AxMan · 58 Pa. Code § 633c.12 · player {cards}{shown} · {rules.describe()}",
        title_justify="left",
        caption="exact, from the dealer's final-hand distribution over the shoe less the "
        "player's cards" + (" and the upcard" if a.upcard else ""),
        caption_justify="left",
    )
    for col in ("Dealer's hand", "Net win", "Probability", "Return"):
        t.add_column(col, justify="left" if col == "Dealer's hand" else "right")
    for row in a.to_dict()["hands"]:
        t.add_row(
            row["hand"],
            f"{row['net_win']:+g}",
            f"{row['probability']:.8f}",
            f"{row['probability'] * row['net_win']:+.6f}",
        )
    out.print(t)
    out.print(
        f"multiplier ×{a.factor} · win probability {float(a.win_probability):.4%} · expected "
        f"return {float(a.expected_return):+.6f} per unit wagered"
    )


ROUND_WAGERS = ("axman", "jackpot-party")
"""The wagers ``croupier blackjack-round`` settles (``--bet SEAT:WAGER=DOLLARS``)."""


def _wager_id(text: str, option: str, known: tuple[str, ...]) -> str:
    wager = text.strip().lower()
    if wager in known:
        return wager
    near = difflib.get_close_matches(wager, known, n=1)
    hint = f"did you mean {near[0]!r}? " if near else ""
    raise InputError(
        f"{option}: no wager {text.strip()!r} here; {hint}give one of {', '.join(known)}"
    )


def seat_bets(specs: list[str] | None) -> dict[str, dict[int, int]]:
    """``--bet SEAT:WAGER=DOLLARS`` values → wager id → seat → cents.

    >>> seat_bets(["1:axman=5", "3:jackpot-party=$1"])
    {'axman': {1: 500}, 'jackpot-party': {3: 100}}

    :class:`~croupier.errors.InputError` for another shape, a wager this command does not
    settle (with a "did you mean") or an amount that is not dollars and cents."""
    bets: dict[str, dict[int, int]] = {}
    for spec in specs or []:
        where, sep, amount = spec.partition("=")
        seat, colon, wager = where.partition(":")
        if not sep or not colon or not seat.strip().isdigit():
            raise InputError(f"--bet takes SEAT:WAGER=DOLLARS, e.g. 1:axman=5, not {spec!r}")
        wager_id = _wager_id(wager, "--bet", ROUND_WAGERS)
        cents = _money(amount, f"--bet {seat.strip()}:{wager_id}")
        assert cents is not None
        bets.setdefault(wager_id, {})[int(seat)] = cents
    return bets


def wager_paytables(specs: list[str] | None) -> dict[str, str]:
    """``--paytable WAGER=ID`` values → wager id → paytable id.

    >>> wager_paytables(["jackpot-party=P10"])
    {'jackpot-party': 'P10'}
    """
    tables: dict[str, str] = {}
    for spec in specs or []:
        wager, sep, key = spec.partition("=")
        if not sep or not key.strip():
            raise InputError(
                f"--paytable takes WAGER=PAYTABLE, e.g. jackpot-party=P10, not {spec!r}"
            )
        tables[_wager_id(wager, "--paytable", ("jackpot-party",))] = key.strip()
    return tables


def _settlement_dict(s: Settlement | None) -> dict[str, Any] | None:
    if s is None:
        return None
    return {
        "outcome": s.outcome.key if s.outcome else None,
        "paid_as": s.line.label if s.line else None,
        "pays": str(s.line.pays) if s.line else None,
        "multiplier": s.factor,
        "amount": format_money(s.amount_cents),
        "amount_cents": s.amount_cents,
        "win": format_money(s.win_cents),
        "win_cents": s.win_cents,
        "returned": format_money(s.returned_cents),
        "returned_cents": s.returned_cents,
        "pending_validation": s.pending_validation,
        "section": f"58 Pa. Code § {s.section}",
    }


@app.command(name="blackjack-round")
def blackjack_round(
    dealer_cards: Annotated[
        str,
        typer.Option(
            "--dealer",
            help="The dealer's cards in dealing order: upcard, hole card, every card drawn "
            "(bust card included), e.g. 'Qs 5h Kd'.",
        ),
    ],
    players: Annotated[
        list[str],
        typer.Option(
            "--player",
            help="A seat's initial two cards, from the dealer's left (seat 1); repeat per seat.",
        ),
    ],
    decks: DecksOption = 6,
    h17: H17Option = False,
    bets: Annotated[
        list[str] | None,
        typer.Option(
            "--bet",
            help="A wager, SEAT:WAGER=DOLLARS (e.g. 1:axman=5, 2:jackpot-party=5; Jackpot "
            "Party takes $1 or $5); repeatable.",
        ),
    ] = None,
    paytables: Annotated[
        list[str] | None,
        typer.Option(
            "--paytable",
            "-p",
            help="A wager's paytable, WAGER=ID (e.g. jackpot-party=P1 at six decks).",
        ),
    ] = None,
    meter: Annotated[
        str | None,
        typer.Option(
            "--meter", help="Jackpot Party meter in dollars, or 'Mega=60000,…' (default: seeds)."
        ),
    ] = None,
    dealer_stops: Annotated[
        bool,
        typer.Option(
            "--dealer-stops-without-live-hands",
            help="Read the dealer as not drawing when no player hand is live (the alternative "
            "reading; default: the dealer always completes the hand).",
        ),
    ] = False,
    json_out: JsonFlag = False,
) -> None:
    """Settle a dealt Blackjack round's AxMan (§ 633c.12) and Jackpot Party (§ 633b.2) wagers."""
    rules = _rules(decks, h17)
    if dealer_stops:
        rules = BlackjackRules(
            rules.decks, rules.soft_17, dealer_completion=DealerCompletion.ONLY_WITH_LIVE_HANDS
        )
    rnd = BlackjackDeal.parse(dealer_cards, players)
    meters = _meter_arg(meter)
    if isinstance(meters, int):
        meters = {MeterLevel.PROGRESSIVE: meters}
    placed = seat_bets(bets)
    results = settle_round(
        rnd,
        rules,
        axman_cents=placed.get("axman", {}),
        jackpot_party_cents=placed.get("jackpot-party", {}),
        jackpot_party_paytable=wager_paytables(paytables).get("jackpot-party"),
        meter_cents=meters,
    )
    if json_out:
        data = {
            "rules": rules.describe(),
            "dealer": [str(c) for c in rnd.dealer],
            "seats": [
                {
                    "seat": r.seat,
                    "cards": [str(c) for c in rnd.players[r.seat - 1]],
                    "jackpot_party": _settlement_dict(r.jackpot_party),
                    "axman": _settlement_dict(r.axman),
                    "envy": format_money(r.envy_cents),
                    "envy_cents": r.envy_cents,
                    "net": format_money(r.net_cents),
                    "net_cents": r.net_cents,
                }
                for r in results
            ],
            "settlement": RoundSettlement(tuple(x for r in results for x in r.lines())).to_json(),
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    out.print(f"{describe_round(rnd)} · {rules.describe()}")
    for r in results:
        out.print(r.describe())
        for s in (r.jackpot_party, r.axman):
            if s is not None and s.pending_validation:
                out.print(
                    f"  A floorperson or above must validate the seat {r.seat} progressive payout "
                    "before it is paid (58 Pa. Code § 633b.2(h)(3)); its pay here is valued at "
                    "the meter's seed, and the progressive meter decides the pay."
                )
