"""The open table's models name the kinds of step there are: ``allowed`` and a turn's
``actions`` are exactly the step models' actions (croupier.table.steps), no procedure event."""

from __future__ import annotations

import typing

from croupier.operations.schemas.rounds import StepAction
from croupier.table.steps import STEP_FIELDS


def test_a_step_action_is_exactly_a_step_models_action() -> None:
    assert set(typing.get_args(StepAction)) == set(STEP_FIELDS)
    assert not {"open", "recorded", "settlement", "void"} & set(typing.get_args(StepAction))
