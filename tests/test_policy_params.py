"""A user policy's parameters are read-only: the vector is set once for the run and
shared by every hand a thread plays, so a write would carry over into later hands,
which would then depend on the thread count and the chunk size. Every run path
(hands, games, replays) compares the user policies' vectors after the run with the
ones it was given and stops with one line naming the policy that wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from cinch_sim import api
from cinch_sim.policies.loading import PolicyError

FILE = Path(__file__).with_name("params_policy.py")
WROTE = "wrote its params: they are read-only"


def test_a_play_policy_that_counts_in_its_params_stops_the_run():
    with pytest.raises(PolicyError) as info:
        api.simulate(hands=40, seed=1, play={0: f"{FILE}:count_calls"}, threads=1)
    message = str(info.value)
    assert message.startswith(f"play policy '{FILE}:count_calls' at seat 0 {WROTE}")
    assert "keep what a hand needs in scratch" in message and "\n" not in message


def test_a_bid_policy_is_named_at_its_seat():
    with pytest.raises(PolicyError, match=rf"^bid policy '.*note_a_bid' at seat 2 {WROTE}"):
        api.simulate(hands=20, seed=2, bid={2: f"{FILE}:note_a_bid"}, threads=2)


def test_games_refuse_it_too(tmp_path):
    # a strategy file whose play policy writes: compare plays whole games
    bot = tmp_path / "counter.toml"
    bot.write_text(f'base = "heuristic"\n[play]\npolicy = "{FILE}:count_calls"\n')
    with pytest.raises(PolicyError, match=WROTE):
        api.compare(str(bot), "heuristic", games=4, seed=3, threads=1)


def test_replays_refuse_it_too():
    # the card values' replays, each deal played again with a card exchanged: the
    # replayer checks after every hand (card_values's first pass would catch this
    # policy before them, so the replayer is driven here directly)
    from cinch_sim.engine.run import PolicySet, Replayer
    from cinch_sim.rules import Rules

    ps = PolicySet.from_specs(4, "heuristic", "heuristic", "heuristic", f"{FILE}:count_calls")
    replayer = Replayer(Rules(), ps, seed=4)
    with pytest.raises(PolicyError, match=rf"^play policy '.*count_calls' at seat 0 {WROTE}"):
        replayer.play(0, list(range(52)), maker=0, trump=0, bid=7)


def test_a_policy_that_keeps_its_count_in_scratch_is_the_same_at_any_thread_count():
    runs = [
        api.simulate(hands=600, seed=5, play={0: f"{FILE}:reads_only"}, threads=t, chunk=c)
        for t, c in ((1, 600), (2, 100))
    ]
    tables = [r.table() for r in runs]
    assert tables[0].equals(tables[1])
