"""``croupier serve``: the settlement engine, par sheets, open tables and the progressive
controller over HTTP (FastAPI + uvicorn).

* :mod:`~croupier.service.app` — the application (:func:`create_app`), its configuration, the
  request size limit, CORS (closed unless configured) and ``POST /token``.
* :mod:`~croupier.service.routes.reading` — wagers, paytables, exact par sheets (open).
* :mod:`~croupier.service.routes.rounds` — ``POST /rounds/settle`` and the stored rounds.
* :mod:`~croupier.service.routes.tables` — open tables: each step posted to the round state machine.
* :mod:`~croupier.service.routes.progressives` — the progressive controller (``croupier meters``);
  :mod:`~croupier.service.routes.progressive_config` its suspend / resume / reconfigure and the
  reconciliation report.
* :mod:`~croupier.service.routes.simulations` — simulations as jobs with progress.
* :mod:`~croupier.service.auth` — tokens from the ledger's staff store, roles.
* :mod:`~croupier.service.idempotency`, :mod:`~croupier.service.store` — ``Idempotency-Key``
  records and the service's tables (own migrations, own version table);
  :mod:`~croupier.service.committer` writes them, group-committed.
* :mod:`~croupier.service.problems` — RFC 9457 problem details.
* :mod:`~croupier.service.server` — running uvicorn.

Layering: the service sits beside :mod:`croupier.commands` (whose JSON it reuses) above
:mod:`croupier.table`, :mod:`croupier.progressive` and :mod:`croupier.analysis`.
"""
