"""The split of a batch between worker threads (threads.py), and that it never
changes a bit of the hands, the games or the deals."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from cinch_sim import layout as L
from cinch_sim.engine import threads
from cinch_sim.engine.run import PolicySet, run_chunk, run_deals, run_games
from cinch_sim.rules import Rules

needs_two = pytest.mark.skipif(threads.max_threads() < 2, reason="needs 2 threads")


@pytest.mark.parametrize("parts", [1, 2, 3, 7])
@pytest.mark.parametrize("n", [0, 1, 2, 5, 255, 256, 1001])
def test_split_covers_the_range_in_order_and_evenly(n, parts):
    ranges = threads.split(n, parts)
    assert ranges[0][0] == 0 and ranges[-1][1] == n
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    sizes = [hi - lo for lo, hi in ranges]
    assert len(ranges) <= max(1, parts)
    assert n == 0 or min(sizes) >= 1
    assert max(sizes) - min(sizes) <= 1


def test_using_checks_and_restores():
    before = threads.current()
    with threads.using(1):
        assert threads.current() == 1
        with threads.using(None):  # None leaves the count as it is
            assert threads.current() == 1
    assert threads.current() == before
    with threads.using(np.int64(1)):  # numpy's integers count as whole numbers
        assert threads.current() == 1
    for bad in (0, -1, threads.max_threads() + 1, 1.5, True, "2"):
        with pytest.raises(ValueError, match=r"^threads: .*(whole number|less than 1|cores)"):
            with threads.using(bad):
                pass


def tiles(pieces, n: int) -> bool:
    """Whether ``pieces`` ([lo, hi) ranges) cover 0..n once each, none empty."""
    bounds = sorted(pieces)
    return (
        all(lo < hi for lo, hi in bounds)
        and [lo for lo, _ in bounds] == [0] + [hi for _, hi in bounds[:-1]]
        and bounds[-1][1] == n
    )


@needs_two
def test_run_split_covers_the_batch_on_every_thread_and_waits_for_all():
    seen: dict[tuple[int, int], int] = {}
    started: set[int] = set()
    lock = threading.Lock()
    barrier = threading.Barrier(2, timeout=10)  # both threads' first pieces run together

    def work(lo: int, hi: int) -> None:
        with lock:
            first = threading.get_ident() not in started
            started.add(threading.get_ident())
        if first:
            barrier.wait()
        time.sleep(0.01)
        seen[(lo, hi)] = threading.get_ident()

    with threads.using(2):
        threads.run_split(work, 100)
    assert tiles(seen, 100) and len(seen) == 2 * threads.PIECES_PER_THREAD
    assert len(set(seen.values())) == 2


@needs_two
def test_a_slow_piece_does_not_hold_the_rest_of_the_batch():
    """One slow game (a long PIMC hand) keeps its thread; the other takes every other
    piece, where a fixed half each would leave it idle after its own half."""
    seen: dict[tuple[int, int], int] = {}

    def work(lo: int, hi: int) -> None:
        time.sleep(0.5 if lo == 0 else 0.01)
        seen[(lo, hi)] = threading.get_ident()

    with threads.using(2):
        threads.run_split(work, 10)  # ten pieces of one
    assert tiles(seen, 10) and len(seen) == 10
    slow_thread = seen[(0, 1)]
    assert [k for k, t in seen.items() if t == slow_thread] == [(0, 1)]


@needs_two
def test_run_split_raises_the_error_after_every_range_is_done():
    finished = []

    def work(lo: int, hi: int) -> None:
        if lo > 0:
            raise ZeroDivisionError("boom")
        time.sleep(0.05)
        finished.append(lo)

    with threads.using(2), pytest.raises(ZeroDivisionError, match="boom"):
        threads.run_split(work, 4)
    assert finished == [0]


@needs_two
def test_games_and_deals_are_the_same_bits_on_1_and_2_threads():
    rules = Rules()
    pols = PolicySet.from_specs(4, "heuristic", "heuristic", "heuristic", "random")
    with threads.using(1):
        g1 = run_games(rules, pols, 11, 5, 9, None, 64, trace=True)
        d1 = run_deals(rules, 3, 100, 777)
        h1 = run_chunk(rules, pols, 3, 100, 777)[0]
    with threads.using(2):
        g2 = run_games(rules, pols, 11, 5, 9, None, 64, trace=True)
        d2 = run_deals(rules, 3, 100, 777)
        h2 = run_chunk(rules, pols, 3, 100, 777)[0]
    for a, b in zip(g1, g2, strict=True):
        assert np.array_equal(a, b)
    assert np.array_equal(d1, d2) and np.array_equal(h1, h2)
    assert (g1[0][:, L.G_N_HANDS] > 0).all()  # games were played, not left empty


def test_run_deals_deals_what_run_chunk_plays():
    """W1's deal-only kernel and the hand kernel deal the same cards from a seed."""
    rules = Rules()
    deals = run_deals(rules, 8, 40, 50)
    _, trace = run_chunk(rules, PolicySet.from_specs(4, "random", "random", "random", "random"),
                         8, 40, 50, trace=True)  # fmt: skip
    for i in range(50):
        deck = trace[i, L.T_DECK : L.T_DECK + 52]
        hands = np.zeros(4, np.uint64)
        for r in range(3):  # packets of three from eldest (the dealer is seat 3)
            for j in range(4):
                for c in deck[r * 12 + j * 3 : r * 12 + j * 3 + 3]:
                    hands[j] |= np.uint64(1) << np.uint64(c)
        assert np.array_equal(deals[i, :4], hands)


