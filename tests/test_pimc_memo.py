"""PIMC's memo of solves, lent to the hands of one deal at several bids (policies/pimc_memo.py).

The memo may only save work: every hand's row is the bits it has played alone.
"""

import numpy as np
import pytest

from cinch_sim import layout as L
from cinch_sim.cards import parse_hand, to_mask
from cinch_sim.engine import run, threads
from cinch_sim.engine.run import ChunkJob, Conditions, PolicySet
from cinch_sim.policies import pimc, pimc_memo, registry
from cinch_sim.policies.loading import load_policy
from cinch_sim.rules import VARIANTS, Rules
from cinch_sim.signatures import N_PARAMS


def _pimc(samples: float = 6.0, memo: float = 0.0):
    """pimc with fewer deals a decision (a test's budget), its memo slot as given."""
    v = list(pimc.DEFAULT_PARAMS["pimc_play"]) + [0.0] * N_PARAMS
    v = v[:N_PARAMS]
    v[pimc.P_SAMPLES] = samples
    v[pimc_memo.MEMO_SLOT] = memo
    return load_policy("play", "pimc", tuple(v))


def _bidding(bid: int, players: int = 4) -> PolicySet:
    """Seat 0 calls ``bid`` in spades, the others bid as the heuristic; pimc at every seat."""
    ps = PolicySet.from_specs(players)
    ps.bid[0] = load_policy("bid", "fixed", (float(bid), 0.0))
    ps.trump[0] = load_policy("trump", "fixed", (0.0,))
    ps.play = [_pimc()] * players
    return ps


def test_the_slot_is_the_registrys_and_no_strategy_name_reaches_it():
    assert registry.PIMC_MEMO_SLOT == pimc_memo.MEMO_SLOT
    named = {v for k, v in vars(pimc).items() if k.startswith("P_") and isinstance(v, int)}
    assert pimc_memo.MEMO_SLOT not in named
    assert all(len(v) <= pimc_memo.MEMO_SLOT for v in pimc.DEFAULT_PARAMS.values())


def test_a_policys_own_vector_never_lends_a_memo():
    """An address set by hand would send the solver to any memory: the slot is cleared."""
    ps = PolicySet.from_specs(4)
    ps.play = [_pimc(memo=123456.0)] * 4
    assert ps.play[0].param_vector()[pimc_memo.MEMO_SLOT] == 123456.0
    assert (ps.params(Rules())[L.KIND_PLAY, :4, pimc_memo.MEMO_SLOT] == 0).all()


def test_the_key_leaves_out_the_bids_and_nothing_else():
    obs = np.arange(L.OBS_LEN, dtype=np.int64)
    params = np.linspace(0.0, 1.0, N_PARAMS)
    rng = np.array([99], np.uint64)
    key = np.empty(pimc_memo.KEY_LEN, np.int64)
    h = pimc_memo.memo_key(obs, np.uint64(7), np.uint64(3), params, rng, key)
    first = key.copy()
    other = obs.copy()
    for at, n in pimc_memo.MASKED:  # the contract, the bids, the calls
        other[at : at + n] += 5
    assert pimc_memo.memo_key(other, np.uint64(7), np.uint64(3), params, rng, key) == h
    assert np.array_equal(key, first)
    for slot in (L.O_TRICK, L.O_MAKER, L.O_PLAYED_BY + 1, L.O_SCORE):
        changed = obs.copy()
        changed[slot] += 1
        assert pimc_memo.memo_key(changed, np.uint64(7), np.uint64(3), params, rng, key) != h
    assert pimc_memo.memo_key(obs, np.uint64(7), np.uint64(3), params, rng + 1, key) != h
    assert pimc_memo.memo_key(obs, np.uint64(7), np.uint64(3), params * 2, rng, key) != h
    assert pimc_memo.memo_key(obs, np.uint64(5), np.uint64(3), params, rng, key) != h


@pytest.mark.parametrize("n_threads", [1, 2])
def test_a_deal_at_several_bids_shares_solves_and_keeps_its_bits(n_threads):
    """Seat 0 holds a strong spade hand and calls 7, 9, 11 and 14 on the same deals, a
    range and listed deals: each job's rows are the rows it plays alone, and the later
    bids read solves the first one made (the same positions up to where the play
    parts)."""
    rules = Rules()
    cond = Conditions(fixed={0: to_mask(parse_hand("AS KS QS JS 5S 2S 3H 4D 6C"))})
    jobs = [ChunkJob(_bidding(b), 40, 2) for b in (7, 9, 11, 14)]
    jobs += [ChunkJob(_bidding(8), indices=np.array([41, 17]))]
    alone = [run.run_chunks(rules, [j], 3, 3, cond)[0][0] for j in jobs]
    before = dict(run.MEMO_COUNTS)
    with threads.using(n_threads):
        together = run.run_chunks(rules, jobs, 3, 3, cond)
    for a, (b, _) in zip(alone, together, strict=True):
        assert np.array_equal(a, b)
    assert (together[3][0][:, L.H_MAKER] == 0).all()  # 14 can't be overbid: the seat plays it
    hits = run.MEMO_COUNTS["hits"] - before["hits"]
    solved = run.MEMO_COUNTS["solved"] - before["solved"]
    assert hits > 0 and solved > 0


def test_a_deals_card_swaps_share_solves_and_keep_their_bits(monkeypatch):
    """Card values replay each deal with a card exchanged for a stand-in: seats that see
    neither card share their solves with the deal as dealt, and every replay is the
    replay played alone."""
    from cinch_sim.analysis.card_values import run_experiment

    ps = PolicySet.from_specs(4)
    ps.play = [_pimc()] * 4
    before = run.MEMO_COUNTS["hits"]
    shared, n, _ = run_experiment(8, 2, Rules(), ps, 3, threads=2)
    hits = run.MEMO_COUNTS["hits"] - before
    monkeypatch.setattr(run, "_memo_seats", lambda policies: [])  # every replay alone
    apart, _, _ = run_experiment(8, 2, Rules(), ps, 3, threads=2)
    assert n == 8 and hits > 0 and run.MEMO_COUNTS["hits"] - before == hits
    tested = [label for label, p in shared.items() if p.deals]
    assert tested
    for label in tested:
        a, b = shared[label], apart[label]
        assert a.deals == b.deals and a.with_card == b.with_card and a.without == b.without


@pytest.mark.slow
@pytest.mark.parametrize("variant", sorted(set(VARIANTS) - {"standard"}))
def test_every_preset_keeps_its_bits_with_shared_solves(variant):
    """Every preset's own tables, sides and decks: three bids' hands of two deals played
    together with one memo are the rows each plays alone."""
    rules = VARIANTS[variant]
    top = rules.bid_max
    jobs = [ChunkJob(_bidding(b, rules.players), 7, 2) for b in (top - 2, top - 1, top)]
    alone = [run.run_chunks(rules, [j], 5, rules.players - 1)[0][0] for j in jobs]
    before = run.MEMO_COUNTS["hits"]
    with threads.using(2):
        together = run.run_chunks(rules, jobs, 5, rules.players - 1)
    for a, (b, _) in zip(alone, together, strict=True):
        assert np.array_equal(a, b)
    assert run.MEMO_COUNTS["hits"] > before
