"""A user policy reads and writes only its own seat's arrays: every index it makes
into obs, params, scratch and rng is checked (policies/checked.py), in its own code
and in the user functions it calls, so none reaches the next seat's state."""

from __future__ import annotations

from pathlib import Path

import pytest

from cinch_sim import api
from cinch_sim.policies.checked import checked
from cinch_sim.policies.loading import PolicyError, load_policy

FILE = Path(__file__).with_name("bounds_policy.py")
REACHES = [
    "next_seat_rng",  # predicts the next seat's random choices
    "partner_scratch",  # passes the hand to the partner
    "past_obs",
    "before_scratch",
    "own_helper",
    "module_helper",
    "closure_helper",
    "recursive_helper",  # a helper that calls itself finds its own twin
]


@pytest.mark.parametrize("name", REACHES)
def test_an_index_past_a_seats_arrays_stops_the_run(name):
    with pytest.raises(PolicyError) as info:
        api.simulate(hands=20, seed=1, play={0: f"{FILE}:{name}"}, threads=1)
    message = str(info.value)
    assert "IndexError: index is out of bounds: past the end of an array it was" in message
    assert f"play policy '{FILE}:{name}' at seat 0" in message
    assert "\n" not in message


def test_a_bid_policy_cannot_rewrite_the_next_seats_parameters():
    # Unchecked, seat 0 zeroed seat 1's heuristic bid model and seat 1 passed every
    # hand (a review's finding); now the write itself stops the run.
    with pytest.raises(PolicyError, match="index is out of bounds"):
        api.simulate(hands=50, seed=2, bid={0: f"{FILE}:next_seat_params"}, threads=1)


def test_the_last_slot_of_each_array_is_the_seats_own():
    sim = api.simulate(hands=200, seed=3, play={0: f"{FILE}:in_bounds"}, threads=1)
    assert sim.hands == 200


def test_the_loader_runs_a_twin_and_leaves_the_users_function_alone():
    from bounds_policy import own_helper

    policy = load_policy("play", f"{FILE}:own_helper")
    assert policy.func is not own_helper and policy.func is checked(own_helper)
    assert policy.func.targetoptions["boundscheck"] is True
    assert own_helper.targetoptions.get("boundscheck") is None  # as its author made it


def test_cinch_sims_own_functions_run_as_they_are():
    from cinch_sim.policies.common import random_member

    assert checked(random_member) is random_member
