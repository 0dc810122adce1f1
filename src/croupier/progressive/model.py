"""Domain values of the progressive table game system (58 Pa. Code § 605a.7, § 605a.8).

A :class:`ProgressiveDefinition` is what a casino configures from one paytable of the regulation:
the wager size, the meter levels (seed/reseed, primary and secondary increment rates), what every
outcome pays (odds, a share of a level, an envy bonus) and the readings chosen where the regulation
is silent (:class:`ResetTiming`, :class:`EnvyRule`, the stake reading). Everything here is
immutable; the ledger (:mod:`croupier.progressive.ledger`) stores a definition as canonical JSON so
that its meters can be replayed without the package's paytable data.

Meters are held in integer *micro-dollars* (:data:`MICROS_PER_CENT` = 10,000 per cent), so every
printed increment rate (two decimals of a percent) of a whole-cent wager is exact; see
docs/interpretations.md for the rounding policy.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any

from croupier.analysis.meters import ReseedFunding
from croupier.cards import decks_phrase
from croupier.errors import (
    AmountLimitError,
    InputError,
    MeterLimitError,
    PaytableError,
    RulesError,
    one_of,
)
from croupier.paytables import MeterLevel, MeterShare, Pay, Paytable, parse_pay, paytable_digest
from croupier.units import MAX_CENTS, STORED_INT_MAX, format_money
from croupier.units import MICROS_PER_CENT as MICROS_PER_CENT  # defined with the money limit
from croupier.wagers.base import ProgressiveStake, Settlement


def check_stored(level: MeterLevel, *values: int) -> None:
    """:class:`~croupier.errors.MeterLimitError` when one of a level's ``values`` (its meter,
    reserve and held micro-dollars, its wagered and paid cents) is beyond what its column holds
    (:data:`~croupier.units.STORED_INT_MAX`): growth stopped as a typed refusal before it is
    written, not as the database's overflow."""
    if any(not -STORED_INT_MAX <= v <= STORED_INT_MAX for v in values):
        raise MeterLimitError(
            f"the {level.value} level would hold more than its column can "
            f"({format_micros(STORED_INT_MAX)}, a signed 64-bit count of micro-dollars): nothing "
            "was written; a pit manager's adjustment can bring the meter down"
        )


def format_micros(micros: int) -> str:
    """Micro-dollars as dollars: whole cents as usual, a sub-cent remainder as extra digits.

    >>> format_micros(50_000_00 * MICROS_PER_CENT)
    '$50,000'
    >>> format_micros(187_500)
    '$0.1875'
    >>> format_micros(-1_500_000)
    '-$1.50'
    """
    cents, rest = divmod(abs(micros), MICROS_PER_CENT)
    sign = "-" if micros < 0 else ""
    if not rest:
        return sign + format_money(cents)
    dollars, c = divmod(cents, 100)
    digits = f"{c:02d}{rest:04d}".rstrip("0")
    return f"{sign}${dollars:,}.{digits}"


