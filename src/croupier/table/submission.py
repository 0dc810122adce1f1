"""Rules Submissions (58 Pa. Code § 601a.2): what a table offers, as a validated TOML file.

A casino does not offer "a wager": it files a Rules Submission choosing the game, the deck count,
house options (the dealer standing or hitting on soft 17), which optional wagers it offers with which
paytables, the minimum and maximum of each wager, the progressive wager sizes, and at Four Card
Poker the number of adjacent boxes a player may wager on (§ 641a.7(e)). The file::

    game = "blackjack"          # blackjack | baccarat | four-card-poker | criss-cross-poker
    name = "BJ-6 with Perfect Pairs"
    decks = 6
    dealer = "S17"              # Blackjack: S17 (stands on soft 17) or H17
    seats = 7
    # Blackjack options (Chapter 633a; defaults shown): how the players may play their hands
    late_surrender = false      # § 633a.9
    double_after_split = true   # § 633a.10
    split_hands = 4             # § 633a.11: at most this many hands by splitting and re-splitting
    resplit_aces = false
    hit_split_aces = false      # split aces take one card each
    # fixed in PA, so only these values are accepted (others are refused, citing the section)
    blackjack_pays = "3:2"      # § 633a.13 (6:5 and 1:1 are refused)
    peek = true                 # § 633a.7: the card reader device checks for a dealer Blackjack
    double_on = "any"           # § 633a.10: any first two cards (9-11, 10-11 are refused)
    # Switch Hands (§ 633b.4(a)–(j)): every player places the Ante; or Blackjack Premium
    # (§ 633b.4(k)–(o)): the Ante is optional. At most one of the two.
    switch_hands = false
    blackjack_premium = false
    tie_blackjack_pays = false  # Switch Hands: a switched tie Blackjack pays 1 to 2 ((i)(2)(ii))

    [[wagers]]
    wager = "blackjack"         # the base wager: blackjack; player/banker/tie; four-card-poker
    min = "$10"                 # (the Ante); criss-cross
    max = "$1,000"

    # progressive hit odds: refuse a meter level hit less often than 1 in N (default the NJ
    # bound, N.J.A.C. 13:69D-1.52(e)(4): 100,000,000); "level" (any award from the meter) or
    # "award" (each line paying a share of it)
    hit_odds_bound = 100000000
    hit_odds_basis = "level"

    [[wagers]]
    wager = "jackpot-party"
    paytable = "P1"
    amounts = ["$1", "$5"]      # a progressive wager's sizes, instead of min/max

:func:`load_submission` parses it with pydantic (shape and types), then :func:`check_submission`
checks it against the regulation, reusing each wager's own checks (:meth:`Wager.check_decks`,
:meth:`Wager.paytable`, :meth:`Wager.check_wager_amount`), and reports every violation at once,
each naming its section. :func:`submission_digest` is the SHA-256 of a checked submission's
canonical data (with each offered paytable's :func:`~croupier.paytables.paytable_digest`): the
configuration a progressive is approved under.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pydantic import ValidationError

from croupier.analysis.hit_odds import NJ_MAX_ONE_IN, NJ_RULE, AwardOdds, LevelOdds, longer_than
from croupier.analysis.parsheet import exact_parsheet
from croupier.errors import (
    AmountLimitError,
    CroupierError,
    InputError,
    InputFileError,
    PaytableError,
    RulesError,
    SubmissionError,
    UnknownPaytableError,
    UnknownWagerError,
    cite,
    clipped,
    one_line,
    one_of,
)
from croupier.games.blackjack import BlackjackRules, DealerCompletion, SoftSeventeen
from croupier.games.blackjack_rules import DoubleOn, PlayRules
from croupier.inputs import read_toml, where
from croupier.paytables import Paytable, paytable_digest
from croupier.paytables.digest import sha256_of
from croupier.table.submission_blackjack import (
    BLACKJACK_PAYS,
    blackjack_option_problems,
    blackjack_pays_of,
    double_on_of,
    pays_text,
)
from croupier.table.submission_file import HitOddsBasis, SubmissionFile, WagerSpec
from croupier.units import format_money, parse_money
from croupier.wagers import Wager, get_wager
from croupier.wagers.at_table import TableGame
from croupier.wagers.base_games import BASE_GAMES, RECORDED_BASE, BaseGame
from croupier.wagers.switch_hands import Variant

SWITCH_HANDS_INCREMENT_CENTS = 500
"""§ 633b.4(b): at Switch Hands all Blackjack wagers are placed in $5 increments."""


def _required_base(wager: Wager) -> tuple[tuple[str, ...], str] | None:
    """(the base wagers one of which the player places first, the paragraph), or ``None``."""
    if not wager.base_wagers:
        return None
    return wager.base_wagers, wager.base_rule or wager.section


# -- the domain object -----------------------------------------------------------------------------


@dataclass(frozen=True)
class OfferedWager:
    """A wager the table offers: its id, paytable (``None`` for an unregistered base wager), and
    either limits (min/max, cents) or the progressive sizes it takes (``amounts``, cents)."""

    wager: str
    paytable: Paytable | None
    min_cents: int | None
    max_cents: int | None
    amounts_cents: tuple[int, ...] = ()

    def describe_limits(self) -> str:
        """``'$5–$100'`` or ``'$1 or $5'``."""
        if self.amounts_cents:
            return one_of(format_money(c) for c in self.amounts_cents)
        lo = format_money(self.min_cents) if self.min_cents is not None else "?"
        hi = format_money(self.max_cents) if self.max_cents is not None else "?"
        return f"{lo}–{hi}"


@dataclass(frozen=True)
class RulesSubmission:
    """A checked Rules Submission (§ 601a.2): build one with :func:`load_submission` or
    :func:`submission_from_data`, which refuse a submission with any violation."""

    source: str
    game: TableGame
    name: str
    decks: int
    soft_17: SoftSeventeen
    switch_hands: bool
    """Whether the table deals Switch Hands (§ 633b.4(a)–(j)): every player places the Ante."""
    seats: int
    adjacent_boxes: int | None
    wagers: tuple[OfferedWager, ...]
    blackjack_premium: bool = False
    """Whether the table deals Blackjack Premium (§ 633b.4(k)–(o)): the Ante is optional."""
    tie_blackjack_pays: bool = False
    """A tie Blackjack pays 1 to 2: at Switch Hands if the submission says so, to a player who
    switched (§ 633b.4(i)(2)(ii)); always at Blackjack Premium ((o))."""
    late_surrender: bool = False
    """Whether a player may surrender half the wager after the peek (§ 633a.9)."""
    double_after_split: bool = True
    """Whether a player may double down on a hand made by splitting (§ 633a.10)."""
    split_hands: int = 4
    """The most hands a player may make by splitting and re-splitting (§ 633a.11)."""
    resplit_aces: bool = False
    """Whether a hand made by splitting aces may be split again (§ 633a.11)."""
    hit_split_aces: bool = False
    """Whether a hand made by splitting aces may draw more than one card (§ 633a.11)."""
    blackjack_pays: Fraction = BLACKJACK_PAYS
    """What a player Blackjack pays per unit wagered (3 to 2, the only pay § 633a.13 allows)."""
    peek: bool = True
    """Whether the dealer checks the hole card for Blackjack first (§ 633a.7: always)."""
    double_on: DoubleOn = DoubleOn.ANY
    """Which first two cards a player may double on (§ 633a.10: any)."""
    hit_odds_bound: int = NJ_MAX_ONE_IN
    """No progressive level is hit less often than 1 in this (N.J.A.C. 13:69D-1.52(e)(4))."""
    hit_odds_basis: HitOddsBasis = "level"
    """What the bound applies to: each meter level (any award from it), or each award line."""
    dealer_completion: DealerCompletion = DealerCompletion.ALWAYS
    """Whether the dealer completes the hand with no live player hand (a reading, not a
    submission key: docs/interpretations.md; ``croupier blackjack-round
    --dealer-stops-without-live-hands``)."""

    def offered(self, wager_id: str) -> OfferedWager | None:
        """The offered wager with that id, or with an id it is an alias of (``axman-h17``
        answers for ``axman``: :attr:`Wager.aliases`), or ``None``."""
        for w in self.wagers:
            if w.wager == wager_id:
                return w
        for w in self.wagers:
            if w.paytable is not None and wager_id in get_wager(w.wager).aliases:
                return w
        return None

    @functools.cached_property
    def base(self) -> BaseGame:
        """What the table knows of its game (:data:`~croupier.wagers.base_games.BASE_GAMES`)."""
        return BASE_GAMES[self.game]

    @functools.cached_property
    def paytables(self) -> Mapping[str, Paytable]:
        """The paytable of each offered wager that has one, by wager id (aliases aside: see
        :meth:`offered`)."""
        return MappingProxyType(
            {w.wager: w.paytable for w in self.wagers if w.paytable is not None}
        )

    @functools.cached_property
    def blackjack_rules(self) -> BlackjackRules:
        """The house rules the dealer plays by (§ 633a.7); made once (an immutable value the
        round reads at every step)."""
        return BlackjackRules(
            decks=self.decks,
            soft_17=self.soft_17,
            peek=self.peek,
            blackjack_pays=self.blackjack_pays,
            dealer_completion=self.dealer_completion,
        )

    @functools.cached_property
    def play_rules(self) -> PlayRules:
        """The rules the players' hands are played by (§§ 633a.9–633a.11); made once."""
        return PlayRules(
            table=self.blackjack_rules,
            double_after_split=self.double_after_split,
            split_hands=self.split_hands,
            resplit_aces=self.resplit_aces,
            hit_split_aces=self.hit_split_aces,
            late_surrender=self.late_surrender,
            double_on=self.double_on,
        )

    @property
    def variant(self) -> Variant | None:
        """The game of § 633b.4 the table deals, or ``None`` for plain Blackjack (or another game)."""
        if self.blackjack_premium:
            return Variant.PREMIUM
        return Variant.SWITCH_HANDS if self.switch_hands else None

    def paytable_key(self, wager_id: str) -> str | None:
        """The paytable id the table uses for ``wager_id``."""
        w = self.offered(wager_id)
        return w.paytable.key if w is not None and w.paytable is not None else None


