"""The benchmark's compiled tally counts what docs/benchmarks.md asks for (checked
against a plain Python count of the same rows)."""

import numpy as np
from helpers import load_script

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import Rules


def test_the_compiled_tally_matches_a_plain_count():
    bench = load_script("bench")
    pol = PolicySet.from_specs(4, "simple", "simple", "simple", "random")
    out, _ = run_chunk(Rules(robber="dealer"), pol, 4, 0, 3000)
    made = np.zeros(15, np.int64)
    set_ = np.zeros(15, np.int64)
    pedro = np.zeros((2, 3), np.int64)
    bench.add_to_tally(out, made, set_, pedro)

    want_made, want_set, want_pedro = np.zeros(15, int), np.zeros(15, int), np.zeros((2, 3), int)
    for row in out:
        bid = row[L.H_BID]
        (want_made if row[L.H_MADE] == 1 else want_set)[bid] += 1
        for k, slot in enumerate((L.SLOT_RANK0 + 2, L.SLOT_LEFT)):  # right, left Pedro
            team = row[L.H_SLOT_TEAM + slot]
            fate = 2 if team < 0 else (0 if team == row[L.H_MAKER] % 2 else 1)
            want_pedro[k, fate] += 1
    assert np.array_equal(made, want_made) and np.array_equal(set_, want_set)
    assert np.array_equal(pedro, want_pedro)
    assert made.sum() + set_.sum() == 3000 and pedro.sum() == 6000
    # the fates are told apart: each Pedro is taken by each side in some hands
    assert (pedro[:, 0] > 0).all() and (pedro[:, 1] > 0).all()
