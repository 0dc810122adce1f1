"""``croupier meters user`` and ``croupier meters users``: the ledger's staff store
(:mod:`croupier.progressive.staffing`). Registered on :data:`croupier.commands.meters.meters_app`
when imported: the ``meters`` entry of :data:`croupier.commands.COMMANDS` lists this module.

* ``croupier meters user NAME --role ROLE --as SHIFT_MANAGER`` — add a member;
* ``croupier meters user NAME --remove --as SHIFT_MANAGER`` — remove one (no login, no act; the
  history still names them);
* ``croupier meters user NAME --set-role ROLE --as SHIFT_MANAGER`` — change a member's role;
* ``croupier meters user NAME --new-credential --as NAME`` — change one's own credential (the
  old one from ``--password-file`` / ``$CROUPIER_PASSWORD`` / the terminal, as every ``--as``),
  or ``--as SHIFT_MANAGER`` to set another member's;
* ``croupier meters users`` — the members and their roles, and the names of those removed.

The new credential (``--role``, ``--new-credential``) comes from ``--new-password-file``
(``$CROUPIER_NEW_PASSWORD_FILE``), else ``$CROUPIER_NEW_PASSWORD``, else the terminal, twice.
Each change is a staff event naming the member who made it; every token the service issued to
the member before is refused from then on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from croupier.commands.common import out, shown
from croupier.commands.meters import (
    ENV_NEW_PASSWORD,
    DbOpt,
    JsonOut,
    PasswordFile,
    _done,
    _ledger,
    _required_as,
    meters_app,
    read_credential,
)
from croupier.errors import AuthorizationError, InputError
from croupier.progressive import Role, StaffMember
from croupier.progressive.staffing import STAFF_SECTION

_ROLES = ", ".join(r.value for r in Role)


def _shift_manager(who: StaffMember, what: str) -> None:
    """Refuse ``who`` unless a shift manager, before a new credential is asked for."""
    if not who.role.at_least(Role.SHIFT_MANAGER):
        raise AuthorizationError(
            f"{who.name} is {who.role.said}; {what} needs {Role.SHIFT_MANAGER.who_may()}",
            section=STAFF_SECTION,
        )


@meters_app.command()
def user(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="The member's name.")],
    role: Annotated[
        str | None, typer.Option("--role", help=f"Add the member with this role: {_ROLES}.")
    ] = None,
    remove: Annotated[
        bool, typer.Option("--remove", help="Remove the member (a shift manager does it).")
    ] = False,
    set_role: Annotated[
        str | None,
        typer.Option("--set-role", help="Change the member's role (a shift manager does it)."),
    ] = None,
    new_credential: Annotated[
        bool,
        typer.Option(
            "--new-credential",
            help="Set the member's credential: one's own (--as NAME, the old one as --as reads "
            "it) or, as a shift manager, anyone's.",
        ),
    ] = False,
    by: Annotated[str, typer.Option("--as", help="The member doing it.")] = "",
    password_file: PasswordFile = None,
    new_password_file: Annotated[
        Path | None,
        typer.Option(
            "--new-password-file",
            envvar="CROUPIER_NEW_PASSWORD_FILE",
            help="Read the new credential from this file (else $CROUPIER_NEW_PASSWORD, else the "
            "terminal asks twice).",
        ),
    ] = None,
    db: DbOpt = None,
    json_out: JsonOut = False,
) -> None:
    """Add a staff member with a role and a credential (--role), remove one (--remove), change
    their role (--set-role) or credential (--new-credential); each recorded in the ledger with
    who did it (§ 605a.7)."""
    actions = [
        flag
        for flag, given in (
            ("--role", role is not None),
            ("--remove", remove),
            ("--set-role", set_role is not None),
            ("--new-credential", new_credential),
        )
        if given
    ]
    if len(actions) != 1:
        raise InputError(
            "say what to do with the member: one of --role ROLE (add), --remove, --set-role ROLE, "
            f"--new-credential (given: {', '.join(actions) or 'none'})"
        )
    new_role = Role.parse(role or set_role or "") if (role or set_role) is not None else None
    with _ledger(ctx, db) as ledger:
        as_name = _required_as(by)
        credential = read_credential(as_name, password_file)
        who = ledger.authenticate(as_name, credential)
        if role is not None:
            assert new_role is not None
            _shift_manager(who, "adding staff")
            secret = read_credential(name, new_password_file, env=ENV_NEW_PASSWORD, confirm=True)
            added = ledger.add_user(name, new_role, secret, by=who.name)
            _done(
                json_out,
                {"user": added.name, "role": new_role.value, "added_by": who.name},
                f"{added.name} added as {new_role.value} by {who.name}",
            )
        elif remove:
            ledger.remove_user(name, by=who.name)
            _done(
                json_out,
                {"user": name, "removed": True, "by": who.name},
                f"{name} removed from the staff by {who.name}",
            )
        elif set_role is not None:
            assert new_role is not None
            changed = ledger.set_role(name, new_role, by=who.name)
            _done(
                json_out,
                {"user": changed.name, "role": new_role.value, "by": who.name},
                f"{changed.name} is now {new_role.value} (changed by {who.name})",
            )
        else:
            own = who.name == name.strip()
            if not own:
                _shift_manager(who, "setting another member's credential")
            secret = read_credential(name, new_password_file, env=ENV_NEW_PASSWORD, confirm=True)
            old = credential if own else None
            ledger.change_credential(name, secret, by=who.name, old_secret=old)
            _done(
                json_out,
                {"user": name, "credential_changed": True, "by": who.name},
                f"{name}'s credential changed by {who.name}",
            )


@meters_app.command()
def users(ctx: typer.Context, db: DbOpt = None, json_out: JsonOut = False) -> None:
    """The staff: every member with their role, and the names of those removed."""
    with _ledger(ctx, db) as ledger:
        members, removed = ledger.users(), ledger.removed_users()
    if json_out:
        data = {
            "staff": [{"user": m.name, "role": m.role.value} for m in members],
            "removed": removed,
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return
    t = Table(title="Staff (58 Pa. Code § 605a.7)", title_justify="left")
    t.add_column("Member")
    t.add_column("Role")
    for m in members:
        t.add_row(shown(m.name), m.role.value)
    for n in removed:
        t.add_row(shown(n), "(removed)")
    out.print(t)
