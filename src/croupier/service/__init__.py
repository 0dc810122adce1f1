"""``croupier serve``: the settlement engine, par sheets, open tables and the progressive
controller over HTTP (FastAPI + uvicorn), laid out as FastAPI's *Bigger Applications* guide lays
out an application:

* :mod:`~croupier.service.app` — the application (:func:`create_app`): its configuration, the
  routers it includes, its middleware (the request size limit, CORS closed unless configured)
  and exception handlers (:mod:`~croupier.service.problems`).
* :mod:`~croupier.service.routes` — the routes, one module and ``APIRouter`` per resource:
  ``token`` (log in and out), ``reading`` (wagers, paytables, exact par sheets, health; open),
  ``rounds`` (``POST /rounds/settle`` and the stored rounds), ``tables`` (open tables: each
  step posted to the round state machine), ``progressives`` (the progressive controller, its
  awards and significant events: ``croupier meters``), ``progressive_config`` (suspend, resume,
  reconfigure, the reconciliation report), ``checkpoints``, ``staff``, ``simulations`` (jobs
  with progress), ``eor`` (count analysis), ``blackjack`` (house edge by rule set, the effect
  of each rule; open) and ``docs`` (``/docs`` without a CDN). The web page
  is :mod:`~croupier.service.web`'s.
* :mod:`~croupier.service.dependencies` — what a route depends on, in one place: who asks
  (a token and a role), the ledger and engines it acts on, and a request's ``Idempotency-Key``
  (:data:`~croupier.service.dependencies.Once`).
* Below the routes, what they call: :mod:`~croupier.service.round_writes` (what a route that
  records rounds writes: the use cases of :mod:`croupier.operations.rounds` and the service's
  rows), :mod:`~croupier.service.settling` (a settled round stored once; the one-transaction
  common case), :mod:`~croupier.service.open_tables` (an open table's round, in memory or
  replayed), :mod:`~croupier.service.paid` (awards as the ledger has them now),
  :mod:`~croupier.service.idempotency` (a keyed request answered once) and
  :mod:`~croupier.service.auth` (tokens from the ledger's staff store).
* :mod:`~croupier.service.store` — the service's tables (own migrations, own version table);
  :mod:`~croupier.service.committer` writes them, group-committed.
* :mod:`~croupier.service.server` — running uvicorn.

Layering: the service sits beside :mod:`croupier.commands` (importing nothing of it) above
:mod:`croupier.operations` — the use cases and presenters both interfaces share — and the domain
packages below it (:mod:`croupier.table`, :mod:`croupier.progressive`, :mod:`croupier.analysis`).
"""
