"""croupier: Pennsylvania's regulated table-game wagers (58 Pa. Code), exact and checkable.

Layers, each importing only from the ones before it: :mod:`croupier.cards` →
:mod:`croupier.paytables` (the regulation's paytables as data) → :mod:`croupier.wagers` (one module
per section: classification and settlement, found through one registry) →
:mod:`croupier.analysis` (exact par sheets, simulation, reports) → :mod:`croupier.cli`.
"""

__version__ = "0.1.0"
