"""Further ``croupier`` commands, one module per game or subsystem.

Each module here imports ``app`` (and the ``out``/``err`` consoles) from
:mod:`croupier.commands.common` (never from :mod:`croupier.cli`) and
declares its commands with ``@app.command()``; :mod:`croupier.cli` imports every module of this
package when it loads, so adding a command module is enough to add commands.
"""
