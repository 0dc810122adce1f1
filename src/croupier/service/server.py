"""Running the service with uvicorn (``croupier serve``)."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from croupier.service.connections import ConnectionLimits


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    workers: int = 1,
    cors_origins: tuple[str, ...] = (),
    log_level: str = "info",
    trusted_proxies: tuple[str, ...] = (),
    forwarded_header: str | None = None,
    limits: ConnectionLimits | None = None,
) -> None:
    """Serve until interrupted. Each worker process builds its app from the environment
    (:func:`croupier.service.app.app_from_env`), so the options are passed through it.
    ``trusted_proxies`` are the reverse proxies whose forwarded header (``forwarded_header``)
    names the client (:mod:`croupier.service.forwarded`); ``limits`` the request head's and
    body's timeouts and the bound on open connections (:mod:`croupier.service.connections`; default:
    from the environment)."""
    import uvicorn

    from croupier.service.app import ServiceConfig, switch_interval
    from croupier.service.connections import (
        ENV_BODY_TIMEOUT,
        ENV_HEADER_TIMEOUT,
        PROTOCOL,
        ConnectionLimits,
    )
    from croupier.service.forwarded import ENV_FORWARDED_HEADER, ENV_TRUSTED_PROXIES

    if db:
        os.environ["CROUPIER_DB"] = db
    if cors_origins:
        os.environ["CROUPIER_CORS_ORIGINS"] = ",".join(cors_origins)
    if trusted_proxies:
        os.environ[ENV_TRUSTED_PROXIES] = ",".join(trusted_proxies)
    if forwarded_header:
        os.environ[ENV_FORWARDED_HEADER] = forwarded_header
    limits = limits or ConnectionLimits.from_env()
    # each worker's protocol reads them
    os.environ[ENV_HEADER_TIMEOUT] = str(limits.header_timeout)
    os.environ[ENV_BODY_TIMEOUT] = str(limits.body_timeout)
    # a bad $CROUPIER_SWITCH_INTERVAL, $CROUPIER_MAX_BODY, $CROUPIER_TOKEN_TTL or trusted proxy
    # is one error line here, before any worker starts (each worker reads them again)
    switch_interval()
    ServiceConfig.from_env()
    refuse_failed_self_check()
    print(f"croupier serve: the ledger and the stored rounds in {shown_url()}", file=sys.stderr)
    uvicorn.run(
        "croupier.service.app:app_from_env",
        factory=True,
        host=host,
        port=port,
        workers=workers if workers > 1 else None,
        log_level=log_level,
        access_log=False,
        proxy_headers=False,  # croupier reads the forwarded address itself, from trusted proxies
        http=PROTOCOL,
        limit_concurrency=limits.limit_concurrency,
        timeout_keep_alive=limits.timeout_keep_alive,
    )


def refuse_failed_self_check() -> None:
    """Refuse, in one error line before any worker starts, a ledger that fails the integrity
    part of the start-up self-check: its copy of the chain head beside the key missing,
    unreadable or ahead of the log (:meth:`~croupier.progressive.core.LedgerBase.halted`), or
    the whole-ledger audit failing (:meth:`~croupier.progressive.Ledger.audit`: the chain, the
    head's copy held by the log, every derived table — a database rolled back or restored
    from an earlier copy). Each worker's start-up self-check refuses it too, but in uvicorn's
    log, as a traceback. A ledger that does not exist yet, or cannot be opened, is left to the
    workers (which create it, or say why not). Reads only: a refusal is recorded by no one
    here (the ledger refuses writes), it is the error line."""
    from croupier.errors import CroupierError
    from croupier.progressive import Ledger
    from croupier.progressive.store import default_url

    try:
        ledger = Ledger(default_url(), create=False, migrate=False)
    except CroupierError:
        return
    try:
        halt = ledger.halted()
        if halt is not None:
            raise halt
        if ledger.key is not None and ledger.event_count() > 0:
            ledger.audit()
    finally:
        ledger.close()


def shown_url() -> str:
    """The database the service will use (``$CROUPIER_DB``, else the ledger's SQLite file), its
    password hidden — or the text as given when it is no URL (the service refuses it, saying
    why)."""
    import sqlalchemy as sa

    from croupier.errors import CroupierError
    from croupier.progressive.store import database_url, default_url

    text = default_url()
    try:
        return sa.engine.make_url(database_url(text)).render_as_string(hide_password=True)
    except (CroupierError, sa.exc.ArgumentError, ValueError):  # refused later, in one line
        return repr(text)


__all__ = ["refuse_failed_self_check", "serve", "shown_url"]