class Role(Enum):
    """Who may do what at a progressive table: the pit's chain of command, lowest first, then
    the two roles that only read.

    A progressive payout is validated by "a floorperson or above" (§ 633b.2(h)(3),
    § 633b.3(h)(3)); the dealer accepts, locks out, verifies the chips and settles.
    ``accounting`` reads what a pit manager reads (the records and the financial reports);
    an ``auditor`` reads everything a shift manager reads (the staff roster and its log
    included). Neither changes anything: they stand outside the chain, so :meth:`at_least` of
    any pit role is false for them (docs/interpretations.md, *Staff and credentials*).
    """

    DEALER = "dealer"
    FLOORPERSON = "floorperson"
    PIT_MANAGER = "pit-manager"
    ASSISTANT_SHIFT_MANAGER = "assistant-shift-manager"
    SHIFT_MANAGER = "shift-manager"
    ACCOUNTING = "accounting"
    AUDITOR = "auditor"

    @property
    def read_only(self) -> bool:
        """Whether the role only reads (accounting, auditor)."""
        return self in _READ_ONLY

    @property
    def rank(self) -> int:
        """0 for a dealer, 1 for a floorperson, …; -1 for a role that only reads."""
        return -1 if self.read_only else _CHAIN.index(self)

    def at_least(self, other: Role) -> bool:
        """Whether this role is ``other`` or above it in the pit's chain (a role that only reads
        is at least itself and nothing else)."""
        if self.read_only or other.read_only:
            return self is other
        return self.rank >= other.rank

    def may_read(self, needed: Role) -> bool:
        """Whether this role reads what a ``needed`` or above reads: a pit role by the chain,
        accounting what a pit manager reads, an auditor everything."""
        if self is Role.AUDITOR:
            return True
        if self is Role.ACCOUNTING:
            return needed is Role.ACCOUNTING or Role.PIT_MANAGER.at_least(needed)
        return self.at_least(needed)

    @property
    def said(self) -> str:
        """What a member of the role is, as a sentence says it after "is": "a dealer", "an
        auditor", "in accounting" (a department, not a title: "acct is in accounting")."""
        if self is Role.ACCOUNTING:
            return "in accounting"
        return f"{'an' if self.value[0] in 'aeiou' else 'a'} {self.value}"

    def who_may(self, reading: bool = False) -> str:
        """Who may do what needs this role, as a message says it after "needs": "a
        floorperson or above"; ``reading`` (what the role reads), with the roles that only
        read and may read it too: "a shift-manager or above, or an auditor", "a pit-manager or
        above, accounting or an auditor"."""
        if self.read_only:
            first = "accounting" if self is Role.ACCOUNTING else self.said
        else:
            first = f"{self.said} or above"
        if not reading:
            return first
        also = [r for r in _READ_ONLY_ORDER if r is not self and r.may_read(self)]
        names = ["accounting" if r is Role.ACCOUNTING else r.said for r in also]
        if not names:
            return first
        if len(names) == 1:
            return f"{first}, or {names[0]}"
        return f"{first}, {', '.join(names[:-1])} or {names[-1]}"

    @classmethod
    def parse(cls, text: str) -> Role:
        """Look a role up by name ("floorperson", "pit-manager", "pit manager")."""
        key = text.strip().lower().replace(" ", "-").replace("_", "-")
        for role in cls:
            if role.value == key:
                return role
        names = ", ".join(r.value for r in cls)
        raise InputError(f"unknown role {text!r} (expected one of {names})")


_CHAIN = (
    Role.DEALER,
    Role.FLOORPERSON,
    Role.PIT_MANAGER,
    Role.ASSISTANT_SHIFT_MANAGER,
    Role.SHIFT_MANAGER,
)
_READ_ONLY = frozenset({Role.ACCOUNTING, Role.AUDITOR})
_READ_ONLY_ORDER = (Role.ACCOUNTING, Role.AUDITOR)


VOID_RULE = "(h)(1)"
"""The paragraph of a progressive's section a void of its payout answers to: the dealer verifies
that the hand is a winning hand (§ 633b.2(h)(1), § 633b.3(h)(1)); a payout found not to be one is
voided. (Validating one is (h)(3).)"""

VOIDING = "voiding a progressive payout (a hand found not to be a winning one)"
"""What a void is, as a refusal names it."""

AWARD_RULES: dict[str, tuple[str, str]] = {
    "(h)(3)": ("633b.2(h)(3)", "58 Pa. Code § 633b.3(h)(3)"),
    VOID_RULE: ("633b.2(h)(1)", "58 Pa. Code § 633b.3(h)(1)"),
}
"""The paragraph an award decision answers to — (h)(3) a validation, (h)(1) a void — as the
refusal of a member who may not decide one cites it: the same paragraph of § 633b.2 (Jackpot
Party) and § 633b.3 (Match the Dealer), both cited, since the refusal is made before the award
is looked up and so names none of its progressive's (the ledger's and the service's check alike:
no award id is learnt by trying it)."""


class ResetTiming(Enum):
    """When a level pays out a share award and, after a 100% award, resets.

    ``ON_VALIDATION`` (default): the award amount is fixed at settlement and *held* on the meter
    (later winners take their share from what is left); the meter is paid out and reset only when
    a floorperson or above validates the award (§ 633b.2(h)(3), § 605a.7(a)(5)).
    ``ON_AWARD`` (the industry's "jackpot lock"): the amount leaves the meter and the level resets at
    settlement; only the payment to the player waits for validation.
    """

    ON_VALIDATION = "on-validation"
    ON_AWARD = "on-award"


