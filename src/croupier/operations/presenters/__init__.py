"""The presenters both interfaces share: the arguments they read alike and the values they show
alike. ``croupier`` (:mod:`croupier.commands`) and the service (:mod:`croupier.service`) import
them from here; neither imports the other's helpers.

- :mod:`~croupier.operations.presenters.arguments` — money and meter amounts (light: read at
  the CLI's start-up);
- :mod:`~croupier.operations.presenters.paytables` — a paytable as JSON, a section named;
- :mod:`~croupier.operations.presenters.reports` — the meters report's rows and JSON;
- :mod:`~croupier.operations.presenters.eor` — the EOR detail and the counter's options.

Import from the module (this package imports none of them: the CLI's start-up reads only
``arguments``).
"""
