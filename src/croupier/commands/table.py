"""Table commands: ``croupier check`` a Rules Submission, ``croupier settle`` a round record.

``croupier play --submission S --seed N`` deals and settles random rounds for a dealer in training.
``croupier check SUBMISSION...`` reports every violation of each submission at once, each naming its
section (58 Pa. Code § 601a.2 and the wagers' sections), and exits with status 2 when there is any.
``croupier settle ROUND.json...`` replays each round record through the regulated round procedure
(:mod:`croupier.table.round`) and prints every event — the players' Blackjack decisions (switch,
keep, hit, stand, double, split, surrender), the wagers' outcome, pay, net result and the section
each was settled under, in settlement order; a round that breaks a rule prints one error
line naming the section, and nothing is settled.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Collection
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from croupier.commands.common import JsonFlag, app, err, out, shown, where
from croupier.errors import CroupierError, citation, one_line
from croupier.paytables import paytable_digest
from croupier.table.progressive import SEED_NOTE, valued_at_seed
from croupier.table.record import settle_file
from croupier.table.round import BLACKJACK_MOVES, Action, Event, TableRound, settled_net
from croupier.table.submission import (
    RulesSubmission,
    TableGame,
    Violation,
    check_file_and_build,
    load_submission,
    submission_digest,
)
from croupier.units import format_money
from croupier.wagers import get_wager
from croupier.wagers.at_table import cents_note

Files = Annotated[list[Path], typer.Argument(help="Files to read.", show_default=False)]


@app.command()
def check(
    submissions: Files,
    json_out: JsonFlag = False,
    digests: Annotated[
        bool,
        typer.Option(
            "--digests",
            help="With --json: each file's violations and, when it is ok, the SHA-256 of the "
            "submission and of each paytable it offers (docs/schemas/check-digests).",
        ),
    ] = False,
) -> None:
    """Check Rules Submissions (TOML): every violation at once, each with its section; for a
    submission that is ok, its configuration digest (SHA-256) and its paytables'."""
    built = {str(p): check_file_and_build(p) for p in submissions}
    report = {path: problems for path, (problems, _) in built.items()}
    if json_out:
        data: dict[str, Any] = {
            path: [
                {
                    "message": v.message,
                    "section": v.section,
                    "citation": citation(v.section) if v.section else None,
                }
                for v in problems
            ]
            for path, problems in report.items()
        }
        if digests:
            data = {
                path: {
                    "violations": data[path],
                    **_digests(sub),
                }
                for path, (_, sub) in built.items()
            }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        for path, problems in report.items():  # the exit status 2 explained on stderr, as ever
            if problems and _unreadable(problems):
                err.print(f"error: {one_line(path)}: {problems[0]}")
            elif problems:
                n = len(problems)
                err.print(f"error: {one_line(path)}: {n} violation{'s' if n > 1 else ''}")
    else:
        for path, problems in report.items():
            if not problems:
                d = _digests(built[path][1])
                out.print(f"{path}: ok", soft_wrap=True)
                out.print(f"  submission sha256 {d['submission_sha256']}", soft_wrap=True)
                for wager, sha in d["paytables_sha256"].items():
                    out.print(f"  {wager} paytable sha256 {sha}", soft_wrap=True)
                continue
            if _unreadable(problems):  # not a violation of any rule: the file was not read
                err.print(f"error: {one_line(path)}: {problems[0]}")
                continue
            err.print(
                f"{one_line(str(path))}: {len(problems)} violation{'s' if len(problems) > 1 else ''}"
            )
            for v in problems:
                err.print(f"  {v}")
    if any(report.values()):
        raise typer.Exit(2)


def _unreadable(problems: tuple[Violation, ...]) -> bool:
    """Whether ``problems`` says only that the file could not be read (missing, a directory…)."""
    return (
        len(problems) == 1
        and problems[0].section is None
        and problems[0].message.startswith("cannot read")
    )


def _digests(sub: RulesSubmission | None) -> dict[str, Any]:
    """The submission's SHA-256 and each offered paytable's (``None`` / empty when not ok)."""
    if sub is None:
        return {"submission_sha256": None, "paytables_sha256": {}}
    return {
        "submission_sha256": submission_digest(sub),
        "paytables_sha256": {
            f"{w.wager}:{w.paytable.key}": paytable_digest(w.paytable)
            for w in sub.wagers
            if w.paytable is not None
        },
    }