class HitPolicy(Enum):
    """How near-simultaneous 100% hits of one level at linked tables are resolved (issue 15;
    docs/interpretations.md). A hit is *near-simultaneous* with an earlier one while that one is
    still pending validation. Either policy reseeds the link at the hit
    (:attr:`ResetTiming.ON_AWARD`), so the other tables play on.

    ``FIRST_TAKES_METER``: the first hit takes the meter; a later one the reseeded value.
    ``SHARE``: a later hit joins the first's group and the group shares the first hit's locked
    value equally (the first hit keeps the cents that do not divide); the reseeded meter is left
    to later play.
    """

    FIRST_TAKES_METER = "first-takes-meter"
    SHARE = "share"


class EnvyRule(Enum):
    """How many envy bonuses a player holding the progressive wager receives in one round.

    ``EACH`` (default): one envy bonus for every qualifying hand of *another* player at the table.
    ``LARGEST``: one bonus per round, the largest among the other players' qualifying hands.
    """

    EACH = "each"
    LARGEST = "largest"


class EventKind(Enum):
    """The kinds of ledger event. Only the meter kinds change a meter, reserve or held amount."""

    SEED = "seed"  # a level funded at its seed when the progressive is created
    USER = "user"  # a user added with a role
    USER_REMOVED = "user-removed"  # a member removed: no login, no act; history still names them
    USER_ROLE = "user-role"  # a member's role changed by a shift manager
    USER_CREDENTIAL = "user-credential"  # a credential changed (own, with the old; or reset)
    LOGOUT = "logout"  # a member ended their sessions: every token issued before is refused
    LINK = "link"  # a table linked to the progressive (§ 605a.8)
    ACCEPT = "accept"  # progressive wagers accepted at positions (§ 633b.2(d)(1))
    LOCKOUT = "lockout"  # "No more bets": no further wagers (§ 633b.2(d)(2))
    CHIP_COUNT = "chip-count"  # value chips counted against accepted wagers (§ 633b.2(f))
    HOLD = "hold"  # the count disagreed: the round is held
    VOID_ROUND = "void-round"  # a held round voided: wagers returned, nothing contributed
    CONTRIBUTION = "contribution"  # increments to a level's meter and reserve
    AWARD = "award"  # a payout of a progressive wager: a share of a level or odds
    ENVY = "envy"  # a fixed envy bonus to another player holding the wager
    SETTLED = "settled"  # the round's settlement is complete (idempotency key)
    VALIDATION = "validation"  # a floorperson or above validated a pending award
    PAYMENT = "payment"  # a share award paid out of its level
    RESET = "reset"  # a level reseeded after a 100% award (by the definition's ReseedFunding)
    ADJUSTMENT = "adjustment"  # a manual correction, or a pending award voided
    SUSPEND = "suspend"  # the link taken out of play for a reconfiguration (NY 5321.18(b)(4))
    RECONFIGURE = "reconfigure"  # seed, rates or limit changed, with the approval reference
    RESUME = "resume"  # the link back in play
    SHARE = "share"  # a pending 100% award's value re-split with a near-simultaneous hit
    SIGNIFICANT = "significant"  # a significant event (GLI-13; NJ 13:69D-1.52, NY 5320.8)