@dataclass(frozen=True)
class Violation:
    """One problem of a submission: what is wrong and the section that says so (``None`` when no
    rule of the regulation is at stake, e.g. a malformed amount)."""

    message: str
    section: str | None
    maximum: str | None = None
    """croupier's money maximum as printed, when the problem is an amount over it
    (:class:`~croupier.errors.AmountLimitError`): the :class:`SubmissionError` carries it."""

    def __str__(self) -> str:  # one line: control characters in quoted user text escaped
        return one_line(cite(self.message, self.section))


def _broken_rule(exc: RulesError) -> Violation:
    """The violation of the rule ``exc`` enforces: its message without the citation (the
    violation's section cites it), a rule of another jurisdiction it names kept at its end."""
    text = exc.reason if exc.also is None else f"{exc.reason} ({exc.also})"
    return Violation(clipped(one_line(text)), exc.section)


def table_money(text: str) -> int:
    """A dollar amount of a Rules Submission or a round file ("$5", "$1,000", "$2.50") in
    integer cents (:func:`~croupier.units.parse_money`); :class:`~croupier.errors.PaytableError`
    naming the text otherwise — an amount over croupier's limit (:data:`~croupier.units.MAX_CENTS`)
    as its :class:`~croupier.errors.AmountLimitError`, naming the limit."""
    return parse_money(text)


