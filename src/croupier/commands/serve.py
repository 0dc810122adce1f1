"""``croupier serve``: the HTTP service (:mod:`croupier.service`)."""

from __future__ import annotations

from typing import Annotated

import typer

from croupier.commands.common import app


def _source(ctx: typer.Context, param: str, option: str, env: str) -> str:
    """How to name where a value came from in an error: the option, or the option and the
    variable when the value came from the environment."""
    source = ctx.get_parameter_source(param)  # typer's own click: compared by name
    if getattr(source, "name", None) == "ENVIRONMENT":
        return f"{option} (from ${env})"
    return option


def _checked(
    ctx: typer.Context, db: str | None, trusted_proxy: list[str], forwarded_header: str | None
) -> list[str]:
    """Refuse, naming the option the user gave (and the variable, when the value came from the
    environment), a database URL, trusted proxy or forwarded header the service would refuse;
    the trusted proxies to pass on ($CROUPIER_TRUSTED_PROXIES' first, then the options')."""
    import os

    from croupier.errors import CroupierError, InputError
    from croupier.progressive.store import (
        database_url,
        default_key_file,
        default_url,
        make_dirs,
        sqlite_file,
    )
    from croupier.service.forwarded import ENV_TRUSTED_PROXIES, parse_header, parse_networks

    if db:
        try:
            database_url(db)
        except CroupierError as e:
            raise InputError(f"{_source(ctx, 'db', '--db', 'CROUPIER_DB')}: {e}") from None
    # the ledger's folders made now, so one that cannot be is one line, not a worker's failed
    # start-up (every worker would make them as it opens the ledger)
    url = database_url(db or default_url())
    for path, what in (
        (sqlite_file(url), "the ledger's database"),
        (default_key_file(url), "the ledger's key"),
    ):
        if path is not None:
            make_dirs(path.parent, what)
    env = os.environ.get(ENV_TRUSTED_PROXIES, "")
    parse_networks(env, f"${ENV_TRUSTED_PROXIES}")
    for given in trusted_proxy:
        parse_networks(given, "--trusted-proxy")
    if forwarded_header is not None:
        where = _source(ctx, "forwarded_header", "--forwarded-header", "CROUPIER_FORWARDED_HEADER")
        parse_header(forwarded_header, where)
    return [p for p in (env, *trusted_proxy) if p.strip()]


_Db = Annotated[
    str | None,
    typer.Option(
        "--db",
        envvar="CROUPIER_DB",
        help="Database URL: sqlite:///path or postgresql+psycopg://user@host/db (default: "
        "the ledger's SQLite file under the data directory, as `croupier meters`).",
    ),
]

_CorsOrigins = Annotated[
    list[str] | None,
    typer.Option(
        "--cors-origin",
        help="An origin browsers may call from (repeatable; default none: CORS closed).",
    ),
]

_TrustedProxies = Annotated[
    list[str] | None,
    typer.Option(
        "--trusted-proxy",
        metavar="CIDR",
        help="A reverse proxy (address or network) whose forwarded header names the client "
        "(repeatable; adds to $CROUPIER_TRUSTED_PROXIES; default none: the peer is the "
        "client). Login throttling and its significant events use that address.",
    ),
]

_ForwardedHeader = Annotated[
    str | None,
    typer.Option(
        "--forwarded-header",
        envvar="CROUPIER_FORWARDED_HEADER",
        help="The header the trusted proxies write: x-forwarded-for (default) or forwarded "
        "(RFC 7239).",
    ),
]

_HeaderTimeout = Annotated[
    int,
    typer.Option(
        "--header-timeout",
        envvar="CROUPIER_HEADER_TIMEOUT",
        min=1,
        max=300,
        help="Seconds a request's line and headers may take to arrive; a slower client "
        "gets 408 and its connection is closed.",
    ),
]

_LimitConcurrency = Annotated[
    int,
    typer.Option(
        "--limit-concurrency",
        envvar="CROUPIER_LIMIT_CONCURRENCY",
        min=1,
        max=100_000,
        help="A request is answered 503 (with Retry-After) at once when its worker has this "
        "many open connections, its own and idle ones counted, or this many other requests "
        "in progress: at most one fewer connections are served.",
    ),
]

_TimeoutKeepAlive = Annotated[
    int,
    typer.Option(
        "--timeout-keep-alive",
        envvar="CROUPIER_TIMEOUT_KEEP_ALIVE",
        min=1,
        max=300,
        help="Seconds an idle keep-alive connection is kept open.",
    ),
]

_BodyTimeout = Annotated[
    int,
    typer.Option(
        "--body-timeout",
        envvar="CROUPIER_BODY_TIMEOUT",
        min=1,
        max=600,
        help="Seconds a request's body may take to arrive after its headers; a slower "
        "client gets 408 and its connection is closed.",
    ),
]


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option("--host", help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="The port.")] = 8000,
    db: _Db = None,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Worker processes.")] = 1,
    cors_origin: _CorsOrigins = None,
    log_level: Annotated[str, typer.Option("--log-level", help="uvicorn's log level.")] = "info",
    trusted_proxy: _TrustedProxies = None,
    forwarded_header: _ForwardedHeader = None,
    header_timeout: _HeaderTimeout = 10,
    limit_concurrency: _LimitConcurrency = 512,
    timeout_keep_alive: _TimeoutKeepAlive = 5,
    body_timeout: _BodyTimeout = 30,
) -> None:
    """Serve settlement, par sheets, open tables and the progressive controller over HTTP
    (OpenAPI at /docs and /openapi.json). The ledger is created if missing; staff log in with
    its staff store (`croupier meters bootstrap` makes the first: there is no default password).
    """
    from croupier.service.connections import ConnectionLimits
    from croupier.service.server import serve as run

    proxies = _checked(ctx, db, list(trusted_proxy or ()), forwarded_header)
    limits = ConnectionLimits(header_timeout, limit_concurrency, timeout_keep_alive, body_timeout)
    run(
        host,
        port,
        db,
        workers,
        tuple(cors_origin or ()),
        log_level,
        trusted_proxies=tuple(proxies),
        forwarded_header=forwarded_header,
        limits=limits,
    )
