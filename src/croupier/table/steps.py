"""The steps of a round, one pydantic model per action: what a round file's ``steps`` and
``POST /tables/{table}/steps`` take (:mod:`croupier.table.record` replays them).

A step is :data:`Step`, a union discriminated by ``action``: a ``split`` is :class:`SplitStep`,
which takes ``seat`` and nothing else, a ``hit`` is :class:`HitStep` (``seat``, and the ``card``
dealt unless the round was dealt from a shuffled shoe). Each model refuses a field its action does
not read (``extra="forbid"``), and :func:`step_errors` words the refusal as one line naming what
the step takes: "a split step takes 'seat', not 'cards'" (given as ``null`` too: the schema a
client is generated from says what the service takes, no more and no less).

Numbers are JSON numbers, never converted from another type: ``"seat": true`` is not seat 1,
``"seat": "3"`` not seat 3 (pydantic's strict integers); an object's keys are seats written
with the digits 0–9 (:data:`SeatKey`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictInt,
    TypeAdapter,
    ValidationError,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from croupier.errors import InputError
from croupier.table.procedure import or_list
from croupier.units import amount_schema
from croupier.wagers.at_table import seat_number


def _seat_key(value: object) -> int:
    """A seat as a JSON object's key gives it ("3"): :func:`~croupier.wagers.at_table.seat_number`
    (ASCII digits only: pydantic alone would read "3_0" as 30 and " +3" as 3)."""
    try:
        return seat_number(value)
    except InputError as exc:
        raise PydanticCustomError("seat", str(exc)) from None


SeatKey = Annotated[int, BeforeValidator(_seat_key)]
"""A seat as the key of a step's ``players`` or ``switch_cards``."""

Amount = Annotated[str, Field(json_schema_extra=amount_schema())]
"""Dollars as text, e.g. ``"$25"`` or ``"12.50"`` (read by :func:`croupier.units.parse_amount`)."""

SeatCards = Annotated[
    dict[SeatKey, str],
    Field(json_schema_extra={"propertyNames": {"pattern": "^[0-9]+$"}}),
]
"""Seat number (1 = first base, the dealer's left) → its cards, e.g. ``{"3": "8s 8s"}``."""

FIELD_ORDER: tuple[str, ...] = (
    "seat",
    "wager",
    "amount",
    "player",
    "players",
    "dealer",
    "coup",
    "bonus",
    "seed",
    "switch_cards",
    "card",
    "cards",
)
"""Every field a step of some action reads, in the order a refusal names them."""