class SignificantCode(Enum):
    """The code of a significant event (a ``significant`` ledger event's ``detail["code"]``):
    what GLI-13-derived controller rules (N.J.A.C. 13:69D-1.52, NY 9 NYCRR 5320.8) have a
    progressive controller log, with its table, time and actor."""

    STARTUP_SELF_CHECK = "startup-self-check"  # the ledger checked itself when opened
    VERIFICATION_FAILURE = "verification-failure"  # the log or a table derived from it differs
    CONFIGURATION_MISMATCH = "configuration-mismatch"  # running paytable/submission not approved
    CRASH_RECOVERY = "crash-recovery"  # a session ended without closing: replayed and checked
    SHUTDOWN = "shutdown"  # a session that opened with a self-check closed in order
    LOGIN_FAILURE = "login-failure"  # a wrong name or credential (never the credential itself)
    LOGIN_LOCKOUT = "login-lockout"  # a member locked out for a while, or a client address paced
    HEAD_COPY_RECREATED = "head-copy-recreated"  # verify made a missing head file anew
    CHECKPOINT_FAILURE = "checkpoint-failure"  # an automatic checkpoint could not be written
    CHECKPOINT_RESUMED = "checkpoint-resumed"  # written again after a failure (its clearing)
    CHECKPOINT_CONFLICT = "checkpoint-conflict"  # a kept checkpoint the log does not hold: a fork


class AwardKind(Enum):
    """What an award is: a share of a meter level, an odds pay, or a fixed envy bonus."""

    METER = "meter"
    ODDS = "odds"
    ENVY = "envy"


class AwardStatus(Enum):
    """A meter award is ``PENDING`` until validated; odds and envy pays are ``PAID`` at once."""

    PENDING = "pending"
    PAID = "paid"
    VOIDED = "voided"


class RoundStatus(Enum):
    """Where a round is in the procedure of § 633b.2(d)–(h)."""

    OPEN = "open"  # wagers being accepted
    LOCKED = "locked"  # lock-out pressed; the chips are to be counted
    VERIFIED = "verified"  # the count agreed; the round may be settled
    HELD = "held"  # the count disagreed (§ 633b.2(f))
    SETTLED = "settled"
    VOIDED = "voided"


@dataclass(frozen=True)
class LevelDefinition:
    """One meter level: its seed/reseed in cents and its increment rates.

    ``primary_rate`` of each progressive wager goes to the meter players see; ``secondary_rate``
    to the reserve that funds the next reseed (§ 633b.2(i) P1–P6, § 633b.3(j)).
    ``limit_cents`` is the progressive limit (ceiling) of the meter players see, ``None`` for
    none: a contribution that would take the meter above it goes, for the part above, to the
    reserve instead, and is counted on the level's overflow meter (58 Pa. Code § 605a.7(a); the
    reading is in docs/interpretations.md).
    """

    level: MeterLevel
    seed_cents: int
    primary_rate: Fraction
    secondary_rate: Fraction = Fraction(0)
    limit_cents: int | None = None

    def __post_init__(self) -> None:
        if self.limit_cents is not None and (
            not isinstance(self.limit_cents, int) or self.limit_cents < self.seed_cents
        ):
            raise InputError(
                f"the {self.level.value} level's limit ({self.limit_cents!r} cents) must be a "
                f"whole number of cents at or above its seed ({self.seed_cents} cents)"
            )


@dataclass(frozen=True)
class LineRule:
    """What one outcome pays the player holding it, and the envy bonus it pays every other player
    at the table holding the progressive wager (``None``: no envy)."""

    outcome: str
    label: str
    pays: Pay
    envy_cents: int | None = None


@dataclass(frozen=True)
class QualifyingHand:
    """A position's winning outcome in a round (a paytable outcome key, e.g. ``"suited-match"``)."""

    position: int
    outcome: str

    def __post_init__(self) -> None:
        if type(self.position) is not int or self.position < 1:  # True would be position 1
            raise InputError(f"a position is a seat number 1, 2, …, not {self.position!r}")

    @classmethod
    def from_settlement(cls, position: int, settlement: Settlement) -> QualifyingHand | None:
        """The hand a wager's :class:`~croupier.wagers.base.Settlement` paid at ``position``
        (the paytable line it was paid on), or ``None`` when the wager lost: what the table
        engine hands to :meth:`~croupier.progressive.rounds.ProgressiveSystem.settle_round`.

        >>> from croupier.cards import parse_cards
        >>> from croupier.wagers import get_wager
        >>> mtd = get_wager("match-the-dealer")
        >>> s = mtd.settle(parse_cards("As As As"), mtd.paytable("1", 6), 500, 6)
        >>> QualifyingHand.from_settlement(3, s)
        QualifyingHand(position=3, outcome='two-suited-match-aces-of-spades')
        """
        return None if settlement.line is None else cls(position, settlement.line.outcome)