def _money(text: str, where: str, problems: list[Violation]) -> int | None:
    try:
        cents = table_money(text)
    except PaytableError as exc:
        limit = exc.maximum if isinstance(exc, AmountLimitError) else None
        problems.append(Violation(f"{where}: {exc}", None, limit))
        return None
    if cents <= 0:
        problems.append(Violation(f"{where}: an amount must be positive, not {text!r}", None))
        return None
    return cents


def _wager_for(spec: WagerSpec, problems: list[Violation]) -> Wager | None:
    try:
        return get_wager(spec.wager)
    except UnknownWagerError as exc:
        problems.append(Violation(str(exc), "601a.2"))
        return None


def _known(wager_id: str) -> Wager | None:
    """The registered wager ``wager_id``, or ``None``."""
    try:
        return get_wager(wager_id)
    except UnknownWagerError:
        return None


def _paytables_or_none(wager: Wager) -> tuple[Paytable, ...]:
    try:
        return wager.paytables()
    except CroupierError:
        return ()


def offered_paytable(wager: Wager, key: str, decks: int | None) -> Paytable:
    """The wager's paytable ``key`` a table dealing ``decks`` decks may offer, via
    :meth:`Wager.paytable`, every refusal a :class:`~croupier.errors.RulesError` citing its rule:
    a deck count the section forbids (Match the Dealer at 6 or 8 decks, § 633b.3(b)), a paytable
    of the section printed for another deck count (its deck rule, § 633b.2(b)), an id the section
    does not print (the section: its paytables are the ones a table may offer). The one check of
    a paytable a request names — a Rules Submission's wagers (``croupier check``, ``POST
    /tables``), a progressive (``croupier meters create``, ``POST /progressives``), a simulation
    (``POST /simulations``) — so each refuses it in the same words, citing the same section.
    ``decks`` ``None`` (a simulation may leave it out): the deck count the paytable is printed
    for, an :class:`~croupier.errors.InputError` when it is printed apart for several.

    >>> try:
    ...     offered_paytable(get_wager("match-the-dealer"), "99", 6)
    ... except RulesError as exc:
    ...     print(exc.section, "·", exc.reason.partition(": ")[2])
    633b.3 · § 633b.3 has no paytable '99' (its paytables: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
    """
    try:
        return wager.paytable(key, decks)
    except UnknownPaytableError as exc:
        exists = any(t.key.upper() == key.strip().upper() for t in wager.paytables())
        section = (wager.decks_rule or wager.section) if exists else wager.section
        what = f"the {wager.name} wager: {exc}"
        if exists and decks is None:
            raise InputError(what) from None
        if exists:
            what += f" — the table deals {decks} decks"
        raise RulesError(what, section) from None