class _Step(BaseModel):
    """A step: its ``action`` and the fields that action reads, and no other."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)


def _example(value: dict[str, Any]) -> ConfigDict:
    return ConfigDict(json_schema_extra={"examples": [value]})


class BetStep(_Step):
    """A wager placed at a seat while betting is open."""

    model_config = _example({"action": "bet", "seat": 3, "wager": "blackjack", "amount": "$25"})
    action: Literal["bet"]
    seat: StrictInt
    """The seat, 1 = first base."""
    wager: str
    """A wager id, e.g. ``perfect-pairs`` (at a Switch Hands or Blackjack Premium table the Ante
    is ``switch-hands-ante``)."""
    amount: Amount
    """Dollars, e.g. "$25" or "12.50"."""
    player: str | None = None
    """The player wagering (Four Card Poker's adjacent boxes, § 641a.7(e))."""


class NoMoreBetsStep(_Step):
    """The lock-out: no more bets (supplied before a deal that lacks one)."""

    model_config = _example({"action": "no-more-bets"})
    action: Literal["no-more-bets"]


class DealStep(_Step):
    """The cards dealt: Blackjack's players' hands and the dealer's upcard and hole card,
    Baccarat's coup, a poker game's hands, or ``seed`` to deal from a shuffled shoe."""

    model_config = _example({"action": "deal", "players": {"3": "8s 8s"}, "dealer": "Kd 9c"})
    action: Literal["deal"]
    players: SeatCards | None = None
    """Seat number (1 = first base, the dealer's left) → its cards, e.g. "8s 8s" (rank then
    suit)."""
    dealer: str | None = None
    """The dealer's cards: Blackjack's upcard and hole card (the draws in dealer-draw steps, or in
    a round file here after the hole card)."""
    coup: str | None = None
    """Baccarat: the coup's cards in dealing order."""
    bonus: str | None = None
    """Four Card Poker: the Six Card Bonus card (§ 641a.7(d)(8))."""
    seed: StrictInt | None = None
    """Deal from a shoe shuffled with this seed (the other fields are then left out)."""
    switch_cards: SeatCards | None = None
    """Switch Hands and Blackjack Premium: each Ante player's face-down cards, seat → cards."""


class PlayStep(_Step):
    """A poker player's Play wager (the player stays in)."""

    model_config = _example({"action": "play", "seat": 1, "amount": "$20"})
    action: Literal["play"]
    seat: StrictInt
    """The seat, 1 = first base."""
    amount: Amount
    """The Play wager in dollars, e.g. "$20"."""


class FoldStep(_Step):
    """A poker player folds, losing the Ante."""

    model_config = _example({"action": "fold", "seat": 2})
    action: Literal["fold"]
    seat: StrictInt
    """The seat, 1 = first base."""


class SwitchStep(_Step):
    """Switch Hands: the player switches the second cards of the two hands (§ 633b.4(f))."""

    model_config = _example({"action": "switch", "seat": 3})
    action: Literal["switch"]
    seat: StrictInt
    """The seat, 1 = first base."""


class KeepStep(_Step):
    """Switch Hands: the player keeps the hands as dealt (§ 633b.4(f))."""

    model_config = _example({"action": "keep", "seat": 3})
    action: Literal["keep"]
    seat: StrictInt
    """The seat, 1 = first base."""


class HitStep(_Step):
    """A Blackjack player draws a card."""

    model_config = _example({"action": "hit", "seat": 3, "card": "5d"})
    action: Literal["hit"]
    seat: StrictInt
    """The seat, 1 = first base."""
    card: str | None = None
    """The card dealt (left out when the round was dealt from a shuffled shoe)."""


class StandStep(_Step):
    """A Blackjack player stands."""

    model_config = _example({"action": "stand", "seat": 3})
    action: Literal["stand"]
    seat: StrictInt
    """The seat, 1 = first base."""


class DoubleStep(_Step):
    """A Blackjack player doubles down and is dealt one card."""

    model_config = _example({"action": "double", "seat": 3, "card": "Th"})
    action: Literal["double"]
    seat: StrictInt
    """The seat, 1 = first base."""
    amount: Amount | None = None
    """Double for less: the added wager in dollars, e.g. "$10" (default: the hand's wager)."""
    card: str | None = None
    """The one card dealt (left out when the round was dealt from a shuffled shoe)."""


class SplitStep(_Step):
    """A Blackjack player splits a pair; each hand then takes its own hits."""

    model_config = _example({"action": "split", "seat": 3})
    action: Literal["split"]
    seat: StrictInt
    """The seat, 1 = first base."""


class SurrenderStep(_Step):
    """A Blackjack player surrenders half the wager (late surrender, § 633a.9)."""

    model_config = _example({"action": "surrender", "seat": 3})
    action: Literal["surrender"]
    seat: StrictInt
    """The seat, 1 = first base."""


class DealerDrawStep(_Step):
    """The Blackjack dealer's draws once every hand is played, each checked against the drawing
    rule (S17 or H17, § 633a.7)."""

    model_config = _example({"action": "dealer-draw", "cards": "5h Kd"})
    action: Literal["dealer-draw"]
    card: str | None = None
    """One card drawn (one step a card)."""
    cards: str | None = None
    """The dealer's cards drawn after the players' hands, in order, e.g. "5h Kd" (§ 633a.7)."""


class SettleStep(_Step):
    """Settle the round (supplied at the end of a round file that lacks it)."""

    model_config = _example({"action": "settle"})
    action: Literal["settle"]


AnyStep = (
    BetStep
    | NoMoreBetsStep
    | DealStep
    | PlayStep
    | FoldStep
    | SwitchStep
    | KeepStep
    | HitStep
    | StandStep
    | DoubleStep
    | SplitStep
    | SurrenderStep
    | DealerDrawStep
    | SettleStep
)
"""Every step's model."""

Step = Annotated[AnyStep, Field(discriminator="action")]
"""One step of a round, its model chosen by its ``action``."""

STEP_MODELS: Mapping[str, type[_Step]] = {
    "bet": BetStep,
    "no-more-bets": NoMoreBetsStep,
    "deal": DealStep,
    "play": PlayStep,
    "fold": FoldStep,
    "switch": SwitchStep,
    "keep": KeepStep,
    "hit": HitStep,
    "stand": StandStep,
    "double": DoubleStep,
    "split": SplitStep,
    "surrender": SurrenderStep,
    "dealer-draw": DealerDrawStep,
    "settle": SettleStep,
}
"""Each action's model, in the order of a round."""

STEP_FIELDS: Mapping[str, tuple[str, ...]] = {
    action: tuple(f for f in model.model_fields if f != "action")
    for action, model in STEP_MODELS.items()
}
"""The fields each step's action reads (besides ``action``); any other given is refused."""

STEP: TypeAdapter[Step] = TypeAdapter(Step)
"""Validates one step (:func:`parse_step` words its errors)."""


def stored_step(data: Mapping[str, Any]) -> Step:
    """A step as stored when it was accepted: the fields its action does not read left out (a
    step stored before they were refused was taken with them unread, so a round in play across
    that change replays as it was played). Raises pydantic's ``ValidationError`` otherwise."""
    takes = STEP_FIELDS.get(str(data.get("action")), ())
    return STEP.validate_python({k: v for k, v in data.items() if k == "action" or k in takes})


def parse_step(data: object) -> Step:
    """One step (``POST /tables/{table}/steps``' body); :class:`InputError` naming the first
    problems: "not a round step: a split step takes 'seat', not 'cards'"."""
    try:
        return STEP.validate_python(data)
    except ValidationError as exc:
        found = "; ".join(
            f"{'.'.join(map(str, loc)) or 'step'}: {msg}"
            for loc, msg in step_errors(exc.errors())[:3]
        )
        raise InputError(f"not a round step: {found}") from exc


Loc = tuple[int | str, ...]


def _tag_at(loc: Loc) -> int | None:
    """Where in ``loc`` pydantic put the step's action (the union's tag), if anywhere: right
    after a list index, a request's ``body``, or first."""
    for i, part in enumerate(loc):
        if part in STEP_MODELS and (i == 0 or isinstance(loc[i - 1], int) or loc[i - 1] == "body"):
            return i
    return None


def step_errors(errors: Sequence[ErrorDetails]) -> list[tuple[Loc, str]]:
    """Pydantic's errors of data holding steps, as croupier words them (``loc``, message): the
    action's model left out of the location (``steps.0.split.cards`` is ``steps.0.cards``); the
    fields a step's action does not read named in one line at the step, with what it takes ("a
    split step takes 'seat', not 'cards'"); an action none takes as the actions there are."""
    out: list[tuple[Loc, str]] = []
    extra: dict[Loc, list[str]] = {}
    for e in errors:
        loc: Loc = tuple(e["loc"])
        kind = e["type"]
        if kind in ("union_tag_invalid", "union_tag_not_found") and "'action'" in str(
            e.get("ctx", {}).get("discriminator")
        ):
            said = or_list([f"'{a}'" for a in STEP_MODELS])
            found = "Field required" if kind == "union_tag_not_found" else f"Input should be {said}"
            out.append(((*loc, "action"), found))
            continue
        at = _tag_at(loc)
        if at is None:
            out.append((loc, e["msg"]))
            continue
        step, rest = (*loc[:at], loc[at]), loc[at + 1 :]
        if kind == "extra_forbidden" and len(rest) == 1:
            if step not in extra:
                extra[step] = []
                out.append((step, ""))  # worded below, once every field is known
            extra[step].append(str(rest[0]))
            continue
        out.append(((*loc[:at], *rest), e["msg"]))
    return [
        ((loc[:-1], _refusal(str(loc[-1]), extra[loc])) if loc in extra and not msg else (loc, msg))
        for loc, msg in out
    ]


def _refusal(action: str, fields: list[str]) -> str:
    """ "a stand step takes 'seat', not 'wager', 'amount' or 'card'"."""
    takes = STEP_FIELDS[action]
    said = or_list([f"'{f}'" for f in takes], "and") if takes else "no other field"
    known = [f for f in FIELD_ORDER if f in fields]
    named = [*known, *(f for f in fields if f not in known)]
    return f"a {action} step takes {said}, not {or_list(list(map(repr, named)))}"


__all__ = [
    "STEP",
    "STEP_FIELDS",
    "STEP_MODELS",
    "AnyStep",
    "BetStep",
    "DealStep",
    "DealerDrawStep",
    "DoubleStep",
    "FoldStep",
    "HitStep",
    "KeepStep",
    "NoMoreBetsStep",
    "PlayStep",
    "SeatKey",
    "SettleStep",
    "SplitStep",
    "StandStep",
    "Step",
    "SurrenderStep",
    "SwitchStep",
    "parse_step",
    "step_errors",
    "stored_step",
]
