"""``croupier meters checkpoint``: a signed checkpoint of the ledger's chain head, for an auditor
to keep off the box (:mod:`croupier.progressive.checkpoint`; Certificate Transparency's signed
tree heads, RFC 6962 § 3.5, are the model); ``croupier meters verify --checkpoint FILE`` later
fails when the ledger no longer holds that head. Registered on
:data:`croupier.commands.meters.meters_app` when imported: the ``meters`` entry of
:data:`croupier.commands.COMMANDS` lists this module.

Who may: the command signs with the ledger key, so it runs where the key is readable — the file
system's access control is the role, as for ``croupier meters verify`` and every read command
(docs/interpretations.md, *A rollback that cannot hide*); over HTTP, ``GET /checkpoint`` takes a
shift manager or an auditor."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from croupier.commands.common import err, out
from croupier.commands.meters import DbOpt, JsonOut, _ledger, meters_app
from croupier.errors import OutputError


@meters_app.command()
def checkpoint(
    ctx: typer.Context,
    out_file: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="Write the checkpoint to this file (replaced atomically); without it, print it.",
        ),
    ] = None,
    prune: Annotated[
        int | None,
        typer.Option(
            "--prune",
            min=0,
            metavar="KEEP",
            help="Also remove from $CROUPIER_CHECKPOINT_DIR this ledger's automatic checkpoints "
            "made after security events only (failed logins, lockouts) older than the newest "
            "KEEP — once every one there is verified held by the log. Those at money and "
            "configuration events are kept for good.",
        ),
    ] = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Verify the whole ledger, then write a checkpoint of its chain head: the ledger's identity,
    the last event's sequence number and mac, the time and each progressive's meters, signed
    with the ledger key. Keep it elsewhere (an auditor's own storage); `croupier meters verify
    --checkpoint FILE` fails, naming it, if the ledger is later rolled back past that head or
    forked."""
    from croupier.progressive.checkpoint import to_text, write_file

    with _ledger(ctx, db) as ledger:
        doc = ledger.checkpoint()
        if prune is not None:
            where, gone = ledger.prune_checkpoints(prune)
            err.print(  # stderr: stdout is the checkpoint's document when no --out
                f"pruned {len(gone)} security checkpoints from {where} (every checkpoint there "
                f"held by the log; kept the newest {prune} and every one at a money or "
                "configuration event)"
            )
    text = to_text(doc)
    if out_file is None:
        print(text, end="")
        return
    try:
        write_file(out_file, text)
    except OSError as exc:
        raise OutputError(
            f"cannot write the checkpoint to {out_file}: {exc.strerror or exc}"
        ) from exc
    if json_out:
        print(text, end="")
        return
    out.print(
        f"checkpoint of event {doc['seq']} (ledger {doc['ledger']}, {doc['time']}) written to "
        f"{out_file}: keep it off this machine; `croupier meters verify --checkpoint "
        f"{out_file}` checks the ledger still holds it"
    )