def _check_paytable(
    wager: Wager, key: str, decks: int, problems: list[Violation]
) -> Paytable | None:
    """The wager's paytable ``key`` for ``decks`` decks (:func:`offered_paytable`), or ``None``
    with its violation added to ``problems``."""
    try:
        return offered_paytable(wager, key, decks)
    except RulesError as exc:
        problems.append(_broken_rule(exc))
    except PaytableError as exc:
        problems.append(Violation(str(exc), wager.section))
    return None


def check_submission(spec: SubmissionFile) -> tuple[Violation, ...]:
    """Every violation of the regulation in a parsed submission, in file order (empty: it may be
    filed). Each wager's own checks are reused: :meth:`Wager.check_decks` (AxMan at 6 or 8 decks,
    § 633c.12(a); Match the Dealer at 6 or 8, § 633b.3(b)), :meth:`Wager.paytable` (a paytable id
    the section defines, for the table's deck count: Jackpot Party, § 633b.2(b)) and
    :meth:`Wager.check_wager_amount` ($1 or $5, § 633b.2(e), § 633b.3(e))."""
    return _build(spec, "submission")[1]


def _build(spec: SubmissionFile, source: str) -> tuple[RulesSubmission, tuple[Violation, ...]]:
    """The submission ``spec`` as a :class:`RulesSubmission` named ``source``, with every
    violation found, in file order: each wager's, then the table's options, then the progressive
    hit odds and the paytables that must be shared."""
    problems: list[Violation] = []
    offered_ids = [w.wager.strip().lower() for w in spec.wagers]
    seen: set[str] = set()
    wagers = tuple(_offered_wager(spec, w, offered_ids, seen, problems) for w in spec.wagers)
    _check_table(spec, offered_ids, problems)
    for w in wagers:
        if w.paytable is not None and w.paytable.progressive is not None:
            _check_hit_odds(w, spec, problems)
    _check_shared_paytables(wagers, problems)
    return _rules_submission(spec, source, wagers), tuple(problems)


