"""The shipped § 633b.4 whole-game figures (croupier.analysis.game_store): current, the same as
worked out now, used only while their fingerprint matches, and what ``croupier parsheet`` prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_support import run_main
from croupier.analysis import game_store
from croupier.analysis.precomputed import recounting
from croupier.analysis.switch_hands import game_sheet


def test_the_shipped_figures_are_current() -> None:
    """A change to Switch Hands' code makes them stale: this fails until they are regenerated
    (``python -m croupier.analysis.regenerate``) rather than every par sheet working them out."""
    game_store.stored.cache_clear()
    assert sorted(game_store.stored()) == list(game_store.GAME_DECKS), (
        "the § 633b.4 figures in analysis/data/switch-hands-figures.json are stale: regenerate "
        "them with `python -m croupier.analysis.regenerate`"
    )


@pytest.mark.parametrize("decks", game_store.GAME_DECKS)
def test_the_shipped_figures_are_the_strategy_engines(decks: int) -> None:
    shipped = game_store.stored()[decks]
    analyses = game_sheet(decks).analyses
    assert [(f.game, f.ante, f.tie_pays) for f in shipped] == [
        (a.variant.value, a.ante, a.tie_pays) for a in analyses
    ]
    for f, a in zip(shipped, analyses, strict=True):
        assert f.decks == decks
        assert f.house_edge == pytest.approx(a.house_edge, rel=1e-12, abs=0)
        assert f.house_edge_total == pytest.approx(a.house_edge_total, rel=1e-12, abs=0)
        # per total wagered: the edge per Blackjack wager over 1 + the Ante ($1 a $5 wager, (c))
        assert f.house_edge_total == pytest.approx(f.house_edge / (1.2 if f.ante else 1.0))


def test_stale_figures_are_worked_out_afresh(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A figures file whose fingerprint is another code's is not read: an edited house edge in
    it never reaches the output."""
    doc = json.loads(game_store.data_path().read_text(encoding="utf-8"))
    doc["games"][0]["analyses"][0]["house_edge"] = 0.5
    doc["fingerprint"] = "0" * 64
    edited = tmp_path / game_store.DATA
    edited.write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(game_store, "data_path", lambda: edited)
    game_store.stored.cache_clear()
    try:
        assert game_store.stored() == {}
        assert game_store.game_figures(6)[0].house_edge == game_sheet(6).analyses[0].house_edge
    finally:
        game_store.stored.cache_clear()


def test_recounting_works_the_figures_out(monkeypatch: pytest.MonkeyPatch) -> None:
    marker = game_store.GameFigures(6, "switch-hands", True, False, 0.5, 0.25)
    monkeypatch.setattr(game_store, "stored", lambda: {6: (marker,)})
    assert game_store.game_figures(6) == (marker,)
    with recounting():
        assert game_store.game_figures(6) == game_store.computed(6)
    monkeypatch.setenv("CROUPIER_RECOUNT", "1")
    assert game_store.game_figures(6) == game_store.computed(6)


def test_parsheet_prints_the_engines_house_edges() -> None:
    run = run_main(["parsheet", "--summary", "--wager", "switch-hands", "--decks", "8"])
    assert run.code == 0, run.err
    cells = [line.split("│") for line in run.out.splitlines() if line.startswith("│")]
    rows = [c for c in cells if len(c) == 8 and c[1].strip() == "8"]
    analyses = game_sheet(8).analyses
    assert [r[5].strip() for r in rows] == [f"{a.house_edge:.4%}" for a in analyses]
    assert [r[6].strip() for r in rows] == [f"{a.house_edge_total:.4%}" for a in analyses]
