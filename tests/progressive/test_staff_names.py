"""Issue 16, item 4: one name rule for staff, progressives and tables (croupier.names) — NFC,
no control, format or invisible character, and no new name that reads as an existing one."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.errors import AuthenticationError, ConfusableNameError, NameRuleError
from croupier.names import check_new, fold, login_name, normalize
from croupier.progressive import Ledger, Role
from progressive_support import BACKENDS, SHIFT, add_staff, new_db_url, paytable_definition, secret

ZOE_NFC = "Zo\u00eb"
ZOE_NFD = "Zoe\u0308"


def test_the_two_zoes_are_two_strings_that_read_the_same() -> None:
    assert ZOE_NFC != ZOE_NFD  # what the trial typed
    assert unicodedata.normalize("NFC", ZOE_NFD) == ZOE_NFC
    assert normalize("a staff member", ZOE_NFD) == ZOE_NFC
    assert fold(ZOE_NFC) == fold(ZOE_NFD)
    assert login_name(f" {ZOE_NFD} ") == ZOE_NFC


@pytest.mark.parametrize(
    ("name", "char"),
    [
        ("BJ-1\u200b", "U+200B ZERO WIDTH SPACE"),
        ("BJ-1\u202e", "U+202E RIGHT-TO-LEFT OVERRIDE"),
        ("BJ\u20601", "U+2060 WORD JOINER"),
        ("sa\u00adm", "U+00AD SOFT HYPHEN"),
        ("s\u3164am", "U+3164 HANGUL FILLER"),
        ("BJ\u00a01", "U+00A0 NO-BREAK SPACE"),
        ("e\nve", "U+000A"),
        ("sam\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
    ],
)
def test_invisible_and_control_characters_are_refused_by_name(name: str, char: str) -> None:
    with pytest.raises(NameRuleError, match="control or format") as e:
        normalize("a table", name)
    assert char in str(e.value)


@pytest.mark.parametrize(
    ("new", "existing"),
    [
        ("BJ\u20111", "BJ-1"),  # NON-BREAKING HYPHEN
        ("BJ\u22121", "BJ-1"),  # MINUS SIGN
        ("bj-1", "BJ-1"),  # case
        ("BJ-I", "BJ-1"),  # I and 1
        ("\uff22\uff2a-1", "BJ-1"),  # fullwidth
        ("\u0455am", "sam"),  # Cyrillic dze for s
        ("s\u0430m", "sam"),  # Cyrillic a
        ("pat  smith", "pat smith"),  # two spaces
        ("pat_smith", "pat smith"),
        (ZOE_NFD, ZOE_NFC),
    ],
)
def test_a_look_alike_of_an_existing_name_is_refused_naming_it(new: str, existing: str) -> None:
    with pytest.raises(ConfusableNameError) as e:  # a kind whose names may hold spaces
        check_new("a staff member", new, ["BJ-2", existing])
    assert e.value.existing == existing
    assert repr(existing) in str(e.value)


@pytest.mark.parametrize("other", ["BJ-2", "BJ 1", "BJ-11", "sal", "Zoe"])
def test_names_that_read_differently_are_two_names(other: str) -> None:
    assert check_new("a staff member", other, ["BJ-1", "sam", ZOE_NFC]) == other


@pytest.fixture(params=BACKENDS)
def ledger(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Ledger]:
    urls = new_db_url(request.param, tmp_path)
    with Ledger(next(urls)) as led:
        add_staff(led)
        led.create_progressive(
            paytable_definition("633b.3", "1", 6, 500, "mtd-5"), tables=["BJ-1"], by=SHIFT
        )
        yield led
    urls.close()  # type: ignore[attr-defined]


def test_the_ledger_refuses_a_second_zoe_and_logs_either_spelling_in(ledger: Ledger) -> None:
    ledger.add_user(ZOE_NFC, Role.DEALER, "zoe's pin", by=SHIFT)
    before = ledger.event_count()
    with pytest.raises(ConfusableNameError, match="exists already") as e:
        ledger.add_user(ZOE_NFD, Role.SHIFT_MANAGER, "another pin", by=SHIFT)
    assert e.value.existing == ZOE_NFC
    with pytest.raises(ConfusableNameError, match="looks like the existing 'sam'"):
        ledger.add_user("S\u0430m", Role.SHIFT_MANAGER, "another pin", by=SHIFT)
    assert ledger.event_count() == before  # nothing written
    assert [m.name for m in ledger.users()].count(ZOE_NFC) == 1
    assert ledger.authenticate(ZOE_NFD, "zoe's pin").name == ZOE_NFC
    assert ledger.authenticate(ZOE_NFC, "zoe's pin").name == ZOE_NFC
    with pytest.raises(AuthenticationError):  # a look-alike is not a login
        ledger.authenticate("zo\u00eb", "zoe's pin")


def test_tables_and_progressives_follow_the_same_rule(ledger: Ledger) -> None:
    with pytest.raises(NameRuleError, match="U\\+200B"):
        ledger.link_table("mtd-5", "BJ-2\u200b", by=SHIFT)
    with pytest.raises(ConfusableNameError, match="'BJ-1'"):
        ledger.link_table("mtd-5", "BJ\u20111", by=SHIFT)
    jp = paytable_definition("633b.2", "P1", 6, 500, "jp-5")
    ledger.create_progressive(jp, tables=["BJ-1"], by=SHIFT)  # the same table, another wager
    assert ledger.tables() == ["BJ-1"]
    with pytest.raises(ConfusableNameError, match="'mtd-5'"):
        ledger.create_progressive(
            paytable_definition("633b.3", "1", 8, 100, "MTD\u20135"), by=SHIFT
        )
    with pytest.raises(NameRuleError, match="NFC"):
        ledger.create_progressive(paytable_definition("633b.3", "1", 8, 100, ZOE_NFD), by=SHIFT)
    assert ledger.names() == ["mtd-5", "jp-5"]
    ledger.audit()


def test_a_login_with_an_nfd_name_of_an_nfc_member_over_the_cli_path(ledger: Ledger) -> None:
    """The name is taken as NFC wherever it is typed: the ledger's own calls included."""
    ledger.add_user(ZOE_NFC, Role.FLOORPERSON, secret("zoe"), by=SHIFT)
    ledger.set_role(ZOE_NFD, Role.PIT_MANAGER, by=SHIFT)
    assert {m.name: m.role for m in ledger.users()}[ZOE_NFC] is Role.PIT_MANAGER