def _offered_wager(
    spec: SubmissionFile,
    spec_w: WagerSpec,
    offered_ids: list[str],
    seen: set[str],
    problems: list[Violation],
) -> OfferedWager:
    """One ``[[wagers]]`` entry checked (listed once, the game's, its paytable, its limits or
    sizes, the base wager it needs) and made an :class:`OfferedWager`; ``seen`` gains its id."""
    game = spec.game
    wid = spec_w.wager.strip().lower()
    where = f"wager {wid}"
    if wid in seen:
        problems.append(Violation(f"{where} is listed twice", "601a.2"))
    seen.add(wid)
    wager: Wager | None = None
    if wid in RECORDED_BASE:
        if wid not in BASE_GAMES[game].base_wagers:
            problems.append(
                Violation(f"the {wid} wager is not a {game.value} wager", RECORDED_BASE[wid])
            )
        if spec_w.paytable is not None:
            problems.append(Violation(f"{where}: croupier has no paytable for it", None))
    else:
        wager = _wager_for(spec_w, problems)
    table = _wager_paytable(spec, spec_w, wager, problems) if wager is not None else None
    lo, hi, amounts = _check_limits(spec, spec_w, wager, table, problems)
    # the base wager the section requires
    needs = _required_base(wager) if wager is not None else None
    if (
        needs is not None
        and (wager is None or wager.game is game.game)
        and not any(b in offered_ids for b in needs[0])
    ):
        base = one_of(needs[0])
        problems.append(
            Violation(
                f"the {wid} wager is offered only to a player who placed the {base} wager, "
                "which the table does not offer",
                needs[1],
            )
        )
    return OfferedWager(wid, table, lo, hi, amounts)


def _wager_paytable(
    spec: SubmissionFile, spec_w: WagerSpec, wager: Wager, problems: list[Violation]
) -> Paytable | None:
    """The paytable ``spec_w`` names for ``wager`` at this table, or ``None`` with the violation
    added (a wager of another game, a deck count it is not offered at, no paytable named, or one
    the section does not define)."""
    game = spec.game
    if wager.game is not game.game:
        section = (_required_base(wager) or ((), wager.section))[1]
        problems.append(
            Violation(
                f"the {wager.name} wager is offered at {wager.game.value}, not at {game.value}",
                section,
            )
        )
        return None
    try:
        wager.check_decks(spec.decks)
    except RulesError as exc:
        problems.append(_broken_rule(exc))
        return None
    if spec_w.paytable is None:
        keys = ", ".join(dict.fromkeys(t.key for t in wager.paytables()))
        problems.append(
            Violation(
                f"wager {spec_w.wager.strip().lower()}: name the paytable the table uses "
                f"(§ {wager.section} defines {keys})",
                wager.section,
            )
        )
        return None
    return _check_paytable(wager, spec_w.paytable, spec.decks, problems)


def _check_limits(
    spec: SubmissionFile,
    spec_w: WagerSpec,
    wager: Wager | None,
    table: Paytable | None,
    problems: list[Violation],
) -> tuple[int | None, int | None, tuple[int, ...]]:
    """A wager's minimum, maximum and progressive sizes in cents, checked: a progressive wager
    lists its sizes (each one the section allows), any other its minimum and maximum, the
    minimum not above the maximum, and at Switch Hands the Blackjack wager's limits in $5."""
    where = f"wager {spec_w.wager.strip().lower()}"
    lo = _money(spec_w.min, f"{where} min", problems) if spec_w.min else None
    hi = _money(spec_w.max, f"{where} max", problems) if spec_w.max else None
    amounts: list[int] = []
    progressive = table is not None and table.progressive is not None
    sizes_table = table
    if sizes_table is None and wager is not None and wager.wager_amount_rule is not None:
        # the paytable was refused (e.g. printed for another deck count): the sizes rule
        # (§ 633b.2(e), § 633b.3(e)) is still checked, against the section's other paytables
        sizes_table = next(
            (t for t in _paytables_or_none(wager) if t.progressive is not None), None
        )
    if spec_w.amounts is not None:
        for text in spec_w.amounts:
            cents = _money(text, f"{where} amount", problems)
            if cents is None:
                continue
            amounts.append(cents)
            if wager is not None and sizes_table is not None:
                try:
                    wager.check_wager_amount(sizes_table, cents)
                except RulesError as exc:
                    problems.append(_broken_rule(exc))
    elif progressive:
        problems.append(
            Violation(f"{where}: a progressive wager lists its amounts (e.g. $1, $5)", None)
        )
    if not progressive and spec_w.amounts is None and (spec_w.min is None or spec_w.max is None):
        problems.append(Violation(f"{where}: give its minimum and maximum", "601a.2"))
    if lo is not None and hi is not None and lo > hi:
        problems.append(
            Violation(f"{where}: minimum {format_money(lo)} above maximum {format_money(hi)}", None)
        )
    if (
        spec.switch_hands
        and spec_w.wager.strip().lower() in BASE_GAMES[spec.game].base_wagers
        and any(c % SWITCH_HANDS_INCREMENT_CENTS for c in (lo, hi) if c is not None)
    ):
        problems.append(
            Violation(
                "at Switch Hands the Blackjack wager is placed in $5 increments; limits "
                f"{format_money(lo or 0)}–{format_money(hi or 0)} allow others",
                "633b.4(b)",
            )
        )
    return lo, hi, tuple(amounts)


