"""``croupier serve``: the settlement engine, par sheets, open tables and the progressive
controller over HTTP (FastAPI + uvicorn).

* :mod:`~croupier.service.app` — the application (:func:`create_app`), its configuration, the
  request size limit, CORS (closed unless configured) and ``POST /token``.
* :mod:`~croupier.service.reading` — wagers, paytables, exact par sheets (open).
* :mod:`~croupier.service.rounds` — ``POST /rounds/settle`` and the stored rounds.
* :mod:`~croupier.service.tables` — open tables: each step posted to the round state machine.
* :mod:`~croupier.service.controller` — the progressive controller (``croupier meters``);
  :mod:`~croupier.service.controller_config` its suspend / resume / reconfigure and the
  reconciliation report.
* :mod:`~croupier.service.jobs` — simulations as jobs with progress.
* :mod:`~croupier.service.auth` — tokens from the ledger's staff store, roles.
* :mod:`~croupier.service.idempotency`, :mod:`~croupier.service.store` — ``Idempotency-Key``
  records and the service's tables (own migrations, own version table);
  :mod:`~croupier.service.committer` writes them, group-committed.
* :mod:`~croupier.service.problems` — RFC 9457 problem details.
* :mod:`~croupier.service.server` — running uvicorn.

Layering: the service sits beside :mod:`croupier.commands` (importing nothing of it) above
:mod:`croupier.operations` — the use cases and presenters both interfaces share — and the domain
packages below it (:mod:`croupier.table`, :mod:`croupier.progressive`, :mod:`croupier.analysis`).
"""
