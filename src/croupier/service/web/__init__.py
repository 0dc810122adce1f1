"""The web page ``croupier serve`` serves at ``/``: the par-sheet explorer, the paytable
comparison, the pit's progressive view and the dealer's screen.

Server-rendered Jinja2 templates (:mod:`~croupier.service.web.pages`) with a small script layer
of plain JavaScript that calls the service's JSON routes; charts by Chart.js (v4.6.1, MIT; the
UMD build from the npm package, ``static/vendor/``). Everything ships in the package: no CDN,
no Node.js at install time. :func:`mount` adds the page to an application.
"""

from __future__ import annotations

from croupier.service.web.pages import mount

__all__ = ["mount"]