def _cents(cents: int | None) -> str:
    if cents is None:
        return ""
    return ("+" if cents > 0 else "") + format_money(cents)


@app.command()
def settle(
    rounds: Files,
    json_out: JsonFlag = False,
    progressive: Annotated[
        list[str] | None,
        typer.Option(
            "--progressive",
            help="Feed the rounds' progressive wagers to this progressive of the ledger "
            "(see `croupier meters`); repeatable.",
        ),
    ] = None,
    table: Annotated[
        str,
        typer.Option("--table", help="The ledger's name of the table the rounds were dealt at."),
    ] = "",
    by: Annotated[str, typer.Option("--as", help="The dealer recording the rounds.")] = "",
    password_file: Annotated[
        Path | None,
        typer.Option(
            "--password-file",
            envvar="CROUPIER_PASSWORD_FILE",
            help="The --as dealer's credential (else $CROUPIER_PASSWORD, else asked).",
        ),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db", envvar="CROUPIER_DB", help="Ledger database URL (as `croupier meters`)."
        ),
    ] = None,
) -> None:
    """Settle round records (JSON): every wager's outcome, pay, net and section, in settlement
    order. A round that breaks a rule is one error line naming the section; nothing is settled.

    With ``--progressive``, each round's progressive wagers are then accepted, locked out, counted
    and settled on the ledger in one transaction keyed by ``TABLE/ROUND`` (§ 633b.2(d)–(h),
    § 633b.3(d)–(h)), the round named by its file name: settling a file again changes nothing.
    With several files, a file that breaks a rule is one error line (file, step, section) and the
    others are still settled; the exit status is then 2."""
    settled: list[tuple[Path, TableRound]] = []
    before: set[Path] = set()  # on the ledger already: settled nothing
    failed = 0
    for p in rounds:
        try:
            settled.append((p, settle_file(p)))
        except CroupierError as exc:
            if len(rounds) == 1:
                raise
            err.print(f"error: {where(exc)}{exc}", style="red")
            failed += 1
    if progressive:
        from croupier.commands.meters import feed_rounds  # the ledger (SQLAlchemy) only here

        fed, before, errors = feed_rounds(
            settled,
            progressive,
            table=table,
            by=by,
            password_file=password_file,
            db=db,
            quiet=json_out,
        )
        settled = [(p, fed[p]) for p, _ in settled if p in fed]
        failed += errors
    else:
        settled = [(p, valued_at_seed(r)) for p, r in settled]
    show_rounds([(str(p), r) for p, r in settled], json_out, stored={str(p) for p in before})
    if failed:
        raise typer.Exit(2)


STORED_ALREADY = "stored_already"
"""The field marking a round this run settled nothing of: it was on the ledger already."""


def round_json(name: str, r: TableRound) -> dict[str, object]:
    """One settled round as JSON (docs/schemas/settle.schema.json ``round``): its name, the
    submission, who settles its base game, the cards, every event and the settlement record
    (money in integer cents)."""
    return {
        "round": name,
        "submission": r.submission.source,
        "base_game": r.base_game.value,
        "cards": r.cards.describe() if r.cards else None,
        "events": [e.to_json() for e in r.events],
        "settlement": r.settlement().to_json(),
        "net_cents": settled_net(r.events),
    }


