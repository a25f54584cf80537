"""What the solver's table size costs or saves, per preset (docs/solver.md).

Usage: python scripts/bench_table_size.py --variant no_draw [--hands 6]
       [--bits 0 14 18] [--seed 1] [--threads 1] [--nodes N]

Plays ``--hands`` hands with PIMC at every seat, once per table size in
``--bits`` (``tt_bits``; 0 is the default, sized to the deal by
``solver.limits.table_bits_of``), all in one process so that the ratios share
one machine state, and prints the CPU seconds a hand and a digest of the result
rows: the digests must agree, since the table holds proven bounds only. With
``--nodes N`` it also counts the nodes of every first card's value
(``card_values``) at the first trick of N hands the heuristic played, per size.
"""

from __future__ import annotations

import argparse
import hashlib
import time

import numpy as np

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.engine.threads import using
from cinch_sim.policies.strategies import BUILTIN
from cinch_sim.rules import make_rules
from cinch_sim.solver.limits import table_bits_of
from cinch_sim.solver.position import from_trace
from cinch_sim.solver.search import W_NODES, card_values, new_workspace


def pimc_at(players: int, bits: int) -> PolicySet:
    """PIMC's play at every seat with a ``bits`` table (0: sized to the deal)."""
    pol = BUILTIN["pimc"].with_params("play", tt_bits=bits).policies()
    return PolicySet(*([pol[k]] * players for k in ("bid", "trump", "discard", "play")))


def first_trick_nodes(rules, hands: int, bits: int, seed: int) -> int:
    """Nodes of ``card_values`` at the start of play of the heuristic's hands."""
    out, tr = run_chunk(rules, PolicySet.from_specs(rules.players), seed, 0, hands, 0, trace=True)
    rv = rules.to_array()
    held = rules.players * rules.hand_size
    ws = new_workspace(bits or table_bits_of(held))
    values = np.zeros(52, np.int64)
    nodes = 0
    for i in range(hands):
        if out[i, L.H_THROWN_IN]:
            continue
        pos, _ = from_trace(rules, out[i], tr[i])
        ws[W_NODES] = 0
        card_values(pos, rv, ws, values)
        nodes += int(ws[W_NODES])
    return nodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="no_draw")
    ap.add_argument("--hands", type=int, default=6)
    ap.add_argument("--bits", type=int, nargs="+", default=[14, 0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--nodes", type=int, default=0, help="hands for the node counts")
    a = ap.parse_args()
    rules = make_rules(a.variant)
    with using(a.threads):
        run_chunk(rules, pimc_at(rules.players, a.bits[0]), a.seed, 10**6, 1, 0)  # loads
        for bits in a.bits:
            t = time.process_time()
            out, _ = run_chunk(rules, pimc_at(rules.players, bits), a.seed, 0, a.hands, 0)
            cpu = (time.process_time() - t) / a.hands
            digest = hashlib.sha1(out.tobytes()).hexdigest()[:12]
            print(
                f"{a.variant} tt_bits {bits}: {cpu * 1e3:,.1f} ms of CPU a hand, results {digest}"
            )
    if a.nodes:
        for bits in a.bits:
            n = first_trick_nodes(rules, a.nodes, bits, a.seed)
            print(f"{a.variant} tt_bits {bits}: {n:,} nodes at the first card, {a.nodes} hands")


if __name__ == "__main__":
    main()
