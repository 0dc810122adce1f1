"""A step is one model per action (croupier.table.steps): only its fields, the ones it needs
required, a refusal naming what it takes, and a JSON Schema that is a union discriminated by
``action`` (issue 29)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema  # type: ignore[import-untyped,unused-ignore]
import pytest
from pydantic import TypeAdapter, ValidationError

from croupier.errors import InputError
from croupier.table.record import RoundFile, parse_record
from croupier.table.steps import (
    STEP,
    STEP_FIELDS,
    STEP_MODELS,
    BetStep,
    DealStep,
    HitStep,
    SplitStep,
    parse_step,
    stored_step,
)
from croupier.table.submission_file import SubmissionFile
from repo_paths import ROOT


def test_each_action_has_its_own_model_named_by_its_literal() -> None:
    for action, model in STEP_MODELS.items():
        assert model.model_fields["action"].annotation.__args__ == (action,)  # type: ignore[union-attr]
        assert model.model_config.get("extra") == "forbid"
        example = model.model_json_schema()["examples"][0]
        assert type(parse_step(example)) is model, action
    assert STEP_FIELDS["split"] == ("seat",)
    assert STEP_FIELDS["hit"] == ("seat", "card")
    assert STEP_FIELDS["bet"] == ("seat", "wager", "amount", "player")
    assert STEP_FIELDS["settle"] == ()


def test_a_step_is_parsed_into_its_actions_model() -> None:
    assert parse_step({"action": "hit", "seat": 3}) == HitStep(action="hit", seat=3)
    deal = parse_step({"action": "deal", "players": {"3": "8s 8s"}, "dealer": "Kd 9c"})
    assert isinstance(deal, DealStep) and deal.players == {3: "8s 8s"}


@pytest.mark.parametrize(
    ("step", "words"),
    [
        (
            {"action": "split", "seat": 1, "cards": "3h 2d"},
            "a split step takes 'seat', not 'cards'",
        ),
        (
            {"action": "stand", "seat": 1, "card": "5h", "wager": "pp", "amount": "$9"},
            "a stand step takes 'seat', not 'wager', 'amount' or 'card'",
        ),
        ({"action": "settle", "seta": 1}, "a settle step takes no other field, not 'seta'"),
        ({"action": "bet", "seat": 1, "wager": "blackjack"}, "amount: Field required"),
        ({"action": "hit", "card": "5d"}, "seat: Field required"),
        ({"action": "shuffle"}, "action: Input should be 'bet', 'no-more-bets', 'deal'"),
        ({"seat": 1}, "action: Field required"),
    ],
)
def test_a_step_is_refused_in_one_line_naming_the_field(step: dict[str, Any], words: str) -> None:
    with pytest.raises(InputError, match="not a round step: ") as exc:
        parse_step(step)
    assert words in str(exc.value)
    with pytest.raises(InputError) as in_file:
        parse_record({"submission": "x.toml", "steps": [step]})
    assert "step 1" in str(in_file.value) and words in str(in_file.value)
    assert f"{step.get('action')}," not in str(in_file.value)  # the model's tag is left out


def test_a_field_of_another_action_is_refused_even_as_null() -> None:
    """The schema a client is generated from refuses it (``additionalProperties: false``), and
    so does the service; a field of the step's own action may be ``null`` (not given)."""
    with pytest.raises(InputError, match="a stand step takes 'seat', not 'card'"):
        parse_step({"action": "stand", "seat": 1, "card": None})
    assert parse_step({"action": "hit", "seat": 1, "card": None}) == HitStep(action="hit", seat=1)


def test_a_stored_step_with_a_field_its_action_does_not_read_replays() -> None:
    assert stored_step({"action": "split", "seat": 2, "cards": "3h"}) == SplitStep(
        action="split", seat=2
    )
    with pytest.raises(ValidationError):
        stored_step({"action": "split"})


def test_the_step_schema_is_a_union_discriminated_by_action() -> None:
    schema = STEP.json_schema()
    assert schema["discriminator"]["propertyName"] == "action"
    assert set(schema["discriminator"]["mapping"]) == set(STEP_MODELS)
    assert len(schema["oneOf"]) == len(STEP_MODELS)
    split = schema["$defs"]["SplitStep"]
    assert split["required"] == ["action", "seat"] and split["additionalProperties"] is False
    assert set(split["properties"]) == {"action", "seat"}
    bet = BetStep.model_json_schema()
    assert bet["required"] == ["action", "seat", "wager", "amount"]
    assert all(p.get("description") for k, p in bet["properties"].items() if k != "action")


def test_the_round_file_schema_gives_the_submission_its_fields() -> None:
    """The round file's ``submission`` is a path or a Rules Submission object, its fields typed
    (SubmissionFile) — while the reader still takes the object as given and checks it in full
    when it reads it (every violation with its section)."""
    schema = TypeAdapter(RoundFile).json_schema(ref_template="#/$defs/{model}")
    refs = schema["properties"]["submission"]["anyOf"]
    assert refs == [{"type": "string"}, {"$ref": "#/$defs/SubmissionFile"}]
    fields = schema["$defs"]["SubmissionFile"]["properties"]
    assert set(fields) == set(SubmissionFile.model_fields)
    assert all(f.get("description") for f in fields.values())
    bad = {"submission": {"game": "blackjack", "decks": 6, "wagers": []}, "steps": []}
    assert parse_record(bad).submission == bad["submission"]  # taken as given, checked later


def test_the_generated_round_file_schema_refuses_each_actions_foreign_field() -> None:
    schema = json.loads((ROOT / "docs/schemas/round-file.schema.json").read_text("utf-8"))
    ok = {"submission": "x.toml", "steps": [{"action": "split", "seat": 1}]}
    jsonschema.validate(ok, schema, cls=jsonschema.Draft202012Validator)
    for step in ({"action": "split", "seat": 1, "cards": "3h"}, {"action": "bet", "seat": 1}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**ok, "steps": [step]}, schema)
        with pytest.raises(InputError):
            parse_record({**ok, "steps": [step]})
