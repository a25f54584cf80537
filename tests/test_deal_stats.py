"""The shuffle and deal against exact probabilities (hypergeometric facts).

Each assertion fails by chance with probability ALPHA; there are fewer than 10
of them, so the file fails by chance less than once in 1000 runs.
"""

from math import comb

import numpy as np
import pytest
from scipy import stats

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import Rules

ALPHA = 1e-4
N = 60_000
DEALER = 2


@pytest.fixture(scope="module")
def deals():
    ps = PolicySet.from_specs(4, bid="random", trump="random", discard="random", play="random")
    _, tr = run_chunk(Rules(), ps, 20240601, 0, N, dealer=DEALER, trace=True)
    deck = tr[:, L.T_DECK : L.T_DECK + 52]
    # location of each card: seat 0..3, or 4 for the stock
    pos_seat = np.array([(DEALER + 1 + (i % 12) // 3) % 4 for i in range(36)] + [4] * 16)
    where = np.empty_like(deck)
    np.put_along_axis(where, deck, pos_seat[None, :], axis=1)
    return deck, where


def test_every_deal_is_a_permutation(deals):
    deck, _ = deals
    assert (np.sort(deck, axis=1) == np.arange(52)).all()


@pytest.mark.parametrize("seat", range(4))
def test_p_hand_holds_a_five(deals, seat):
    # P(a given 9-card hand holds at least one five) = 1 - C(48,9)/C(52,9)
    _, where = deals
    fives = [s * 13 + 3 for s in range(4)]
    k = int((where[:, fives] == seat).any(axis=1).sum())
    p = 1 - comb(48, 9) / comb(52, 9)
    assert stats.binomtest(k, N, p).pvalue > ALPHA, (k / N, p)


def test_p_hand_holds_both_black_fives(deals):
    # P(a given hand holds 5C and 5S) = C(50,7)/C(52,9) = 9*8/(52*51)
    _, where = deals
    k = int(((where[:, 3] == 0) & (where[:, 13 + 3] == 0)).sum())
    p = comb(50, 7) / comb(52, 9)
    assert abs(p - 72 / 2652) < 1e-12
    assert stats.binomtest(k, N, p).pvalue > ALPHA, (k / N, p)


def test_card_locations_uniform(deals):
    # every card lies in a given hand with probability 9/52, in the stock 16/52
    _, where = deals
    counts = np.stack([(where == loc).sum(axis=0) for loc in range(5)], axis=1)  # 52 x 5
    expected = N * np.array([9, 9, 9, 9, 16]) / 52
    chi2 = ((counts - expected) ** 2 / expected).sum()
    dof = 52 * 4  # 52 independent multinomials with 5 cells each
    assert stats.chi2.sf(chi2, dof) > ALPHA


def test_trump_length_hypergeometric(deals):
    # the number of spades in seat 0's hand: hypergeometric(52, 13, 9)
    _, where = deals
    k = (where[:, 13:26] == 0).sum(axis=1)
    obs = np.bincount(k, minlength=10)[:10]
    pmf = stats.hypergeom(52, 13, 9).pmf(np.arange(10))
    # pool the sparse tail (6..9) into one cell
    o = np.append(obs[:6], obs[6:].sum())
    e = N * np.append(pmf[:6], pmf[6:].sum())
    chi2 = ((o - e) ** 2 / e).sum()
    assert stats.chi2.sf(chi2, len(o) - 1) > ALPHA


def test_different_seeds_give_different_deals():
    ps = PolicySet.from_specs(4, bid="random", trump="random", discard="random", play="random")
    _, a = run_chunk(Rules(), ps, 1, 0, 50, trace=True)
    _, b = run_chunk(Rules(), ps, 2, 0, 50, trace=True)
    da, db = a[:, L.T_DECK : L.T_DECK + 52], b[:, L.T_DECK : L.T_DECK + 52]
    assert (da != db).any(axis=1).all()
    assert len({tuple(r) for r in da}) == 50  # no repeated deal within a run
