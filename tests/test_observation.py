"""What a play policy is shown: the trick's public state, whole and consistent,
every time it is asked (the kernel writes it only then)."""

from pathlib import Path

import pytest

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.rules import Rules

OBSERVER = f"{Path(__file__).parent / 'observing_policy.py'}:observer"


@pytest.mark.parametrize("follow_rule", ["may_trump", "strict"])
@pytest.mark.parametrize(
    "play",
    [OBSERVER, ["greedy", OBSERVER, "random", "heuristic"]],
    ids=["every-seat", "among-built-ins"],
)
def test_a_play_policy_sees_a_consistent_trick(follow_rule, play):
    # on the first inconsistency the observer returns an illegal card (100 + the
    # number of the failed check), which run_chunk raises as a PolicyError
    ps = PolicySet.from_specs(4, "simple", "simple", "simple", play)
    # limit_discards: the stock always suffices, so every seat plays every trick
    rules = Rules(follow_rule=follow_rule, shortage="limit_discards")
    out, _ = run_chunk(rules, ps, 17, 0, 20_000)
    assert (out[:, L.H_N_TRICKS] == 6).sum() > 15_000  # the hands were played out
    assert not out[:, L.H_SHORTAGE].any()
