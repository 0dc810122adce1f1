"""The exact counts shipped with croupier (croupier.analysis.precomputed): read only for a standard
shoe and only while the code they were counted by is unchanged, and (slow) every one of them
recounted from scratch equal to the stored one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from croupier.analysis import exact, precomputed, regenerate
from croupier.analysis.exact import compute_counts, exact_counts
from croupier.analysis.precomputed import StoredCount, class_name, closure, fingerprint, lookup
from croupier.cards import Card, Rank, Shoe, Suit
from croupier.wagers import Wager, get_wager


@pytest.fixture
def no_cached_counts() -> Iterator[None]:
    exact._cached_counts.cache_clear()
    yield
    exact._cached_counts.cache_clear()


def _stand_in(wager_id: str, decks: int, counts: tuple[int, ...], print_: str) -> StoredCount:
    w = get_wager(wager_id)
    return StoredCount(wager_id, class_name(type(w)), decks, print_, counts, "stand-in")


@pytest.mark.usefixtures("no_cached_counts")
def test_stored_counts_are_read_only_while_the_code_is_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    w = get_wager("perfect-pairs")
    current = fingerprint(type(w))
    fake = (1, 2, 3, 86314)  # not Perfect Pairs' counts: shows where a figure came from
    entries = {(class_name(type(w)), 8): _stand_in(w.id, 8, fake, current)}
    monkeypatch.setattr(precomputed, "stored", lambda: entries)
    shoe = Shoe.standard(8)
    counted = exact_counts(w, shoe)
    assert counted.counts == fake and counted.convention == "stand-in"
    # the code changed since the counts were stored: they are counted again
    entries[(class_name(type(w)), 8)] = _stand_in(w.id, 8, fake, "0" * 64)
    exact._cached_counts.cache_clear()
    assert exact_counts(w, shoe).counts == (1456, 1664, 3328, 79872)
    # only the standard shoe of that many decks is looked up
    entries[(class_name(type(w)), 8)] = _stand_in(w.id, 8, fake, current)
    assert lookup(type(w), shoe.counts) is not None
    assert lookup(type(w), Shoe.standard(6).counts) is None
    assert lookup(type(w), shoe.remove([Card(Rank.ACE, Suit.SPADES)]).counts) is None
    # the same 416 cards, one ace of spades for one king of spades
    other = list(shoe.counts)
    ace, king = Card(Rank.ACE, Suit.SPADES).index, Card(Rank.KING, Suit.SPADES).index
    other[ace] -= 1
    other[king] += 1
    assert lookup(type(w), tuple(other)) is None
    with precomputed.recounting():
        assert lookup(type(w), shoe.counts) is None


def test_the_fingerprint_covers_the_code_and_data_a_count_depends_on() -> None:
    modules = closure("croupier.wagers.four_card_poker")
    for needed in (
        "croupier.cards",
        "croupier.poker.five_card",
        "croupier.poker.four_card",
        "croupier.games.four_card_poker_exact",
        "croupier.wagers.base",
    ):
        assert needed in modules
    assert "croupier.wagers.switch_hands" not in modules
    assert "croupier.wagers.axman" not in modules
    # the generic enumeration counts too; the module reading the stored counts does not
    assert "croupier.analysis.exact" in closure("croupier.analysis.exact")
    assert "croupier.analysis.precomputed" not in closure("croupier.analysis.exact")
    fcp = type(get_wager("bad-beat-bonus"))
    data = precomputed.data_files(fcp, closure(fcp.__module__))
    names = sorted(p.name for p in data)
    # its section's paytables (shipped and EXAMPLE), the dealer table its code reads; no other
    # section's paytables, not the stored counts
    assert names == ["641a.7-examples.toml", "641a.7.toml", "four-card-poker-dealer.npz"]
    pp = type(get_wager("perfect-pairs"))
    assert [p.name for p in precomputed.data_files(pp, closure(pp.__module__))] == ["633b.1.toml"]
    assert precomputed._data_path() not in precomputed._package_data()


def test_the_fingerprint_changes_with_the_source_of_any_module_imported(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    module = type(get_wager("aces-up"))
    before = fingerprint.__wrapped__(module)
    real = precomputed._module_file
    edited = tmp_path / "five_card.py"
    source = real("croupier.poker.five_card")
    assert source is not None
    edited.write_bytes(source.read_bytes() + b"\nSTRAIGHTS_WRAP = True\n")

    def module_file(name: str) -> Path | None:
        return edited if name == "croupier.poker.five_card" else real(name)

    monkeypatch.setattr(precomputed, "_module_file", module_file)
    assert fingerprint.__wrapped__(module) != before


def test_a_paytable_file_of_another_section_leaves_the_fingerprint(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """One new paytable file made every stored count stale (issue 13): a wager's fingerprint
    covers its own section's paytable files only."""
    pp, bb = type(get_wager("perfect-pairs")), type(get_wager("bad-beat-bonus"))
    before = fingerprint.__wrapped__(pp), fingerprint.__wrapped__(bb)
    data = tmp_path / "633b.1.toml"
    data.write_bytes((precomputed._PAYTABLES / "data" / "633b.1.toml").read_bytes() + b"\n# ed\n")
    real = precomputed.data_files

    def edited(wager_type: type[Wager], modules: tuple[str, ...]) -> list[Path]:
        return [data if p.name == data.name else p for p in real(wager_type, modules)]

    monkeypatch.setattr(precomputed, "data_files", edited)
    assert fingerprint.__wrapped__(pp) != before[0]  # its own paytables changed
    assert fingerprint.__wrapped__(bb) == before[1]  # another section's: unchanged


def test_no_stored_count_is_stale() -> None:
    """Every built-in offering has a stored count counted by the current code: a stale one
    fails here (CI) rather than being recounted slowly in every `croupier parsheet`."""
    have = precomputed.stored()
    stale = []
    for w, decks in precomputed.offerings():
        entry = have.get((class_name(type(w)), decks))
        if entry is None or entry.fingerprint != fingerprint(type(w)):
            stale.append(f"{w.id} {decks} decks")
    assert not stale, (
        "stored exact counts are stale (" + ", ".join(stale) + "): regenerate them with "
        "`python -m croupier.analysis.regenerate`"
    )


@pytest.mark.parametrize("wager_id", ["perfect-pairs", "ultimate-pairs", "bad-beat-bonus"])
def test_stored_counts_of_quick_wagers_are_a_fresh_count(wager_id: str) -> None:
    w = get_wager(wager_id)
    entries = [e for e in precomputed.stored().values() if e.wager == wager_id]
    assert entries, f"no counts stored for {wager_id}: python -m croupier.analysis.regenerate"
    for e in entries:
        assert e.counts == compute_counts(type(w), Shoe.standard(e.decks).counts)
        assert e.convention == w.counting_convention(Shoe.standard(e.decks))


@pytest.mark.slow
def test_every_stored_count_is_a_fresh_count_of_the_current_code() -> None:
    fresh = list(regenerate.recount())
    assert len(fresh) == len(precomputed.offerings())
    problems = regenerate.differences(fresh)
    assert problems == [], (
        "the shipped exact counts differ from a fresh count; regenerate them with "
        "`python -m croupier.analysis.regenerate`:\n" + "\n".join(problems)
    )
