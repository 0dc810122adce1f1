"""Round records as JSON files: a submission and the steps of a round, replayed and settled.

A round file (:class:`RoundFile`; see ``examples/rounds/``; its JSON Schema,
``docs/schemas/round-file.schema.json``, is generated from the model) names its Rules Submission
— a path relative to the round file, or the submission inline as a JSON object
(:class:`~croupier.table.submission_file.SubmissionFile`) — and the round's steps, in order, each
the model of its ``action`` (:mod:`croupier.table.steps`)::

    {
      "submission": "../submissions/blackjack-6deck.toml",
      "steps": [
        {"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25"},
        {"action": "bet", "seat": 3, "wager": "perfect-pairs", "amount": "$5"},
        {"action": "no-more-bets"},
        {"action": "deal", "players": {"3": "8s 8s"}, "dealer": "Kd 9c"},
        {"action": "settle"}
      ]
    }

Other steps: ``{"action": "deal", "coup": "Ks 4h 2d Qc 3h 3s"}`` (Baccarat), ``{"action": "deal",
"seed": 7}`` (a shuffled shoe), ``{"action": "play", "seat": 1, "amount": "$20"}`` and
``{"action": "fold", "seat": 2}``; a bet may name its ``player`` (Four Card Poker's adjacent boxes,
§ 641a.7(e)). A missing ``no-more-bets`` before the deal, or ``settle`` at the end, is supplied.

Blackjack, in the order of the round (§ 633a.7): the deal gives the dealer's upcard and hole card
(``"dealer": "Kd 6c"``); the players' decisions (:mod:`croupier.table.blackjack_play`) are steps of
their own — at a Switch Hands or Blackjack Premium table the Ante is a bet (``"wager":
"switch-hands-ante"``), the deal names each Ante player's face-down cards (``"switch_cards": {"3":
"Ah Kh"}``) and each of those players then ``switch``es or ``keep``s (highest seat first,
§ 633b.4(f)); then, seat 1 first::

    {"action": "hit", "seat": 3, "card": "5d"}
    {"action": "double", "seat": 3, "card": "Th"}
    {"action": "split", "seat": 3}
    {"action": "stand", "seat": 3}
    {"action": "surrender", "seat": 3}

A double may give its ``"amount"`` (e.g. ``"$10"``) to double for less; each split hand then takes
its own hits. Then the dealer's draws, once every hand is played: ``{"action": "dealer-draw",
"cards": "5h Kd"}`` (or ``"card": "5h"``, one step a card), each checked against the drawing rule
(S17 or H17, § 633a.7: a card the dealer must not take is refused, and ``settle`` refuses a dealer
hand that must still draw). A round file may instead give the draws at the deal after the
hole card (``"dealer": "Kd 6c 5h"``), as before; a round played step by step at an open table may
not (its deal is the upcard and the hole card only, § 633a.7).

A move's ``card`` may be left out when the round was dealt from a shuffled shoe (``seed``).

Who settles the base game is the file's ``"base_game"``: ``"croupier"`` (the default) settles the
Blackjack wagers from the players' play (§ 633b.4(i), (o); Chapter 633a), so ``settle`` refuses a
hand left unplayed (a :class:`~croupier.errors.ProcedureError` names the seat, the hand and the
decisions it could take); ``"external"``: the table's own system settles them, and each base wager
has a line saying so, with no win (``null``) and outside the net — the round records the side
wagers only (a plain Blackjack table; at Criss-Cross Poker, whose base game croupier does not
settle, a round file declares ``"external"``; docs/interpretations.md).
:func:`settle_record` replays the steps through :class:`~croupier.table.round.TableRound`: the
first step that breaks a rule raises its typed error, and nothing is settled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from croupier.cards import parse_card
from croupier.errors import AmountLimitError, CroupierError, InputError, PaytableError
from croupier.inputs import read_json, where
from croupier.names import NAME_LIMIT, round_id
from croupier.table.round import DealtCards, Phase, TableRound
from croupier.table.steps import (
    STEP_FIELDS,
    BetStep,
    DealerDrawStep,
    DealStep,
    DoubleStep,
    FoldStep,
    HitStep,
    KeepStep,
    NoMoreBetsStep,
    PlayStep,
    SettleStep,
    SplitStep,
    StandStep,
    Step,
    SurrenderStep,
    SwitchStep,
    parse_step,
    step_errors,
    stored_step,
)
from croupier.table.submission import (
    RulesSubmission,
    load_submission,
    submission_from_data,
    table_money,
)
from croupier.table.submission_file import InlineSubmission
from croupier.wagers.base_games import SettledBy

ROUND_ID_SCHEMA: dict[str, Any] = {"minLength": 1, "maxLength": NAME_LIMIT, "pattern": r"^[^/\s]+$"}
"""What the JSON Schema says of a round's id; :func:`croupier.names.round_id` checks it in full
when the round is settled (a :class:`~croupier.errors.NameRuleError`)."""


class RoundFile(BaseModel):
    """A Rules Submission and the steps of one round, replayed and settled by croupier settle."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    id: Annotated[str | None, Field(json_schema_extra=ROUND_ID_SCHEMA)] = None
    """The round's id at its table (the progressive ledger's idempotency key); default: the
    file name's stem. Taken as given (croupier.names.round_id): at most 100 characters, no
    space, no '/', no control, format or invisible character, in Unicode NFC, no letter drawn
    like another (a Cyrillic or Greek look-alike of a Latin letter, a fullwidth form, a dash
    other than '-')."""
    submission: str | InlineSubmission
    """The Rules Submission: its path, relative to the round file, or the submission inline."""
    steps: list[Step]
    """The steps of the round, in order (each a model chosen by its ``action``)."""
    base_game: SettledBy = Field(
        default=SettledBy.CROUPIER,
        description='Who settles the base game: "croupier" (the default: every Blackjack hand '
        'is played out in the steps) or "external" (the table\'s own system: each base wager '
        "is recorded as the base game's, with no win and outside the net).",
    )


