"""Meter arithmetic without a database: definitions from the paytables, exact increments, awards
in the regulated order, envy bonuses, resets, and the replay of events.

Every expected value is worked out by hand from the regulation's numbers (seeds, rates, wager)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from croupier.errors import LedgerIntegrityError, PaytableError, RoundStateError, RulesError
from croupier.paytables import MeterLevel, builtin_paytables
from croupier.progressive import (
    AwardKind,
    AwardStatus,
    EnvyRule,
    EventKind,
    ProgressiveDefinition,
    QualifyingHand,
    ReseedFunding,
    ResetTiming,
    format_micros,
)
from croupier.progressive.meters import (
    Delta,
    EventDraft,
    LevelState,
    PendingAward,
    Replayer,
    StoredEvent,
    house_topup,
    increment,
    payment_events,
    reset_delta,
    seed_states,
)
from croupier.progressive.planning import plan_settlement
from progressive_support import paytable_definition

U = 10_000  # micro-dollars per cent
P = MeterLevel.PROGRESSIVE


def mtd(
    reset_timing: ResetTiming = ResetTiming.ON_VALIDATION,
    reseed: ReseedFunding = ReseedFunding.RESERVE,
) -> ProgressiveDefinition:
    return paytable_definition(
        "633b.3", "1", 6, 500, "mtd-5", reset_timing=reset_timing, reseed=reseed
    )


def hands(*pairs: tuple[int, str]) -> list[QualifyingHand]:
    return [QualifyingHand(p, o) for p, o in pairs]


# -- definitions from the paytables ------------------------------------------------------------


def test_match_the_dealer_seed_is_1000_times_the_wager_with_rates_15_and_6_percent() -> None:
    # § 633b.3(j): seed 1,000 × the wager; primary 15%, secondary 6%
    for wager, seed in ((100, 100_000), (500, 500_000)):
        d = paytable_definition("633b.3", "4", 8, wager)
        (lv,) = d.levels
        assert (lv.level, lv.seed_cents) == (P, seed)
        assert (lv.primary_rate, lv.secondary_rate) == (Fraction(15, 100), Fraction(6, 100))


def test_jackpot_party_levels_and_rates_as_printed() -> None:
    p1 = paytable_definition("633b.2", "P1", 6, 500)
    assert [(lv.seed_cents, lv.primary_rate, lv.secondary_rate) for lv in p1.levels] == [
        (5_000_000, Fraction(16, 100), Fraction(375, 10_000))
    ]
    # P7 prints only a total increment rate, 18.50%: all of it on the meter players see
    p7 = paytable_definition("633b.2", "P7", 1, 500)
    assert [(lv.primary_rate, lv.secondary_rate) for lv in p7.levels] == [
        (Fraction(185, 1000), Fraction(0))
    ]
    p22 = paytable_definition("633b.2", "P22-A", 1, 500)
    assert [(lv.level.value, lv.seed_cents, lv.primary_rate) for lv in p22.levels] == [
        ("Mega", 5_000_000, Fraction(6, 100)),
        ("Major", 500_000, Fraction(5, 100)),
        ("Minor", 50_000, Fraction(3, 100)),
        ("Mini", 30_000, Fraction(3, 100)),
    ]
    assert p22.line("royal-flush-diamonds").envy_cents == 300_000


def test_wager_size_and_deck_count_must_be_printed_for_the_paytable() -> None:
    with pytest.raises(RulesError, match=r"\$1 or \$5, not \$2.*633b\.3"):
        paytable_definition("633b.3", "1", 6, 200)
    with pytest.raises(RulesError, match=r"\$5, not \$1"):
        paytable_definition("633b.2", "P1", 6, 100)
    with pytest.raises(RulesError, match="not 8"):
        ProgressiveDefinition.from_paytable(
            builtin_paytables().get("633b.2", "P1", 6), decks=8, wager_cents=500, name="x"
        )


def test_definition_json_round_trips_exactly() -> None:
    d = paytable_definition(
        "633b.2", "P32-C", 1, 500, reset_timing=ResetTiming.ON_AWARD, envy_rule=EnvyRule.LARGEST
    )
    assert ProgressiveDefinition.from_json(d.to_json()) == d


def test_format_micros_shows_sub_cent_remainders() -> None:
    assert format_micros(187_500) == "$0.1875"
    assert format_micros(5_000_00 * U) == "$5,000"
    assert format_micros(-50_022 * U) == "-$500.22"


# -- increments ----------------------------------------------------------------------------------


def test_increments_are_exact_and_never_lose_a_fraction() -> None:
    # 3.75% of $5 is 18.75 cents; 4.25% of $1 is 4.25 cents; 7.5% of $1 is 7.5 cents
    assert increment(Fraction(375, 10_000), 0, 500) == 187_500
    assert increment(Fraction(425, 10_000), 0, 100) == 42_500
    assert increment(Fraction(75, 1000), 0, 100) == 75_000
    # a rate that is no whole number of micro-dollars: the increments still add up to
    # floor(total wagered × rate), whatever the wager sizes
    rate = Fraction(1, 7)
    wagered, total = 0, 0
    for w in [100, 500, 100, 100, 500, 1, 3] * 20:
        total += increment(rate, wagered, w)
        wagered += w
    assert total == (wagered * U) // 7


# -- settlement ----------------------------------------------------------------------------------


def test_three_winners_settled_right_to_left_later_shares_from_what_is_left() -> None:
    d = mtd()
    _, states = seed_states(d)
    plan = plan_settlement(
        d,
        states,
        [1, 2, 3],
        hands(
            (3, "two-suited-match"),  # 10% of Progressive
            (2, "suited-match"),  # 10 to 1
            (1, "two-suited-match-aces-of-spades"),  # 100% of Progressive
        ),
    )
    # three $5 wagers: 3 × 75¢ to the meter, 3 × 30¢ to the reserve
    contribution = plan.events[0]
    assert contribution.kind is EventKind.CONTRIBUTION
    assert (contribution.delta.meter, contribution.delta.reserve) == (225 * U, 90 * U)
    # seat 3 first: 10% of $5,002.25 = $500.225, paid $500.22 (the half cent stays);
    # seat 2: $5 at 10 to 1 returns $55; seat 1: 100% of what is left, $5,002.25 − $500.22
    got = [(a.position, a.kind, a.amount_cents, a.status) for a in plan.awards]
    assert got == [
        (3, AwardKind.METER, 50_022, AwardStatus.PENDING),
        (2, AwardKind.ODDS, 5_500, AwardStatus.PAID),
        (1, AwardKind.METER, 450_203, AwardStatus.PENDING),
    ]
    s = plan.states[P]
    assert (s.meter, s.held, s.reserve, s.available) == (500_225 * U, 500_225 * U, 90 * U, 0)


@pytest.mark.parametrize(
    ("reseed", "meter_cents", "house_cents"),
    [
        # the 60¢ reserve pays 60¢ of the $5,000 reseed, the house $4,999.40
        (ReseedFunding.RESERVE, 500_000, 499_940),
        # a new $5,000 seed from the house, the 60¢ reserve on top
        (ReseedFunding.HOUSE, 500_060, 500_000),
    ],
)
def test_validation_pays_out_and_a_100_percent_award_resets_by_its_funding(
    reseed: ReseedFunding, meter_cents: int, house_cents: int
) -> None:
    d = mtd(reseed=reseed)
    _, states = seed_states(d)
    plan = plan_settlement(d, states, [1, 2], hands((1, "two-suited-match-aces-of-spades")))
    s = plan.states[P]  # $5,001.50 on the meter, all of it held; reserve 60¢
    a = plan.awards[0]
    assert a.amount_cents == 500_150
    events, after = payment_events(d, s, PendingAward(1, P, Fraction(1), 500_150, 500_150))
    assert [e.kind for e in events] == [EventKind.PAYMENT, EventKind.RESET]
    # paid out, then reset; the reserve is emptied either way
    assert (after.meter, after.held, after.reserve, after.paid_cents) == (
        meter_cents * U,
        0,
        0,
        500_150,
    )
    assert house_topup(d, s.apply(events[0].delta)) == house_cents * U
    if reseed is ReseedFunding.RESERVE:
        assert dict(events[1].detail) == {
            "funding": "reserve",
            "reserve_micros": 60 * U,
            "house_micros": house_cents * U,
        }
    else:
        assert not events[1].detail  # as every reset recorded before the funding was a field


def test_a_reserve_above_the_seed_is_all_put_on_the_meter_and_the_house_adds_nothing() -> None:
    d = mtd()
    s = LevelState(P, meter=3, reserve=600_000 * U + 7)  # $6,000 and 7 µ$ in the reserve
    assert reset_delta(d, s) == Delta(meter=600_000 * U + 7, reserve=-(600_000 * U + 7))
    assert house_topup(d, s) == 0


def test_on_award_reset_lets_a_second_jackpot_winner_share_the_reset_meter() -> None:
    two_aces = hands((2, "two-suited-match-aces-of-spades"), (1, "two-suited-match-aces-of-spades"))
    # resetting on validation: the second winner's 100% is of what is left, nothing
    d = mtd()
    _, states = seed_states(d)
    plan = plan_settlement(d, states, [1, 2], two_aces)
    assert [a.amount_cents for a in plan.awards] == [500_150, 0]
    # resetting at the award ("jackpot lock"): seat 2 takes $5,001.50, the level resets to
    # $5,000 (the 60¢ reserve and $4,999.40 from the house), seat 1 takes all of that and it
    # resets again to $5,000
    d = mtd(reset_timing=ResetTiming.ON_AWARD)
    _, states = seed_states(d)
    plan = plan_settlement(d, states, [1, 2], two_aces)
    assert [a.amount_cents for a in plan.awards] == [500_150, 500_000]
    # with a new house seed each time, the 60¢ reserve goes on top of the first reset
    h = mtd(reset_timing=ResetTiming.ON_AWARD, reseed=ReseedFunding.HOUSE)
    assert [a.amount_cents for a in plan_settlement(h, states, [1, 2], two_aces).awards] == [
        500_150,
        500_060,
    ]
    assert [e.kind for e in plan.events] == [
        EventKind.CONTRIBUTION,
        EventKind.AWARD,
        EventKind.RESET,
        EventKind.AWARD,
        EventKind.RESET,
    ]
    s = plan.states[P]
    assert (s.meter, s.reserve, s.held) == (500_000 * U, 0, 0)


def test_envy_goes_to_every_other_player_holding_the_wager() -> None:
    d = paytable_definition("633b.2", "P17-A", 1, 500)
    _, states = seed_states(d)
    plan = plan_settlement(d, states, [1, 2, 3, 4], hands((2, "royal-flush-diamonds")))
    # four $5 wagers: Mega 6% (30¢ each), Major and Minor 7% (35¢ each)
    contributions = {e.level: e.delta.meter for e in plan.events[:3]}
    assert contributions == {
        MeterLevel.MEGA: 120 * U,
        MeterLevel.MAJOR: 140 * U,
        MeterLevel.MINOR: 140 * U,
    }
    got = [(a.position, a.kind, a.amount_cents, a.source_position) for a in plan.awards]
    assert got == [
        (4, AwardKind.ENVY, 300_000, 2),
        (3, AwardKind.ENVY, 300_000, 2),
        (2, AwardKind.METER, 5_000_120, None),  # 100% of Mega: $50,000 + $1.20
        (1, AwardKind.ENVY, 300_000, 2),
    ]


def test_envy_each_or_largest() -> None:
    two = hands((2, "royal-flush-diamonds"), (4, "royal-flush-other"))  # envy $3,000 and $1,000

    def envy_by_seat(rule: EnvyRule) -> dict[int, list[int]]:
        d = paytable_definition("633b.2", "P17-A", 1, 500, envy_rule=rule)
        _, states = seed_states(d)
        plan = plan_settlement(d, states, [1, 2, 3, 4], two)
        out: dict[int, list[int]] = {}
        for a in plan.awards:
            if a.kind is AwardKind.ENVY:
                out.setdefault(a.position, []).append(a.amount_cents)
        return out

    assert envy_by_seat(EnvyRule.EACH) == {
        4: [300_000],
        3: [100_000, 300_000],
        2: [100_000],
        1: [100_000, 300_000],
    }
    assert envy_by_seat(EnvyRule.LARGEST) == {
        4: [300_000],
        3: [300_000],
        2: [100_000],
        1: [300_000],
    }


def test_sub_cent_increments_stay_on_the_meter() -> None:
    # P3: $1 wagers, 19% to the meter and 4.25% to the reserve
    d = paytable_definition("633b.2", "P3", 6, 100)
    _, states = seed_states(d)
    plan = plan_settlement(d, states, [1, 2, 3], [])
    s = plan.states[P]
    assert s.meter == 1_000_000 * U + 57 * U  # $10,000 + 3 × 19¢
    assert s.reserve == 3 * 42_500  # 12.75¢
    assert format_micros(s.reserve) == "$0.1275"


def test_bad_hands_are_refused() -> None:
    d = mtd()
    _, states = seed_states(d)
    with pytest.raises(RoundStateError, match="position 4 holds no"):
        plan_settlement(d, states, [1, 2], hands((4, "suited-match")))
    with pytest.raises(PaytableError, match="no outcome 'royal-flush'"):
        plan_settlement(d, states, [1], hands((1, "royal-flush")))
    with pytest.raises(RoundStateError, match="two qualifying hands"):
        plan_settlement(d, states, [1], hands((1, "suited-match"), (1, "non-suited-match")))


# -- replay --------------------------------------------------------------------------------------


def stored(drafts: list[EventDraft], first_award_id: int = 1) -> list[StoredEvent]:
    return [
        StoredEvent(
            seq=i + 1,
            kind=e.kind,
            level=e.level,
            delta=e.delta,
            position=e.position,
            award_id=None if e.award is None else e.award + first_award_id,
            amount_cents=e.amount_cents,
            actor="flo" if e.kind is EventKind.VALIDATION else None,
            detail=e.detail,
        )
        for i, e in enumerate(drafts)
    ]


def test_replay_rebuilds_the_levels_and_refuses_a_tampered_event() -> None:
    d = mtd()
    seeds, states = seed_states(d)
    plan = plan_settlement(d, states, [1, 2, 3], hands((3, "two-suited-match")))
    events = stored([*seeds, *plan.events])
    assert Replayer(d).run(events) == plan.states

    # an award of one cent more than 10% of the meter
    tampered = list(events)
    i = next(k for k, e in enumerate(tampered) if e.kind is EventKind.AWARD)
    detail = dict(tampered[i].detail, meter_cents=50_023)
    tampered[i] = replace(tampered[i], detail=detail)
    with pytest.raises(LedgerIntegrityError, match="1/10 of the meter is 50022"):
        Replayer(d).run(tampered)

    # a contribution of a different amount than the rates give
    tampered = list(events)
    j = next(k for k, e in enumerate(tampered) if e.kind is EventKind.CONTRIBUTION)
    tampered[j] = replace(tampered[j], delta=replace(tampered[j].delta, meter=225 * U + 1))
    with pytest.raises(LedgerIntegrityError, match="contribution"):
        Replayer(d).run(tampered)


def test_replay_refuses_a_payment_nobody_validated() -> None:
    d = mtd()
    seeds, states = seed_states(d)
    plan = plan_settlement(d, states, [1], hands((1, "two-suited-match")))
    pay, _ = payment_events(d, plan.states[P], PendingAward(1, P, Fraction(1, 10), 50_007, 50_007))
    events = stored([*seeds, *plan.events])
    events += [replace(e, seq=100 + k) for k, e in enumerate(stored(pay, first_award_id=0))]
    with pytest.raises(LedgerIntegrityError, match="no one validated"):
        Replayer(d).run(events)


def test_level_state_available_excludes_held() -> None:
    s = LevelState(P, meter=10 * U, held=4 * U)
    assert s.available == 6 * U
