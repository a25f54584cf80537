"""A user policy without DEFAULT_PARAMS must not silently get all-zero parameters
where zeros change its play."""

import pytest

from cinch_sim.policies.heuristic import DEFAULT_PARAMS
from cinch_sim.policies.loading import PolicyError, load_policy


def test_a_reexported_builtin_keeps_the_builtins_defaults(tmp_path):
    f = tmp_path / "reexport_heuristic.py"
    f.write_text("from cinch_sim.policies.heuristic import heuristic_play as my_play\n")
    p = load_policy("play", f"{f}:my_play")
    assert p.params == DEFAULT_PARAMS["heuristic_play"]
    assert p.params[0] == 1.0  # trump pulling on, as in the built-in


def test_named_parameters_without_defaults_are_refused(tmp_path):
    f = tmp_path / "named_no_defaults.py"
    f.write_text(
        "from numba import njit\n"
        "from cinch_sim.bits import lowbit_index\n"
        "PARAM_NAMES = {'my_play': ('depth',)}\n"
        "@njit\n"
        "def my_play(obs, hand, legal, params, scratch, rng):\n"
        "    return lowbit_index(legal)\n"
    )
    with pytest.raises(PolicyError, match="no DEFAULT_PARAMS entry 'my_play'"):
        load_policy("play", f"{f}:my_play")
    assert load_policy("play", f"{f}:my_play", (3.0,)).params == (3.0,)  # given: fine


def test_a_policy_reading_no_parameters_loads_with_none(tmp_path):
    f = tmp_path / "plain_policy.py"
    f.write_text(
        "from numba import njit\n"
        "from cinch_sim.bits import lowbit_index\n"
        "@njit\n"
        "def my_play(obs, hand, legal, params, scratch, rng):\n"
        "    return lowbit_index(legal)\n"
    )
    assert load_policy("play", f"{f}:my_play").params == ()