def _cents(amount: str) -> int:
    try:
        return table_money(amount)
    except AmountLimitError:
        raise  # an InputError already, naming the limit (its ``maximum``)
    except PaytableError as exc:
        raise InputError(str(exc)) from exc


def apply_step(rnd: TableRound, step: Step, index: int = 0) -> TableRound:
    """The round after ``step`` (a no-more-bets is supplied before a deal that lacks one).

    A step that breaks a rule raises its typed error with the note ``step INDEX (ACTION)``
    (the one place that names the step: the message itself does not repeat it)."""
    try:
        return _apply(rnd, step)
    except CroupierError as exc:
        exc.add_note(f"step {index} ({step.action})")
        raise


def _apply(rnd: TableRound, step: Step) -> TableRound:
    match step:
        case BetStep():
            return rnd.bet(step.seat, step.wager, _cents(step.amount), step.player)
        case NoMoreBetsStep():
            return rnd.no_more_bets()
        case DealStep():
            return _deal(rnd, step)
        case PlayStep():
            return rnd.play(step.seat, _cents(step.amount))
        case FoldStep():
            return rnd.fold(step.seat)
        case SettleStep():
            return rnd.settle()
        case DealerDrawStep():
            drawn = [*([step.card] if step.card else []), *(step.cards or "").split()]
            return rnd.dealer_draw([parse_card(c) for c in drawn])
        case SwitchStep():
            return rnd.switch(step.seat)
        case KeepStep():
            return rnd.keep(step.seat)
        case HitStep():
            return rnd.hit(step.seat, parse_card(step.card) if step.card else None)
        case StandStep():
            return rnd.stand(step.seat)
        case DoubleStep():
            amount = _cents(step.amount) if step.amount else None
            return rnd.double(step.seat, amount, parse_card(step.card) if step.card else None)
        case SplitStep():
            return rnd.split(step.seat)
        case SurrenderStep():
            return rnd.surrender(step.seat)