@needs_two
@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="needs fork")
def test_a_forked_child_runs_its_own_threads():
    """The parent's pool has no threads in a forked child: the child must start its own
    rather than wait forever on workers that are not there."""
    import multiprocessing as mp

    with threads.using(2):
        threads.run_split(lambda lo, hi: None, 4)  # the parent's pool now exists
    ctx = mp.get_context("fork")
    with ctx.Pool(1) as pool:
        result = pool.apply_async(_split_in_child)
        assert tiles(result.get(timeout=60), 10)


def _split_in_child() -> list[tuple[int, int]]:
    seen = []
    with threads.using(2):
        threads.run_split(lambda lo, hi: seen.append((lo, hi)), 10)
    return sorted(seen)


@needs_two
def test_run_pieces_shares_separate_pieces_between_the_threads():
    """The advisor's candidates are separate pieces (one slow hand each): both threads
    take them, each piece once."""
    seen: dict[int, int] = {}
    barrier = threading.Barrier(2, timeout=10)  # the first two pieces run together

    def piece(i: int) -> None:
        if i < 2:
            barrier.wait()
        seen[i] = threading.get_ident()

    with threads.using(2):
        threads.run_pieces([lambda i=i: piece(i) for i in range(6)])
    assert sorted(seen) == list(range(6)) and len(set(seen.values())) == 2


def test_jobs_run_together_are_the_bits_of_each_run_alone(monkeypatch):
    """``run_chunks``: a range, listed hands and one hand, on one call of the threads,
    each the bits ``run_chunk`` gives it alone."""
    from cinch_sim.engine import run

    rules = Rules()
    heuristic = PolicySet.from_specs(4)
    randomly = PolicySet.from_specs(4, "random", "random", "random", "random")
    jobs = [run.ChunkJob(heuristic, 100, 40), run.ChunkJob(randomly, indices=np.array([7, 3, 900])),
            run.ChunkJob(heuristic, indices=np.array([5]))]  # fmt: skip
    alone = [run_chunk(rules, j.policies, 9, j.offset, j.n, 2, indices=j.indices) for j in jobs]
    calls = []
    run_pieces = run.run_pieces

    def counted(pieces):
        calls.append(pieces)
        run_pieces(pieces)

    monkeypatch.setattr(run, "run_pieces", counted)
    for n in (1, 2):
        with threads.using(n):
            together = run.run_chunks(rules, jobs, 9, 2)
        for (a, ta), (b, tb) in zip(alone, together, strict=True):
            assert np.array_equal(a, b) and ta.shape == tb.shape == (0, L.trace_len(1))
    assert len(calls) == 2 and len(calls[0]) == 3  # one thread: a piece a job
    assert [len(r) for r, _ in together] == [40, 3, 1]


def test_a_broken_policy_among_jobs_run_together_is_named(tmp_path):
    from cinch_sim.engine.run import ChunkJob, run_chunks
    from cinch_sim.policies.loading import PolicyError

    path = tmp_path / "broken_policy.py"
    path.write_text("from numba import njit\n\n\n@njit\ndef card_99(obs, hand, legal, params,"
                    " scratch, rng):\n    return 99\n")  # fmt: skip
    fine = PolicySet.from_specs(4)
    broken = PolicySet.from_specs(4, play=f"{path}:card_99")
    named = (
        r"^play policy '.*card_99' at seat \d .* illegal card 99 "
        r"\(a card is a number 0..51; legal here: \w\w( \w\w)*\)$"
    )
    with pytest.raises(PolicyError, match=named):
        run_chunks(Rules(), [ChunkJob(fine, 0, 5), ChunkJob(broken, 0, 5)], 1)