def _check_table(spec: SubmissionFile, offered_ids: list[str], problems: list[Violation]) -> None:
    """The table's own violations: no base wager offered, the dealer's soft 17 not said, the
    Blackjack house options (:func:`~croupier.table.submission_blackjack.blackjack_option_problems`:
    given at another game, contradicting one another, a rule PA fixes stated otherwise) and Four
    Card Poker's adjacent boxes not said."""
    game = spec.game
    bases = BASE_GAMES[game].base_wagers
    if not any(b in offered_ids for b in bases) and not any(
        w.stands_alone and w.game is game.game for w in map(_known, offered_ids) if w is not None
    ):
        problems.append(
            Violation(f"a {game.value} table offers its base wager ({one_of(bases)})", "601a.2")
        )
    if game is TableGame.BLACKJACK and spec.dealer is None:
        problems.append(
            Violation("say whether the dealer stands (S17) or hits (H17) soft 17", "601a.2")
        )
    problems.extend(Violation(m, section) for m, section in blackjack_option_problems(spec))
    if game is TableGame.FOUR_CARD_POKER and spec.adjacent_boxes is None:
        problems.append(
            Violation(
                "a Four Card Poker submission specifies the number of adjacent boxes a player "
                "may wager on in one round (adjacent_boxes)",
                "641a.7(e)",
            )
        )


def _check_shared_paytables(wagers: tuple[OfferedWager, ...], problems: list[Violation]) -> None:
    """Wagers the regulation makes share one paytable (a registered wager's ``one_paytable``)
    offered with different ones."""
    shared: dict[tuple[str, str], set[str]] = {}
    for w in wagers:
        registered = _known(w.wager)
        if registered is not None and registered.one_paytable and w.paytable is not None:
            shared.setdefault(registered.one_paytable, set()).add(w.paytable.key)
    for (what, rule), tables in shared.items():
        if len(tables) > 1:
            problems.append(
                Violation(f"{what} share one paytable, not {', '.join(sorted(tables))}", rule)
            )


def _rules_submission(
    spec: SubmissionFile, source: str, wagers: tuple[OfferedWager, ...]
) -> RulesSubmission:
    """The :class:`RulesSubmission` of a checked ``spec``, its house options' defaults filled in."""
    return RulesSubmission(
        source,
        spec.game,
        spec.name,
        spec.decks,
        SoftSeventeen.HITS if spec.dealer == "H17" else SoftSeventeen.STANDS,
        spec.switch_hands,
        spec.seats,
        spec.adjacent_boxes,
        wagers,
        blackjack_premium=spec.blackjack_premium,
        tie_blackjack_pays=bool(spec.tie_blackjack_pays or spec.blackjack_premium),
        late_surrender=bool(spec.late_surrender),
        double_after_split=spec.double_after_split is not False,
        split_hands=spec.split_hands or 4,
        resplit_aces=bool(spec.resplit_aces),
        hit_split_aces=bool(spec.hit_split_aces),
        blackjack_pays=blackjack_pays_of(spec),
        peek=spec.peek is not False,
        double_on=double_on_of(spec),
        hit_odds_bound=spec.hit_odds_bound,
        hit_odds_basis=spec.hit_odds_basis,
    )


