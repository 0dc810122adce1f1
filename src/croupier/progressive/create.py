"""A progressive's definition from what a shift manager gives: the one function ``croupier meters
create`` and ``POST /progressives`` both call (:func:`new_definition`), so each creates every
progressive the other can — Jackpot Party (§ 633b.2), Match the Dealer (§ 633b.3), the Four-Card
and Five-Card Progressive Payout wagers on their EXAMPLE paytables (§ 641a.7(d)(4), (5)) — with
the same options (reset timing, envy rule, stake, reseed funding, hit policy, limits, the Rules
Submission) and refuses the same mistakes in the same words, each naming the caller's own option
(``--amount``) or field (``the amount field``): :data:`OPTIONS`, :data:`FIELDS`.

A paytable is looked up in the progressive wager's own paytables (§ 641a.7's progressives read
the EXAMPLE operator tables, not the regulation's printed ones) and checked as a Rules
Submission's is (:func:`croupier.table.submission.offered_paytable`): a deck count the section
forbids, a paytable printed for other deck counts or an id the section does not print is a
:class:`~croupier.errors.RulesError` citing the section.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from croupier.analysis.meters import ReseedFunding
from croupier.errors import InputError, RulesError, UnknownPaytableError
from croupier.paytables import MeterLevel
from croupier.progressive.model import EnvyRule, HitPolicy, ProgressiveDefinition, ResetTiming
from croupier.progressive.views import progressive_paytable
from croupier.table.progressive import progressive_wager
from croupier.table.submission import RulesSubmission, offered_paytable, submission_digest
from croupier.units import parse_amount
from croupier.wagers import ProgressiveStake

__all__ = ["FIELDS", "OPTIONS", "Words", "new_definition", "with_limits"]


@dataclass(frozen=True)
class Words:
    """What the caller calls each input, for its error messages: ``paytable`` and ``amount``
    as they are, ``limit`` a template of a level's limit (``{level}``)."""

    paytable: str
    amount: str
    limit: str


OPTIONS = Words("--paytable", "--amount", "--limit {level}")
"""The words of ``croupier meters create``: its options."""

FIELDS = Words("the paytable field", "the amount field", "the limit of {level}")
"""The words of ``POST /progressives``: its body's fields."""


def new_definition(
    paytable: str,
    *,
    decks: int,
    amount: str,
    name: str,
    reset_timing: ResetTiming = ResetTiming.ON_VALIDATION,
    envy: EnvyRule = EnvyRule.EACH,
    stake: ProgressiveStake = ProgressiveStake.COLLECTED,
    reseed: ReseedFunding = ReseedFunding.RESERVE,
    hit_policy: HitPolicy | None = None,
    limits: Sequence[tuple[str | None, str]] = (),
    submission: RulesSubmission | None = None,
    words: Words = OPTIONS,
) -> ProgressiveDefinition:
    """The progressive named ``name`` on ``paytable`` (``SECTION:ID`` or ``WAGER:ID``,
    :func:`~croupier.progressive.views.progressive_paytable`) at a ``decks``-deck table for
    ``amount`` (dollars) wagers, its levels at their seeds; ``limits`` are (level or ``None``
    for a one-level progressive, dollars) pairs (§ 605a.7(a)); ``submission`` is the Rules
    Submission it is offered under, checked already (its digest is stored with the paytable's).

    Raises :class:`~croupier.errors.InputError` (a malformed paytable spec, amount or limit, a
    level the progressive does not have, a hit policy without on-award resets) and
    :class:`~croupier.errors.RulesError` citing the section (a paytable the section does not
    print, or not for ``decks`` decks; a deck count or wager size the section forbids).

    >>> d = new_definition("four-card-progressive:example-four-card-progressive", decks=1,
    ...                    amount="$1", name="fcp-1", limits=[(None, "$50,000")])
    >>> d.section, d.paytable, d.wager_cents, [lv.limit_cents for lv in d.levels]
    ('641a.7', 'example-four-card-progressive', 100, [5000000])
    """
    section, key = progressive_paytable(paytable, words.paytable)
    try:
        wager = progressive_wager(section, key)
    except UnknownPaytableError as exc:  # a section of several progressive wagers (§ 641a.7)
        raise RulesError(str(exc), section) from None
    table = offered_paytable(wager, key, decks)
    definition = ProgressiveDefinition.from_paytable(
        table,
        decks=decks,
        wager_cents=parse_amount(amount, words.amount),
        name=name,
        reset_timing=reset_timing,
        envy_rule=envy,
        stake=stake,
        reseed=reseed,
        submission_sha256=None if submission is None else submission_digest(submission),
        hit_policy=hit_policy,
    )
    return with_limits(definition, limits, words.limit)


def with_limits(
    definition: ProgressiveDefinition,
    limits: Sequence[tuple[str | None, str]],
    template: str = OPTIONS.limit,
) -> ProgressiveDefinition:
    """``definition`` with each level's progressive limit (ceiling) of ``limits`` set: (level,
    dollars) pairs, the level ``None`` for a one-level progressive's; ``template`` names a
    limit in an error (``"--limit {level}"``)."""
    found: dict[MeterLevel, int] = {}
    for level_text, dollars in limits:
        if level_text is None:
            if len(definition.levels) != 1:
                names = ", ".join(lv.level.value for lv in definition.levels)
                raise InputError(
                    f"{template.format(level='').strip()} {dollars}: name the level, "
                    f"LEVEL=DOLLARS (levels: {names})"
                )
            level = definition.levels[0].level
        else:
            level = definition.named_level(level_text)
        found[level] = parse_amount(dollars, template.format(level=level.value))
    levels = tuple(
        dataclasses.replace(lv, limit_cents=found.get(lv.level, lv.limit_cents))
        for lv in definition.levels
    )
    return dataclasses.replace(definition, levels=levels)
