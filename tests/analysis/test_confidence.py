"""The volatility index and the confidence band of the return (croupier.analysis.confidence)."""

from fractions import Fraction

import pytest
from scipy.stats import norm

from croupier.analysis.confidence import (
    BAND_ROUNDS,
    CONFIDENCE_LEVELS,
    level,
    one_in,
    return_band,
    return_bands,
    volatility_index,
)
from croupier.errors import InputError

# The two-sided normal quantiles a lab's report uses, to six places (the figures GLI-style math
# reports print beside the volatility index; also any normal table: Φ(1.644854) = 0.95,
# Φ(1.959964) = 0.975, Φ(2.575829) = 0.995).
PUBLISHED = {90: 1.644854, 95: 1.959964, 99: 2.575829}


def test_the_levels_are_90_95_and_99_percent_in_order() -> None:
    assert [lv.percent for lv in CONFIDENCE_LEVELS] == [90, 95, 99]
    assert [lv.key for lv in CONFIDENCE_LEVELS] == ["vi_90", "vi_95", "vi_99"]


@pytest.mark.parametrize("percent", [90, 95, 99])
def test_the_quantile_is_the_published_figure_and_scipys(percent: int) -> None:
    z = level(percent).z
    assert round(z, 6) == PUBLISHED[percent]
    assert z == pytest.approx(norm.ppf(1 - (1 - percent / 100) / 2), abs=1e-12)


def test_the_volatility_index_is_z_times_sd() -> None:
    # Perfect Pairs A, 8 decks: SD 3.9534 (hand: √(E[X²] − E[X]²) from the par sheet's lines)
    assert volatility_index(3.9534, level(95)) == pytest.approx(1.959964 * 3.9534, rel=1e-6)


def test_a_band_by_hand() -> None:
    # E[X] = −1/20, SD 2, 10,000 rounds at 95 %: 0.95 ± 1.959964 · 2 / 100 = 0.95 ± 0.0391993
    band = return_band(Fraction(-1, 20), 2.0, 10_000, level(95))
    assert band.expected == pytest.approx(0.95)
    assert band.low == pytest.approx(0.9108007, abs=1e-7)
    assert band.high == pytest.approx(0.9891993, abs=1e-7)
    assert band.to_dict() == {
        "rounds": 10_000,
        "confidence": 95,
        "low": band.low,
        "high": band.high,
    }


def test_the_band_narrows_as_one_over_root_n() -> None:
    wide, narrow = (return_band(0, 1.0, n, level(99)) for n in (100, 10_000))
    assert (wide.high - wide.low) == pytest.approx(10 * (narrow.high - narrow.low))


def test_every_band_from_a_hundred_to_a_hundred_million_rounds() -> None:
    assert BAND_ROUNDS == (100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000)
    bands = return_bands(Fraction(-1, 10), 1.0)
    assert len(bands) == len(BAND_ROUNDS) * 3
    assert [(b.rounds, b.level.percent) for b in bands[:3]] == [(100, 90), (100, 95), (100, 99)]


def test_one_in_n_is_the_reciprocal_and_none_for_an_impossible_outcome() -> None:
    assert one_in(Fraction(1456, 86320)) == Fraction(86320, 1456)
    assert one_in(Fraction(0)) is None


@pytest.mark.parametrize("percent", [0, 100, -5, 150])
def test_a_level_outside_zero_to_a_hundred_is_refused(percent: int) -> None:
    with pytest.raises(InputError, match="between 0 and 100"):
        level(percent)


def test_a_band_of_no_rounds_is_refused() -> None:
    with pytest.raises(InputError, match="at least one round"):
        return_band(0, 1.0, 0, level(95))