# -- progressive hit odds --------------------------------------------------------------------------


@functools.lru_cache(maxsize=128)
def _hit_odds(wager: Wager, table: Paytable, decks: int) -> tuple[LevelOdds, ...]:
    return exact_parsheet(wager, table, decks=decks).hit_odds


def _check_hit_odds(offered: OfferedWager, spec: SubmissionFile, problems: list[Violation]) -> None:
    """Refuse a progressive level (or, with ``hit_odds_basis = "award"``, an award line) whose
    exact hit odds are longer than 1 in ``hit_odds_bound``: N.J.A.C. 13:69D-1.52(e)(4) requires
    "the calculated probability of winning each progressive jackpot, which probability shall not
    exceed 100 million to one" — PA's § 605a.7 is not in the text croupier holds, so the NJ rule
    is the default bound, cited in the message; the violation's section is § 601a.2 (the Rules
    Submission that would offer the level)."""
    table = offered.paytable
    assert table is not None
    try:
        levels = _hit_odds(get_wager(offered.wager), table, spec.decks)
    except CroupierError as exc:
        problems.append(
            Violation(f"wager {offered.wager}: its hit odds could not be computed: {exc}", None)
        )
        return
    bound = spec.hit_odds_bound
    for lv in levels:
        checked: tuple[LevelOdds | AwardOdds, ...] = (
            (lv,) if spec.hit_odds_basis == "level" else lv.awards
        )
        for odds in checked:
            if not longer_than(odds, bound):
                continue
            what = (
                f"its {lv.level.value} meter is hit"
                if isinstance(odds, LevelOdds)
                else f"its {odds.label} award ({odds.pays}) is won"
            )
            problems.append(
                Violation(
                    f"wager {offered.wager} paytable {table.key}: {what} {odds.odds} (exact "
                    f"probability {odds.probability}), longer than its hit_odds_bound of 1 in "
                    f"{bound:,} ({NJ_RULE}: at most {NJ_MAX_ONE_IN:,} to one)",
                    "601a.2",
                )
            )


# -- the configuration digest ----------------------------------------------------------------------

SUBMISSION_FORMAT = "croupier-submission/1"
"""The version of :func:`canonical_submission`'s form."""


def canonical_submission(sub: RulesSubmission) -> dict[str, Any]:
    """What a checked submission decides, as a JSON-ready dict: the game, deck count, house
    options, seats, adjacent boxes, the hit-odds bound and, for each offered wager (sorted by
    id: file order does not matter), its paytable's section, id and
    :func:`~croupier.paytables.paytable_digest`, its limits or progressive sizes in cents.
    Not held: the submission's name and the file it was read from. The Blackjack pay
    (``blackjack_pays``, e.g. ``"6:5"``), ``peek`` and ``double_on`` (e.g. ``"10-11"``) are held
    only where they differ from PA's rule (3:2, peek, any two cards; added after
    ``croupier-submission/1``'s first keys): a submission that does not state them, or states
    PA's rule, keeps the digest it had before they could be stated."""
    data: dict[str, Any] = {
        "format": SUBMISSION_FORMAT,
        "game": sub.game.value,
        "decks": sub.decks,
        "soft_17": sub.soft_17.value,
        "switch_hands": sub.switch_hands,
        "blackjack_premium": sub.blackjack_premium,
        "tie_blackjack_pays": sub.tie_blackjack_pays,
        "late_surrender": sub.late_surrender,
        "double_after_split": sub.double_after_split,
        "split_hands": sub.split_hands,
        "resplit_aces": sub.resplit_aces,
        "hit_split_aces": sub.hit_split_aces,
        "seats": sub.seats,
        "adjacent_boxes": sub.adjacent_boxes,
        "hit_odds_bound": sub.hit_odds_bound,
        "hit_odds_basis": sub.hit_odds_basis,
        "wagers": [
            {
                "wager": w.wager,
                "paytable": None
                if w.paytable is None
                else {
                    "section": w.paytable.section,
                    "key": w.paytable.key,
                    "sha256": paytable_digest(w.paytable),
                },
                "min_cents": w.min_cents,
                "max_cents": w.max_cents,
                "amounts_cents": sorted(w.amounts_cents),
            }
            for w in sorted(sub.wagers, key=lambda w: w.wager)
        ],
    }
    if sub.blackjack_pays != BLACKJACK_PAYS:
        data["blackjack_pays"] = pays_text(sub.blackjack_pays)
    if not sub.peek:
        data["peek"] = False
    if sub.double_on is not DoubleOn.ANY:
        data["double_on"] = sub.double_on.value
    return data