def _deal(rnd: TableRound, step: DealStep) -> TableRound:
    if rnd.phase is Phase.BETTING:
        rnd = rnd.no_more_bets()
    if step.seed is not None:
        return rnd.deal_shoe(step.seed)
    cards = DealtCards.parse(
        players=step.players,
        dealer=step.dealer or "",
        coup=step.coup or "",
        bonus=step.bonus,
        switch_cards=step.switch_cards,
    )
    return rnd.deal(cards)


def parse_record(data: Mapping[str, Any], source: str = "round") -> RoundFile:
    """The round file's shape checked; :class:`InputError` names the first problems."""
    try:
        return RoundFile.model_validate(data)
    except ValidationError as exc:
        found = "; ".join(f"{where(loc)}: {msg}" for loc, msg in step_errors(exc.errors())[:3])
        raise InputError(f"{source}: not a round file: {found}") from exc


def settle_record(
    data: Mapping[str, Any], base: Path | None = None, source: str = "round"
) -> TableRound:
    """Replay a round record (parsed JSON) to its settlement. ``base`` is the directory a
    submission path is relative to. Raises the typed error of the first step that breaks a rule
    (:class:`~croupier.errors.RulesError` and subclasses name the section); nothing is settled."""
    record = parse_record(data, source)
    if record.id is not None:
        round_id(record.id)  # the round id rule (croupier.names): NameRuleError
    sub = _submission(record.submission, base)
    return replay_steps(sub, record.steps, source, record.base_game)


def replay_steps(
    sub: RulesSubmission,
    steps: Sequence[Step],
    source: str,
    base_game: SettledBy | str = SettledBy.CROUPIER,
) -> TableRound:
    """The round of ``steps`` at a table under ``sub``, settled: a missing ``no-more-bets`` or
    ``settle`` supplied; the first step that breaks a rule raises its typed error naming the
    step, and a round with no deal step an :class:`InputError` naming ``source``. ``base_game``
    (``"croupier"`` or ``"external"``) says who settles the base game
    (:func:`~croupier.table.round.check_base_game`)."""
    rnd = TableRound.open(sub, base_game=base_game)
    for i, step in enumerate(steps, start=1):
        rnd = apply_step(rnd, step, i)
    if rnd.phase is Phase.BETTING:
        rnd = rnd.no_more_bets()
    if rnd.phase is Phase.DEALT:
        rnd = rnd.settle()
    if rnd.phase is not Phase.SETTLED:
        raise InputError(f"{source}: the round has no deal step: there is nothing to settle")
    return rnd


def _submission(spec: str | dict[str, Any], base: Path | None) -> RulesSubmission:
    if isinstance(spec, dict):
        return submission_from_data(spec, "inline submission")
    path = Path(spec)
    if not path.is_absolute() and base is not None:
        path = base / path
    return load_submission(path)


def settle_file(path: str | Path) -> TableRound:
    """Read and settle a round file (see :func:`settle_record`).

    Raises :class:`~croupier.errors.InputFileError` (not a regular UTF-8 file within croupier's
    limits, not JSON), :class:`InputError` (not a round file) and what :func:`settle_record`
    raises, each noted with the file's path."""
    p = Path(path)
    data = read_json(p)  # a regular UTF-8 file within croupier's limits (croupier.inputs)
    if not isinstance(data, dict):
        raise InputError(f"{p}: a round file is a JSON object")
    try:
        return settle_record(data, p.parent, str(p))
    except CroupierError as exc:
        if not str(exc).startswith(str(p)):
            notes = getattr(exc, "__notes__", [])
            notes.insert(0, str(p))
            exc.__notes__ = notes
        raise


__all__ = [
    "STEP_FIELDS",
    "RoundFile",
    "Step",
    "apply_step",
    "parse_record",
    "parse_step",
    "replay_steps",
    "settle_file",
    "settle_record",
    "stored_step",
]
