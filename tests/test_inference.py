"""Inference from the auction (policies/inference.py, issue 31 part 1): the model reads
the heuristic's calls back exactly, the true hands explain the calls, and PIMC's
weighted deals match the exact posterior worked out by enumeration."""

from pathlib import Path

import numpy as np
import pytest

from cinch_sim import layout as L
from cinch_sim.engine.run import Conditions, PolicySet, _kernel, run_chunk
from cinch_sim.policies import pimc, registry
from cinch_sim.policies.hand_models import with_preset_model
from cinch_sim.policies.heuristic import DEFAULT_PARAMS as H_DEFAULTS
from cinch_sim.policies.loading import load_policy
from cinch_sim.rules import VARIANTS, Rules

CHECKS = Path(__file__).parent / "inference_check_policy.py"


def _spec(name: str) -> str:
    return f"{CHECKS}:{name}"


def _run(rules: Rules, ps: PolicySet, hands: int, seed: int, prepare=None) -> np.ndarray:
    """Play ``hands`` hands on the kernel itself and return the parameter array after
    them: the check policies count into their own vectors (``prepare(params)`` first)."""
    table, ids, params = ps.kernel_arrays(rules, True)
    if prepare is not None:
        prepare(params)
    out = np.empty((hands, L.row_len(rules.decks)), np.int32)
    tr = np.empty((hands, L.trace_len(rules.decks)), np.int64)
    setup = Conditions().to_setup(rules.players - 1, 0)
    _kernel(rules)(rules.to_array(), setup, np.uint64(seed), np.int64(0), np.int64(hands),
                   table, ids, params, out, tr)  # fmt: skip
    bad = out[:, L.H_ERROR] != 0
    assert not bad.any(), f"check {out[bad, L.H_ERROR_VALUE][0]} failed (the policy's choice)"
    return params


def _models(rules: Rules, margin_shift: float = 0.0):
    """Put the preset's hand models into each check policy's model slots, as
    PolicySet.params does for pimc itself (the check policies are not built-ins)."""

    def prepare(params):
        for s in range(rules.players):
            for at in registry.PIMC_HAND_MODELS:
                params[3, s, at:] = with_preset_model(params[3, s, at:], rules)
            params[3, s, pimc.P_BID_MODEL + 10] += margin_shift  # heuristic.B_MARGIN

    return prepare


def test_pimc_keeps_its_models_where_the_registry_says():
    """The registry names pimc's model slots without importing numba; they agree, and
    PolicySet.params gives pimc's models the preset's fitted weights, as it gives the
    heuristic's own bid and trump vectors."""
    assert registry.PIMC_HAND_MODELS == (pimc.P_BID_MODEL, pimc.P_TRUMP_MODEL)
    rules = VARIANTS["sancho"]
    ps = PolicySet.from_specs(4, play="pimc_infer")
    a = ps.params(rules)
    n = pimc.MODEL_LEN
    np.testing.assert_array_equal(a[3, 0, pimc.P_BID_MODEL : pimc.P_BID_MODEL + n], a[0, 0, :n])
    np.testing.assert_array_equal(a[3, 0, pimc.P_TRUMP_MODEL : pimc.P_TRUMP_MODEL + n], a[1, 0, :n])
    assert a[0, 0, 0] != H_DEFAULTS["heuristic_bid"][0]  # sancho's model is its own


@pytest.mark.parametrize(
    "variant, raising",
    [("standard", None), ("auction", None), ("auction", 1), ("sancho", None),
     ("sancho_classic", None), ("sancho_classic", -1), ("cutthroat3", None), ("heasly", None)],
)  # fmt: skip
def test_call_bounds_read_every_heuristic_call_back(variant, raising):
    """At every call of 300 hands the heuristic bidder's estimate less its margin lies
    in the interval ``call_bounds`` gives the call it made, and in no other legal
    call's (check_bid stops the hand on a mismatch); in an open auction also for a
    bidder that raises by the least (``raise`` 1, and sancho_classic's own: a bid says
    only "at least this") and for one that bids its own at once (-1). None: the
    preset's way."""
    from cinch_sim.policies.heuristic import B_RAISE

    rules = VARIANTS[variant]
    ps = PolicySet.from_specs(rules.players)
    for s in range(rules.players):
        vec = list(ps.params(rules)[0, s])
        if raising is not None:
            vec[B_RAISE] = raising
        ps.bid[s] = load_policy("bid", _spec("check_bid"), tuple(vec))
    out, _ = run_chunk(rules, ps, 7, 0, 300)
    assert (out[:, L.H_MAKER] >= 0).sum() > 100


@pytest.mark.parametrize("variant", ["no_draw", "sancho_classic", "dom_pedro_classic"])
def test_the_true_hands_explain_the_calls(variant):
    """Without a draw a seat's dealt hand is what it holds and has played: scored with
    it under the exact model (noise 0), its own calls and trump have likelihood 1 at
    every decision of 200 hands. With the margin misread by one point they do not."""
    rules = VARIANTS[variant]
    vec = pimc.DEFAULT_PARAMS["pimc_infer_play"]
    ps = PolicySet.from_specs(rules.players)
    for s in range(rules.players):
        ps.play[s] = load_policy("play", _spec("check_own_calls"), vec)
    from inference_check_policy import BAD, COUNT

    params = _run(rules, ps, 200, 5, _models(rules))
    assert params[3, : rules.players, COUNT].sum() > 2000
    assert params[3, : rules.players, BAD].sum() == 0
    params = _run(rules, ps, 200, 5, _models(rules, margin_shift=1.0))
    assert params[3, : rules.players, BAD].sum() > 100


