"""``croupier serve``: the HTTP service (:mod:`croupier.service`)."""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.commands.common import app


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port.")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            envvar="CROUPIER_DB",
            help="Database URL: sqlite:///path or postgresql+psycopg://user@host/db (default: "
            "the ledger's SQLite file under the data directory, as `croupier meters`).",
        ),
    ] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Worker processes.")] = 1,
    cors_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--cors-origin",
            help="An origin browsers may call from (repeatable; default none: CORS closed).",
        ),
    ] = None,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn's log level.")] = "info",
) -> None:
    """Serve settlement, par sheets, open tables and the progressive controller over HTTP
    (OpenAPI at /docs and /openapi.json). The ledger is created if missing; staff log in with
    its staff store (`croupier meters bootstrap` makes the first: there is no default password).
    """
    from croupier.service.server import serve as run

    run(host, port, db, workers, tuple(cors_origin or ()), log_level)
