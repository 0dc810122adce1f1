"""The application layer: one function per use case, above the domain packages
(:mod:`croupier.table`, :mod:`croupier.analysis`, :mod:`croupier.progressive`) and below the
interfaces (:mod:`croupier.commands`, :mod:`croupier.service`), which are thin adapters over it.

- :mod:`croupier.operations.feeding` — feeding one round's progressive wagers to one
  progressive in the regulated order (§ 633b.2(d)–(h), § 633b.3(d)–(h)).
- :mod:`croupier.operations.rounds` — settling a round with or without a ledger: which
  progressives it feeds (§ 605a.8), feeding them, voiding an open table's round; ``croupier
  settle --progressive`` and ``POST /rounds/settle`` both call
  :func:`~croupier.operations.rounds.settle_on_ledger`.
- :mod:`croupier.operations.progressives` — reconfiguring a suspended progressive and
  reconciling progressives over a period (``croupier meters reconfigure | report``, ``POST
  /progressives/{name}/reconfigure``, ``GET /reconciliation``).
- :mod:`croupier.operations.documents` — the document a settled or voided round is stored and
  answered as.
- :mod:`croupier.operations.presenters` — the values both interfaces show: money and meter
  arguments, a paytable as JSON, the meters report's rows, the EOR detail.

A use case that is one ledger method call (validating or voiding an award, creating a
progressive from :func:`~croupier.progressive.create.new_definition`) is called on the ledger
directly: no wrapper for its own sake.

Each function takes plain domain values and the authenticated actor's name (``by``: the CLI's
``--as`` after :func:`~croupier.progressive.login.login`, the service's member) and returns domain
records; errors are :class:`~croupier.errors.CroupierError` subclasses citing their section.
"""