def _section_rule(section: str, sub: str) -> str:
    """The subsection of ``section`` stating a rule of the progressive procedure.

    § 633b.2 and § 633b.3 letter the procedure alike ((d)(2) lock-out, (f) chip count, (h)(3)
    validation); other sections are cited to § 605a.7.
    """
    return f"{section}{sub}" if section in ("633b.2", "633b.3") else "605a.7"


@dataclass(frozen=True)
class ProgressiveDefinition:
    """A progressive as configured: one paytable, one wager size, its levels and pay rules.

    Build it with :meth:`from_paytable`. ``name`` identifies the progressive (and its meters) in
    the ledger; tables linked to it share its meters (§ 605a.8). ``reseed`` says who funds a
    level's reset after a 100% award (:class:`~croupier.analysis.meters.ReseedFunding`, the
    analysis's reading): ``RESERVE`` (new definitions) — the reserve, the house topping it up to
    the seed; ``HOUSE`` — a new seed from the house, the reserve added on top (every definition
    stored before the field existed reads so). ``paytable_sha256`` and ``submission_sha256`` are
    the digests of the approved configuration (:func:`~croupier.paytables.paytable_digest` of the
    paytable it was made from, :func:`~croupier.table.submission.submission_digest` of the Rules
    Submission it is offered under), stored with it; play is refused while the running
    configuration differs (:mod:`croupier.progressive.configuration`).
    """

    name: str
    section: str
    paytable: str
    decks: int
    wager_cents: int
    levels: tuple[LevelDefinition, ...]
    lines: tuple[LineRule, ...]
    reset_timing: ResetTiming = ResetTiming.ON_VALIDATION
    envy_rule: EnvyRule = EnvyRule.EACH
    stake: ProgressiveStake = ProgressiveStake.COLLECTED
    reseed: ReseedFunding = ReseedFunding.RESERVE
    paytable_sha256: str | None = None
    submission_sha256: str | None = None
    hit_policy: HitPolicy | None = None

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise PaytableError("a progressive needs a name")
        if self.wager_cents <= 0:
            raise PaytableError(f"a progressive wager must be positive, not {self.wager_cents}")
        if not self.levels:
            raise PaytableError(f"progressive {self.name!r} has no meter level")
        if self.hit_policy is not None and self.reset_timing is not ResetTiming.ON_AWARD:
            raise InputError(
                f"progressive {self.name!r}: the {self.hit_policy.value} hit policy reseeds the "
                "link at the hit, so other tables play on: its reset timing is on-award"
            )
        seen = [lv.level for lv in self.levels]
        if len(set(seen)) != len(seen):
            raise PaytableError(f"progressive {self.name!r} defines a level twice")
        for lv in self.levels:
            if lv.seed_cents < 0 or lv.primary_rate < 0 or lv.secondary_rate < 0:
                raise PaytableError(f"level {lv.level.value}: seed and rates must not be negative")
        self._check_amounts()
        for line in self.lines:
            if isinstance(line.pays, MeterShare) and line.pays.level not in seen:
                raise PaytableError(
                    f"line {line.label!r} pays {line.pays} but progressive {self.name!r} has "
                    f"no {line.pays.level.value} level"
                )

    def _check_amounts(self) -> None:
        """:class:`~croupier.errors.AmountLimitError` for an amount over croupier's limit
        (:data:`~croupier.units.MAX_CENTS`): the stake, a level's seed or limit, an envy bonus."""
        amounts = [("wager", self.wager_cents)]
        for lv in self.levels:
            amounts.append((f"{lv.level.value} seed", lv.seed_cents))
            if lv.limit_cents is not None:
                amounts.append((f"{lv.level.value} limit", lv.limit_cents))
        amounts += [(f"{line.label} envy bonus", line.envy_cents or 0) for line in self.lines]
        for what, cents in amounts:
            if cents > MAX_CENTS:
                top = format_money(MAX_CENTS)
                raise AmountLimitError(
                    f"progressive {self.name!r}: its {what} of {format_money(cents)} is over "
                    f"croupier's limit ({top})",
                    top,
                )

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def from_paytable(
        cls,
        paytable: Paytable,
        *,
        decks: int,
        wager_cents: int,
        name: str,
        reset_timing: ResetTiming = ResetTiming.ON_VALIDATION,
        envy_rule: EnvyRule = EnvyRule.EACH,
        stake: ProgressiveStake = ProgressiveStake.COLLECTED,
        reseed: ReseedFunding = ReseedFunding.RESERVE,
        submission_sha256: str | None = None,
        hit_policy: HitPolicy | None = None,
    ) -> ProgressiveDefinition:
        """The progressive of ``paytable`` for ``wager_cents`` wagers at a ``decks``-deck table.

        Seeds come from the paytable's meters (a fixed seed, or N times the wager, § 633b.3(j));
        a level's ``increment_rate`` is its primary rate and ``secondary_increment_rate`` its
        reserve rate. A paytable printing only a total increment rate (§ 633b.2(i) P7–P16) puts it
        all on the meter players see. Raises :class:`RulesError` for a wager size or deck count
        the paytable is not printed for, :class:`PaytableError` when it has no progressive.

        >>> from croupier.paytables import builtin_paytables
        >>> t = builtin_paytables().get("633b.3", "1", 6)
        >>> d = ProgressiveDefinition.from_paytable(t, decks=6, wager_cents=500, name="mtd")
        >>> d.levels[0].seed_cents, d.levels[0].primary_rate, d.levels[0].secondary_rate
        (500000, Fraction(3, 20), Fraction(3, 50))
        """
        prog = paytable.progressive
        if prog is None:
            raise PaytableError(
                f"paytable {paytable.key} of § {paytable.section} has no progressive meter"
            )
        if decks not in paytable.decks:
            raise RulesError(
                f"paytable {paytable.key} is printed for {decks_phrase(paytable.decks, ' or ')}, "
                f"not {decks}",
                section=paytable.section,
            )
        if wager_cents not in prog.wager_cents:
            sizes = one_of(format_money(c) for c in prog.wager_cents)
            raise RulesError(
                f"the progressive wager of paytable {paytable.key} is {sizes}, not "
                f"{format_money(wager_cents)}",
                section=paytable.section,
            )
        single_total = (
            prog.total_increment_rate is not None
            and len(prog.meters) == 1
            and prog.meters[0].increment_rate is None
        )
        levels = []
        for m in prog.meters:
            primary = m.increment_rate
            if primary is None:
                primary = prog.total_increment_rate if single_total else None
            if primary is None:
                raise PaytableError(
                    f"paytable {paytable.key}: the {m.level.value} meter has no increment rate"
                )
            levels.append(
                LevelDefinition(
                    m.level,
                    m.seed_for(wager_cents),
                    primary,
                    m.secondary_increment_rate or Fraction(0),
                )
            )
        lines = tuple(
            LineRule(line.outcome, line.label, line.pays, line.envy_cents)
            for line in paytable.lines
        )
        return cls(
            name=name.strip(),
            section=paytable.section,
            paytable=paytable.key,
            decks=decks,
            wager_cents=wager_cents,
            levels=tuple(levels),
            lines=lines,
            reset_timing=reset_timing,
            envy_rule=envy_rule,
            stake=stake,
            reseed=reseed,
            paytable_sha256=paytable_digest(paytable),
            submission_sha256=submission_sha256,
            hit_policy=hit_policy,
        )

    # -- look-ups --------------------------------------------------------------------------
    def level(self, level: MeterLevel) -> LevelDefinition:
        """The definition of ``level``; :class:`PaytableError` when the progressive has none."""
        for lv in self.levels:
            if lv.level is level:
                return lv
        raise PaytableError(f"progressive {self.name!r} has no {level.value} level")

    def named_level(self, text: str) -> MeterLevel:
        """The level of this progressive named ``text`` (its printed name, any case): the one
        lookup of a level a command or a request names (``--limit``, ``--level``, a
        reconfiguration's or an adjustment's level), refused in the same words everywhere with
        :class:`InputError` naming the progressive's levels."""
        wanted = text.strip().lower()
        for lv in self.levels:
            if lv.level.value.lower() == wanted:
                return lv.level
        names = ", ".join(lv.level.value for lv in self.levels)
        raise InputError(f"progressive {self.name!r} has no level {text!r} (its levels: {names})")

    def line(self, outcome: str) -> LineRule:
        """The line paying ``outcome``; :class:`PaytableError` naming the known outcomes."""
        for line in self.lines:
            if line.outcome == outcome:
                return line
        known = ", ".join(line.outcome for line in self.lines)
        raise PaytableError(
            f"paytable {self.paytable} of § {self.section} has no outcome {outcome!r} "
            f"(its outcomes: {known})"
        )

    def rule(self, sub: str) -> str:
        """The section and subsection citing a procedure rule: ``rule("(f)")`` → ``"633b.3(f)"``."""
        return _section_rule(self.section, sub)

    @property
    def total_rate(self) -> Fraction:
        """Primary plus secondary rates over every level: the share of each wager put on meters."""
        return sum((lv.primary_rate + lv.secondary_rate for lv in self.levels), Fraction(0))

    # -- canonical JSON --------------------------------------------------------------------
    def to_json(self) -> str:
        """Canonical JSON (sorted keys, rates as exact ``"p/q"``): what the ledger stores."""
        data: dict[str, Any] = {
            "name": self.name,
            "section": self.section,
            "paytable": self.paytable,
            "decks": self.decks,
            "wager_cents": self.wager_cents,
            "reset_timing": self.reset_timing.value,
            "envy_rule": self.envy_rule.value,
            "stake": self.stake.value,
            # only when not HOUSE: a definition stored before the field (read as HOUSE, the
            # ledger's old reset) is written back byte for byte, so its old events still verify
            **({"reseed": self.reseed.value} if self.reseed is not ReseedFunding.HOUSE else {}),
            # the approved configuration's digests, when known (an older definition has none)
            **({"paytable_sha256": self.paytable_sha256} if self.paytable_sha256 else {}),
            **({"submission_sha256": self.submission_sha256} if self.submission_sha256 else {}),
            **({"hit_policy": self.hit_policy.value} if self.hit_policy is not None else {}),
            "levels": [
                {
                    "level": lv.level.value,
                    "seed_cents": lv.seed_cents,
                    "primary_rate": str(lv.primary_rate),
                    "secondary_rate": str(lv.secondary_rate),
                    # only when set: a definition without a limit stores what it always stored
                    **({"limit_cents": lv.limit_cents} if lv.limit_cents is not None else {}),
                }
                for lv in self.levels
            ],
            "lines": [
                {
                    "outcome": line.outcome,
                    "label": line.label,
                    "pays": str(line.pays),
                    "envy_cents": line.envy_cents,
                }
                for line in self.lines
            ],
        }
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> ProgressiveDefinition:
        """The definition :meth:`to_json` wrote."""
        data: Mapping[str, Any] = json.loads(text)
        return cls(
            name=data["name"],
            section=data["section"],
            paytable=data["paytable"],
            decks=int(data["decks"]),
            wager_cents=int(data["wager_cents"]),
            levels=tuple(
                LevelDefinition(
                    MeterLevel.parse(lv["level"]),
                    int(lv["seed_cents"]),
                    Fraction(lv["primary_rate"]),
                    Fraction(lv["secondary_rate"]),
                    None if lv.get("limit_cents") is None else int(lv["limit_cents"]),
                )
                for lv in data["levels"]
            ),
            lines=tuple(
                LineRule(
                    line["outcome"],
                    line["label"],
                    parse_pay(line["pays"]),
                    None if line["envy_cents"] is None else int(line["envy_cents"]),
                )
                for line in data["lines"]
            ),
            reset_timing=ResetTiming(data["reset_timing"]),
            envy_rule=EnvyRule(data["envy_rule"]),
            stake=ProgressiveStake(data["stake"]),
            reseed=ReseedFunding(data.get("reseed", ReseedFunding.HOUSE.value)),
            paytable_sha256=data.get("paytable_sha256"),
            submission_sha256=data.get("submission_sha256"),
            hit_policy=HitPolicy(data["hit_policy"]) if data.get("hit_policy") else None,
        )