def test_weighted_deals_match_the_exact_posterior():
    """In 12 hands of the game without a draw, at seat 0's decision with two cards left,
    the probability that each unseen card lies in each other hand, from 20,000 deals
    weighted by the calls (noise 1), agrees with the exact posterior over every
    deal of the unseen cards to within 5 standard errors of the weighted estimate
    (its effective sample size). The calls move that posterior away from the prior
    by at least 0.02 in most hands and 0.05 in some: the test would see weights that
    did nothing."""
    from inference_check_policy import COUNT, ESS, SHIFT, Z

    rules = VARIANTS["no_draw"]
    vec = list(pimc.DEFAULT_PARAMS["pimc_infer_play"])
    zs, shifts = [], []
    for seed in range(24):  # the first 12 hands that reach the check (most do)
        ps = PolicySet.from_specs(rules.players)
        ps.play[0] = load_policy("play", _spec("check_posterior"), tuple(vec))
        params = _run(rules, ps, 1, 100 + seed, _models(rules))
        if params[3, 0, COUNT] == 0:
            continue
        assert params[3, 0, ESS] > 500
        zs.append(params[3, 0, Z])
        shifts.append(params[3, 0, SHIFT])
        if len(zs) == 12:
            break
    assert len(zs) == 12
    assert max(zs) < 5.0, zs
    # no_draw bids with the standard weights now, whose calls say less of the hands
    # than its fitted model's did (0.05 in most hands then)
    assert sum(s > 0.02 for s in shifts) >= len(shifts) // 2, shifts
    assert max(shifts) > 0.05, shifts


def test_more_deals_are_drawn_where_the_weights_fall_on_few():
    """Under the exact model (noise 0) the calls rule out most deals drawn, and the
    weights of the ``candidates`` drawn for each deal to solve often fall on a few:
    the player would solve fewer than 8 distinct deals of its 32. Drawing more while
    the effective sample is short (``max_candidates``) makes that rare."""
    from inference_check_policy import COUNT, FEW_FIXED, FEW_MORE

    rules = VARIANTS["standard"]
    vec = list(pimc.DEFAULT_PARAMS["pimc_infer_play"])
    vec[pimc.P_NOISE] = 0.0
    ps = PolicySet.from_specs(rules.players)
    ps.play[0] = load_policy("play", _spec("check_resampling"), tuple(vec))
    params = _run(rules, ps, 40, 7, _models(rules))
    decisions, few_fixed, few_more = params[3, 0, [COUNT, FEW_FIXED, FEW_MORE]]
    assert decisions > 100
    assert few_fixed > 0.1 * decisions
    assert few_more < few_fixed / 3


@pytest.mark.slow  # 1,000 hands a preset with a count of the deals at every decision
@pytest.mark.parametrize("variant", ["standard", "cutthroat3", "heasly"])
def test_enumerated_deals_are_exactly_the_possible_ones(variant):
    """Where ``enumerate_deals`` finds at most 48 deals of the unseen cards (late in a
    hand), each one meets every constraint and appears once, and every deal
    ``deal_unseen`` draws is one of them (tests/pimc_check_policy.py stops the hand
    otherwise); 600 draws find nearly all of them."""
    from pimc_check_policy import COVERED, DEALS, SMALL

    rules = VARIANTS[variant]
    vec = H_DEFAULTS["heuristic_play"]
    ps = PolicySet.from_specs(rules.players)
    spec = f"{Path(__file__).parent / 'pimc_check_policy.py'}:check_enumeration"
    for s in range(rules.players):
        ps.play[s] = load_policy("play", spec, vec)
    params = _run(rules, ps, 1000, 9)
    small = params[3, : rules.players, SMALL].sum()
    deals = params[3, : rules.players, DEALS].sum()
    assert small >= 10, small
    assert params[3, : rules.players, COVERED].sum() >= 0.9 * deals


@pytest.mark.slow  # its check policy compiles pimc_values (seconds)
def test_exact_endgames_solve_every_possible_deal_once():
    """With ``exact`` 32 and few deals possible, pimc solves each of them once and its
    card values are the same whatever its random stream: no sampling error left
    (tests/pimc_check_policy.py: check_exact stops the hand otherwise)."""
    from pimc_check_policy import EXACT_CHECKED

    rules = VARIANTS["standard"]
    ps = PolicySet.from_specs(rules.players)
    spec = f"{Path(__file__).parent / 'pimc_check_policy.py'}:check_exact"
    for s in range(rules.players):
        ps.play[s] = load_policy("play", spec, H_DEFAULTS["heuristic_play"])
    params = _run(rules, ps, 400, 4)
    assert params[3, : rules.players, EXACT_CHECKED].sum() >= 5


@pytest.mark.parametrize("variant", ["standard", "auction", "cutthroat3", "widow"])
def test_the_dealt_hands_explain_the_calls_with_a_draw(variant):
    """With a draw, each seat's dealt hand kept from its bid: its calls and trump have
    likelihood 1 under the exact model at every decision of 200 hands."""
    from inference_check_policy import BAD, COUNT

    rules = VARIANTS[variant]
    vec = pimc.DEFAULT_PARAMS["pimc_infer_play"]
    ps = PolicySet.from_specs(rules.players)
    for s in range(rules.players):
        ps.bid[s] = load_policy("bid", _spec("remember_bid"), tuple(ps.params(rules)[0, s]))
        ps.play[s] = load_policy("play", _spec("check_remembered_calls"), vec)
    params = _run(rules, ps, 200, 6, _models(rules))
    assert params[3, : rules.players, COUNT].sum() > 2000
    assert params[3, : rules.players, BAD].sum() == 0