def show_rounds(
    rounds: list[tuple[str, TableRound]],
    json_out: bool,
    extra: dict[str, object] | None = None,
    stored: Collection[str] = (),
) -> None:
    """Print settled rounds: each round's events as a table (the players' decisions, every
    settlement line with its outcome, pay, net and section, the payouts awaiting validation), or
    under ``json_out`` a JSON array of :func:`round_json` — one object, with ``extra`` keys,
    when ``extra`` is given (``croupier blackjack-round``). The rounds named in ``stored`` were
    on the ledger already (``croupier settle --progressive`` of a round settled before): each
    says so (``"stored_already": true``) — this run settled nothing of it, and its awards are
    shown as the ledger has them now."""
    if json_out:
        if extra is not None:
            ((name, r),) = rounds
            print(json.dumps({**extra, **round_json(name, r)}, indent=2, ensure_ascii=False))
            return
        data = [
            {**({STORED_ALREADY: True} if name in stored else {}), **round_json(name, r)}
            for name, r in rounds
        ]
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    for name, r in rounds:
        out.print(f"{shown(name)} · {shown(r.submission.name or r.submission.game.value)}")
        if name in stored:
            out.print(
                "settled before: on the ledger already, nothing was settled or fed again; its "
                "awards as the ledger has them now"
            )
        if r.cards is not None:
            out.print(r.cards.describe())
        t = Table("#", "step", "seat", "wager", "outcome", "pays", "amount", "net", "section")
        for e in r.events:
            if e.action in BLACKJACK_MOVES or e.action is Action.DEALER_DRAW:
                t.add_row(
                    str(e.index),
                    e.action.value,
                    str(e.seat or ""),
                    e.wager or "",
                    e.detail,
                    "",
                    format_money(e.amount_cents) if e.amount_cents else "",
                    "",
                    f"§ {e.section}",
                )
                continue
            if e.action not in (Action.SETTLEMENT, Action.RECORDED):
                continue
            t.add_row(
                str(e.index),
                "settled" if e.action is Action.SETTLEMENT else "recorded",
                str(e.seat or ""),
                e.wager or "",
                e.outcome or "(not settled here)",
                (e.pays or "").replace(f" ({SEED_NOTE})", " (at the seed, see below)"),
                format_money(e.amount_cents) if e.amount_cents else "",
                _cents(e.win_cents) + ("*" if _dropped(e) else ""),
                f"§ {e.section}",
            )
        out.print(t)
        for e in r.settlements():
            if _dropped(e):
                assert e.line is not None
                out.print(
                    f"  * seat {e.seat} {e.wager}: the pay is rounded down to the cent; "
                    f"{cents_note(e.line.rounding_cents_dropped)} is not paid."
                )
        for e in r.settlements():
            if e.pending_validation:
                rule = _validation_rule(e.wager or "")
                seed = (
                    f"; {SEED_NOTE.replace('valued', 'its pay here is valued', 1)}"
                    if SEED_NOTE in (e.pays or "")
                    else ""
                )
                out.print(
                    f"  A floorperson or above must validate the seat {e.seat} {e.wager} payout "
                    f"before it is paid (58 Pa. Code § {rule}){seed}."
                )
        out.print(f"players' net {_cents(settled_net(r.events)) or '$0'}")


def _dropped(e: Event) -> bool:
    """Whether rounding the settlement's pay down to the cent left a fraction of a cent unpaid
    (the Banker's 5% commission on an amount not a multiple of 20 cents)."""
    return e.line is not None and e.line.rounding_cents_dropped > 0


def _validation_rule(wager_id: str) -> str:
    """The paragraph requiring a floorperson's validation of ``wager_id``'s meter award: the
    procedure's (h)(3) of § 633b.2 / § 633b.3; § 605a.7 (the progressive system) elsewhere
    (Four Card Poker's progressives, whose chapter's procedure croupier does not hold)."""
    try:
        section = get_wager(wager_id).section
    except CroupierError:
        return "605a.7"
    return f"{section}(h)(3)" if section in ("633b.2", "633b.3") else "605a.7"


@app.command()
def play(
    submission: Annotated[
        Path, typer.Option("--submission", help="The table's Rules Submission (TOML).")
    ],
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            "-s",
            min=0,
            help="Seed of the shuffles and wagers (default: a fresh one, printed on stderr so the "
            "session can be dealt again).",
            show_default=False,
        ),
    ] = None,
    rounds: Annotated[int, typer.Option("--rounds", "-n", min=1, help="Rounds to deal.")] = 1,
    json_out: JsonFlag = False,
) -> None:
    """Deal and settle random rounds at a table, for a dealer in training (same seed, same rounds;
    each session a fresh seed unless one is given)."""
    from croupier.table.training import random_rounds

    sub = load_submission(submission)
    if seed is None:
        seed = secrets.randbits(32)
        err.print(f"seed {seed} (give --seed {seed} to deal these rounds again)")
    played = random_rounds(sub, seed, rounds)
    if sub.game is TableGame.BLACKJACK and not json_out:
        err.print(
            "The players follow a simple training rule, not the optimal strategy "
            "(croupier strategy blackjack, croupier strategy switch-hands)."
        )
    show_rounds(
        [(f"round {i}", valued_at_seed(r)) for i, r in enumerate(played, start=1)], json_out
    )
