"""Blackjack commands: the dealer-outcome table, AxMan given the player's cards, settling a round.

``croupier dealer`` prints the exact probability of each dealer result by upcard (the table every
blackjack analyst publishes); ``croupier axman CARDS`` the exact AxMan figures given the player's two
cards (and the upcard); ``croupier blackjack-round`` settles a whole dealt round — the players'
decisions, the Blackjack wagers, AxMan and Jackpot Party (58 Pa. Code Chapter 633a, § 633c.12,
§ 633b.2) — through :class:`~croupier.table.round.TableRound`, into the one settlement record.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.table import Table

from croupier.analysis.axman import axman_given
from croupier.cards import decks_phrase, parse_card, parse_cards
from croupier.commands.common import JsonFlag, app, out
from croupier.errors import InputError, closest
from croupier.games.blackjack import (
    BlackjackRules,
    DealerCompletion,
    DealerResult,
    SoftSeventeen,
    dealer_results_by_upcard,
)
from croupier.operations.presenters.arguments import meter_arg, money
from croupier.paytables import MeterLevel
from croupier.table.submission import RulesSubmission, submission_from_data
from croupier.units import ascii_digits, format_money

if TYPE_CHECKING:
    from croupier.table.round import TableRound

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


def round_wagers() -> tuple[str, ...]:
    """The wagers ``croupier blackjack-round`` settles (``--bet SEAT:WAGER=DOLLARS``): the
    Blackjack wager, then every registered Blackjack side wager (an alias such as ``axman-h17``
    is the table's soft-17 rule, not a wager of its own), in the registry's section order.

    >>> round_wagers()
    ('blackjack', 'perfect-pairs', 'jackpot-party', 'match-the-dealer', 'axman')
    """
    from croupier.wagers import all_wagers
    from croupier.wagers.base import Game

    ids: list[str] = []
    aliased: set[str] = set()
    for w in all_wagers():
        if w.game is Game.BLACKJACK and w.id not in aliased:
            ids.append(w.id)
            aliased.update(w.aliases)
    return ("blackjack", *ids)


MOVES = ("hit", "stand", "double", "split", "surrender")
"""The players' decisions ``--move SEAT:MOVE[:CARD]`` records (Chapter 633a)."""


def _wager_id(text: str, option: str, known: tuple[str, ...]) -> str:
    wager = text.strip().lower()
    if wager in known:
        return wager
    near = closest(wager, known)
    hint = f"did you mean {near!r}? " if near else ""
    raise InputError(
        f"{option}: no wager {text.strip()!r} here; {hint}give one of {', '.join(known)}"
    )


def seat_bets(specs: list[str] | None) -> dict[str, dict[int, int]]:
    """``--bet SEAT:WAGER=DOLLARS`` values → wager id → seat → cents.

    >>> seat_bets(["1:blackjack=10", "1:axman=5", "3:jackpot-party=$1"])
    {'blackjack': {1: 1000}, 'axman': {1: 500}, 'jackpot-party': {3: 100}}

    :class:`~croupier.errors.InputError` for another shape, a wager this command does not
    settle (with a "did you mean") or an amount that is not dollars and cents."""
    bets: dict[str, dict[int, int]] = {}
    for spec in specs or []:
        where, sep, amount = spec.partition("=")
        seat, colon, wager = where.partition(":")
        if not sep or not colon or not ascii_digits(seat.strip()):
            raise InputError(f"--bet takes SEAT:WAGER=DOLLARS, e.g. 1:blackjack=10, not {spec!r}")
        wager_id = _wager_id(wager, "--bet", round_wagers())
        cents = money(amount, f"--bet {seat.strip()}:{wager_id}")
        assert cents is not None
        bets.setdefault(wager_id, {})[int(seat)] = cents
    return bets


def wager_paytables(specs: list[str] | None) -> dict[str, str]:
    """``--paytable WAGER=ID`` values → wager id → paytable id.

    >>> wager_paytables(["jackpot-party=P10"])
    {'jackpot-party': 'P10'}

    :class:`~croupier.errors.InputError` for another shape or a wager without a paytable here.
    """
    tables: dict[str, str] = {}
    for spec in specs or []:
        wager, sep, key = spec.partition("=")
        if not sep or not key.strip():
            raise InputError(
                f"--paytable takes WAGER=PAYTABLE, e.g. jackpot-party=P10, not {spec!r}"
            )
        tables[_wager_id(wager, "--paytable", round_wagers()[1:])] = key.strip()
    return tables


def player_moves(specs: list[str] | None) -> list[tuple[int, str, str | None]]:
    """``--move SEAT:MOVE[:CARD]`` values, in the order given → (seat, move, card text or None).

    >>> player_moves(["1:hit:5d", "1:stand", "2:double:Th"])
    [(1, 'hit', '5d'), (1, 'stand', None), (2, 'double', 'Th')]

    :class:`~croupier.errors.InputError` for another shape or a move that is not one of
    :data:`MOVES` (with a "did you mean")."""
    moves: list[tuple[int, str, str | None]] = []
    for spec in specs or []:
        seat, _, rest = spec.partition(":")
        move, _, card = rest.partition(":")
        if not ascii_digits(seat.strip()) or not move.strip():
            raise InputError(f"--move takes SEAT:MOVE[:CARD], e.g. 1:hit:5d, not {spec!r}")
        name = move.strip().lower()
        if name not in MOVES:
            near = closest(name, MOVES)
            hint = f"did you mean {near!r}? " if near else ""
            raise InputError(
                f"--move: no move {move.strip()!r}; {hint}give one of {', '.join(MOVES)}"
            )
        moves.append((int(seat), name, card.strip() or None))
    return moves


def round_submission(
    decks: int,
    h17: bool,
    seats: int,
    bets: dict[str, dict[int, int]],
    paytables: dict[str, str],
    dealer_stops: bool = False,
) -> RulesSubmission:
    """The Rules Submission of the table ``blackjack-round`` settles at: ``decks`` decks, the
    dealer's soft-17 rule, enough seats, the Blackjack wager, and each side wager placed (AxMan
    under its ``standard`` paytable, Jackpot Party under the one given), limits wide enough for
    the bets placed (the sections' own rules on deck counts and wager sizes still apply).

    Raises :class:`~croupier.errors.SubmissionError` (each violation with its section: AxMan at 2
    decks, a Jackpot Party paytable of another deck count) and :class:`InputError` for Jackpot
    Party without a paytable."""
    from croupier.wagers import get_wager

    wagers: list[dict[str, Any]] = []
    for wid in round_wagers():
        placed = bets.get(wid, {})
        if wid != "blackjack" and not placed:
            continue
        amounts = sorted(set(placed.values())) or [100]
        spec: dict[str, Any] = {"wager": wid}
        if wid == "blackjack":
            spec |= {"min": format_money(amounts[0]), "max": format_money(amounts[-1])}
            wagers.append(spec)
            continue
        w = get_wager(wid)
        keys = sorted({t.key for t in w.paytables() if decks in t.decks}) or sorted(
            {t.key for t in w.paytables()}
        )
        if wid not in paytables and len(keys) != 1:
            raise InputError(
                f"{w.name} wagers need a paytable: --paytable {wid}=ID "
                f"(at {decks_phrase(decks)}: {', '.join(keys)})"
            )
        if any(t.progressive is not None for t in w.paytables()):  # sizes printed per paytable
            spec["amounts"] = [format_money(c) for c in amounts]
        else:
            spec |= {"min": format_money(amounts[0]), "max": format_money(amounts[-1])}
        spec["paytable"] = paytables.get(wid, keys[0] if keys else "standard")
        wagers.append(spec)
    data = {
        "game": "blackjack",
        "name": _rules(decks, h17).describe(),
        "decks": decks,
        "dealer": "H17" if h17 else "S17",
        "seats": max(7, min(seats, 9)),
        "wagers": wagers,
    }
    sub = submission_from_data(data, "the table of --decks, --h17, --bet and --paytable")
    if dealer_stops:
        sub = replace(sub, dealer_completion=DealerCompletion.ONLY_WITH_LIVE_HANDS)
    return sub


def _play(rnd: TableRound, moves: list[str] | None) -> TableRound:
    """The players' decisions ``--move SEAT:MOVE[:CARD]`` made on a dealt round, in order."""
    for seat, move, card in player_moves(moves):
        dealt = parse_card(card) if card else None
        if move == "hit":
            rnd = rnd.hit(seat, dealt)
        elif move == "double":
            rnd = rnd.double(seat, None, dealt)
        elif move == "stand":
            rnd = rnd.stand(seat)
        elif move == "split":
            rnd = rnd.split(seat)
        else:
            rnd = rnd.surrender(seat)
    return rnd


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
            help="A wager, SEAT:WAGER=DOLLARS: every seat's Blackjack wager (1:blackjack=10), "
            "then any Blackjack side wager (1:perfect-pairs=5, 1:axman=5, 2:jackpot-party=5, "
            "3:match-the-dealer=5; the progressives take the sizes their paytable prints); "
            "repeatable.",
        ),
    ] = None,
    moves: Annotated[
        list[str] | None,
        typer.Option(
            "--move",
            help="A player's decision, SEAT:MOVE[:CARD] (1:hit:5d, 1:stand, 2:double:Th, "
            "3:split, 3:surrender), in the order made, seat 1 first; repeatable. Every hand is "
            "played out unless --base-game external.",
        ),
    ] = None,
    base_game: Annotated[
        str,
        typer.Option(
            "--base-game",
            help='Who settles the base game: "croupier" (every hand played out with --move) or '
            '"external" (the table\'s own system: the Blackjack wagers are recorded with no win '
            "and left out of the net).",
        ),
    ] = "croupier",
    paytables: Annotated[
        list[str] | None,
        typer.Option(
            "--paytable",
            "-p",
            help="A side wager's paytable, WAGER=ID (e.g. jackpot-party=P1 at six decks, "
            "perfect-pairs=A, match-the-dealer=1); needed where the wager has several.",
        ),
    ] = None,
    meter: Annotated[
        str | None,
        typer.Option(
            "--meter",
            help="Jackpot Party meter in dollars, or by level, 'Mega=60000,Major=6000' "
            "(default: the seeds).",
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
    """Settle a dealt Blackjack round through the regulated round procedure: the players'
    decisions, the Blackjack wagers (Chapter 633a), AxMan (§ 633c.12) and Jackpot Party
    (§ 633b.2, each envy bonus a line of its own) — the same record as `croupier settle`."""
    from croupier.commands.table import show_rounds
    from croupier.table.progressive import valued_at_seed
    from croupier.table.round import DealtCards, TableRound

    hands = {seat: text for seat, text in enumerate(players, start=1)}
    placed = seat_bets(bets)
    sub = round_submission(decks, h17, len(hands), placed, wager_paytables(paytables), dealer_stops)
    meters = meter_arg(meter)
    if isinstance(meters, int):
        meters = {MeterLevel.PROGRESSIVE: meters}
    rnd = TableRound.open(sub, {"jackpot-party": meters} if meters else None, base_game=base_game)
    for wid in round_wagers():  # the Blackjack wager first at every seat (§ 633a.6(d))
        for seat, cents in sorted(placed.get(wid, {}).items()):
            rnd = rnd.bet(seat, wid, cents)
    rnd = rnd.no_more_bets().deal(DealtCards(players=hands, dealer=dealer_cards))
    rnd = _play(rnd, moves).settle()
    if meters is None:
        rnd = valued_at_seed(rnd)
    show_rounds([("blackjack-round", rnd)], json_out, {"rules": sub.blackjack_rules.describe()})
    if not json_out and any(line.by_base_game for line in rnd.settlement().lines):
        out.print(
            "The Blackjack wagers are recorded for the table's own system to settle "
            "(--base-game external): they have no win here and are not in the net."
        )