def submission_digest(sub: RulesSubmission) -> str:
    """SHA-256 (hex) of :func:`canonical_submission` (the one serialisation of
    :func:`~croupier.paytables.digest.canonical_json`): equal for submissions that decide the same
    play and pay, whatever their file's formatting, order of wagers or name; different when any
    rule, limit or paytable differs. Store it when a progressive is created; compare it at start-up.

    >>> sub = load_submission("examples/submissions/four-card-poker.toml")  # doctest: +SKIP
    >>> len(submission_digest(sub))  # doctest: +SKIP
    64
    """
    return sha256_of(canonical_submission(sub))


def parse_submission(data: Mapping[str, Any], source: str) -> SubmissionFile:
    """The file's shape checked with pydantic; :class:`SubmissionError` lists every problem."""
    try:
        return SubmissionFile.model_validate(data)
    except ValidationError as exc:
        problems = tuple(
            (f"{where(tuple(e['loc']))}: {str(e['msg']).removeprefix('Value error, ')}", None)
            for e in exc.errors()
        )
        raise SubmissionError(source, problems) from exc


def submission_from_data(data: Mapping[str, Any], source: str = "submission") -> RulesSubmission:
    """A checked submission from parsed TOML/JSON data. Raises :class:`SubmissionError` listing
    every violation (each with its section) when there is any."""
    spec = parse_submission(data, source)
    sub, problems = _build(spec, source)
    if problems:
        raise SubmissionError(
            source,
            tuple((p.message, p.section) for p in problems),
            maximum=next((p.maximum for p in problems if p.maximum is not None), None),
        )
    return sub


def read_submission_data(path: str | Path) -> dict[str, Any]:
    """The TOML data of a submission file; :class:`SubmissionError` when unreadable."""
    p = Path(path)
    try:
        return read_toml(p)  # a regular UTF-8 file within croupier's limits (croupier.inputs)
    except InputFileError as exc:
        hint = (
            " (a .json file is a round record: settle it with `croupier settle`)"
            if p.suffix.lower() == ".json" and exc.problem.startswith("not valid TOML")
            else ""
        )
        raise SubmissionError(exc.path, ((f"{exc.problem}{hint}", None),)) from exc


def load_submission(path: str | Path) -> RulesSubmission:
    """Load and check a Rules Submission file (see :func:`submission_from_data`). Raises
    :class:`SubmissionError` listing every violation, each with its section (an unreadable file,
    or one that is not TOML, is one violation without a section)."""
    return submission_from_data(read_submission_data(path), str(path))


def check_file(path: str | Path) -> tuple[Violation, ...]:
    """Every violation of a submission file, schema problems included (for ``croupier check``)."""
    return check_file_and_build(path)[0]


def check_file_and_build(path: str | Path) -> tuple[tuple[Violation, ...], RulesSubmission | None]:
    """Every violation of a submission file (as :func:`check_file`), and the checked submission
    when there is none (``None`` otherwise): ``croupier check`` prints its digests."""
    try:
        spec = parse_submission(read_submission_data(path), str(path))
    except SubmissionError as exc:
        return tuple(Violation(m, s) for m, s in exc.violations), None
    sub, problems = _build(spec, str(path))
    return problems, (None if problems else sub)


__all__ = [
    "OfferedWager",
    "RulesSubmission",
    "SubmissionFile",
    "TableGame",
    "Violation",
    "canonical_submission",
    "check_file",
    "check_file_and_build",
    "check_submission",
    "load_submission",
    "offered_paytable",
    "submission_digest",
    "submission_from_data",
]
