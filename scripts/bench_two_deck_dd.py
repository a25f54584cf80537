"""How long the double-dummy solver takes on two-deck hands (issue 32, part 4).

Usage: python scripts/bench_two_deck_dd.py [--positions 1000] [--trick 1]
       [--limit 60] [--seed 7] [--tt-bits 20]

Deals two-deck hands with the heuristic at every seat (the kernel, seed
``--seed``), takes each played hand's position at the start of trick
``--trick`` (1: the start of play, twelve cards a hand) and solves it
(``solve2``: the value only), each position in a forked child stopped after
``--limit`` seconds. Prints the median, the 99th percentile and the worst
seconds, a stopped position counted as ``--limit`` (so a figure that draws on
one is printed as a lower bound), and the nodes searched.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time

import numpy as np

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import make_rules
from cinch_sim.solver.moves import play
from cinch_sim.solver.position import from_trace
from cinch_sim.solver.search import W_NODES, new_workspace, solve2

RULES = make_rules("two_deck")


def positions(n: int, trick: int, seed: int) -> list[np.ndarray]:
    """The start of trick ``trick`` of n hands the kernel played (thrown-in hands skipped)."""
    rv = RULES.to_array()
    out, tr = run_chunk(RULES, PolicySet.from_specs(4), seed, 0, n + n // 4 + 20, 0, trace=True)
    keep = [i for i in range(out.shape[0]) if not out[i, L.H_THROWN_IN]][:n]
    if len(keep) < n:
        sys.exit(f"bench_two_deck_dd: only {len(keep)} of {n} hands were played out")
    found = []
    for i in keep:
        pos, plays = from_trace(RULES, out[i], tr[i])
        for _, c in plays[: RULES.players * (trick - 1)]:
            play(pos, rv, c)
        found.append(pos)
    return found


def _solve(pos: np.ndarray, tt_bits: int, queue: mp.Queue) -> None:
    ws = new_workspace(tt_bits)
    t = time.perf_counter()
    v = solve2(pos, RULES.to_array(), ws)
    queue.put((int(v), time.perf_counter() - t, int(ws[W_NODES])))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--trick", type=int, default=1, help="1..12: where each position starts")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds before a solve is stopped")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--tt-bits", type=int, default=20)
    a = ap.parse_args()
    if not 1 <= a.trick <= RULES.hand_size:
        ap.error(f"--trick must be 1..{RULES.hand_size}")
    found = positions(a.positions, a.trick, a.seed)
    _solve(positions(1, RULES.hand_size - 1, a.seed)[0], 8, mp.Queue())  # compile or load
    ctx = mp.get_context("fork")
    secs, nodes, stopped = [], [], 0
    for k, pos in enumerate(found):
        queue = ctx.Queue()
        child = ctx.Process(target=_solve, args=(pos, a.tt_bits, queue))
        child.start()
        child.join(a.limit)
        if child.is_alive():
            child.kill()
            child.join()
            stopped += 1
            secs.append(a.limit)
            print(f"{k}: stopped after {a.limit:g} s", flush=True)
            continue
        v, s, n = queue.get()
        secs.append(s)
        nodes.append(n)
        print(f"{k}: value {v}, {s:.3f} s, {n:,} nodes", flush=True)
    x = np.array(secs)

    solved_most = max((s for s in secs if s < a.limit), default=0.0)

    def shown(v: float) -> str:
        """A figure past every solved time draws on a stopped one: a lower bound."""
        return f"at least {v:.3f} s" if stopped and v > solved_most else f"{v:.3f} s"

    print(
        f"two decks from trick {a.trick}, {len(found)} positions (seed {a.seed}, tt_bits "
        f"{a.tt_bits}): median {shown(np.median(x))}, 99th percentile "
        f"{shown(np.percentile(x, 99))}, worst {shown(x.max())}; {stopped} stopped at "
        f"{a.limit:g} s"
        + (f"; nodes of the solved, median {np.median(nodes):,.0f}" if nodes else "")
    )


if __name__ == "__main__":
    main()
