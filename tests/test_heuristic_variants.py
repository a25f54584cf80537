"""The heuristic reads the game it plays from the rules (issue 20): the trump order
(bowers), the point table (Sancho's 9, the Dom's 3), the left card or none; and
under the standard rules those readings are exactly docs/benchmarks.md's fixed orders."""

from pathlib import Path

import numpy as np
import pytest
from numba import njit

from cinch_sim import layout as L
from cinch_sim.cards import SUITS, parse_card, to_mask
from cinch_sim.jit.cache import refresh_user_file
from cinch_sim.policies import common
from cinch_sim.policies import heuristic as H
from cinch_sim.policies.heuristic import heuristic_play, suit_estimate
from cinch_sim.policies.loading import load_policy
from cinch_sim.policies.ranks import (
    big_point_trumps,
    card_strength,
    strongest_card,
    strongest_k_cards,
    trumps_to_keep,
    weakest_card,
)
from cinch_sim.rules import make_rules

SPADES = SUITS.index("S")
# the helper below is cached: flushed when the package's jitted sources change
refresh_user_file(Path(__file__))


def _cards(*names: str) -> np.uint64:
    return np.uint64(to_mask([parse_card(c) for c in names]))


def _obs(variant: str, trump: int = SPADES) -> tuple[np.ndarray, np.uint64, int]:
    """An observation of ``variant`` with ``trump`` named: (obs, trump mask, left card)."""
    rules = make_rules(variant)
    obs = np.zeros(L.OBS_LEN, np.int64)
    obs[L.O_RULES : L.O_RULES + L.R_LEN] = rules.to_array()  # as the kernel gives it
    obs[L.O_TRUMP] = trump
    left_rank = obs[L.O_RULES + L.R_LEFT_RANK]
    left = (trump ^ 1) * 13 + left_rank if left_rank >= 0 else -1
    tm = np.uint64(((1 << 13) - 1) << (13 * trump))
    if left >= 0:
        tm |= np.uint64(1 << left)
    obs[L.O_TRUMP_MASK] = np.int64(tm)
    obs[L.O_LEFT_CARD] = left
    return obs, tm, left


@njit(cache=True)
def _orders_disagree(obs, masks, ks, tm, trump, left):
    """How many masks the rules-driven orders and the fixed orders pick apart."""
    bad = 0
    for i in range(masks.shape[0]):
        m, k = masks[i], ks[i]
        t = m & tm
        bad += strongest_k_cards(obs, m, k, tm, left) != common.top_by_strength(m, k, tm, left)
        bad += trumps_to_keep(obs, t, k, tm, trump, left) != (
            common.top_trumps_by_keep_order(t, k, trump, left)
        )
        bad += strongest_card(obs, m, tm, left) != common.strongest(m, tm, left)
        bad += weakest_card(obs, m, tm, left) != common.weakest(m, tm, left)
    return bad


def test_standard_orders_are_the_benchmark_orders():
    """Under the standard rules the rules-driven orders pick what docs/benchmarks.md's bit
    tricks pick, on 4,000 random masks: so the standard game plays card for card
    as before (the result hashes say the same over whole hands)."""
    gen = np.random.default_rng(20)
    for trump in range(4):
        obs, tm, left = _obs("standard", trump)
        masks = gen.integers(0, 1 << 52, 1000) & gen.integers(0, 1 << 52, 1000)
        ks = gen.integers(0, 8, 1000)
        assert _orders_disagree(obs, masks.astype(np.uint64), ks, tm, trump, left) == 0


def test_bowers_rank_from_the_rules():
    """all_hands, spades trump: Right Bower (JS), Left Bower (JC), then A K Q 10 ... 2;
    the 5 of clubs is a plain card there."""
    obs, tm, left = _obs("all_hands")
    assert left == parse_card("JC")
    order = ["JS", "JC", "AS", "KS", "QS", "TS", "9S", "5S", "2S"]
    strengths = [card_strength(obs, parse_card(c), tm, left) for c in order]
    assert strengths == sorted(strengths, reverse=True)
    assert not (tm >> np.uint64(parse_card("5C"))) & np.uint64(1)
    assert strongest_k_cards(obs, _cards("AS", "JC", "JS", "KS"), 2, tm, left) == _cards("JS", "JC")


def test_the_heuristic_overtakes_the_ace_with_the_right_bower():
    """Last to play on the opponents' trick AS (seat 0), 3S, KS: the ace is High (1
    point, worth taking under catch_points 1). Under bowers the Right Bower (JS)
    beats it, so the heuristic takes the trick with it; under the standard order
    the jack cannot, and it plays its cheapest card, the 4S."""
    hand = _cards("JS", "4S")
    for variant, want in (("all_hands", "JS"), ("standard", "4S")):
        obs, tm, left = _obs(variant)
        obs[L.O_SEAT] = 3
        obs[L.O_PLAYERS] = 4
        obs[L.O_PHASE] = L.PHASE_PLAY
        obs[L.O_SEAT_TEAM : L.O_SEAT_TEAM + 4] = (0, 1, 0, 1)
        obs[L.O_CARDS_LEFT : L.O_CARDS_LEFT + 4] = 2
        obs[L.O_LEADER] = 0
        obs[L.O_TRICK_COUNT] = 3
        trick = _cards("AS", "3S", "KS")
        obs[L.O_PLAYED] = np.int64(trick)
        obs[L.O_TRICK_MASK] = np.int64(trick)
        obs[L.O_WIN_SEAT] = 0
        obs[L.O_WIN_CARD] = parse_card("AS")
        obs[L.O_LED_CARD] = parse_card("AS")
        params = load_policy("play", "heuristic").param_vector()
        # off: last to play, it would keep the Bower for a Pedro still out (one point
        # is not worth it); this test is about which card wins
        params[H.P_LAST_DUCK] = 0
        scratch = np.zeros(64, np.int64)
        rng = np.zeros(1, np.uint64)
        got = heuristic_play(obs, hand, hand, params, scratch, rng)
        assert got == parse_card(want), variant


def test_sancho_keeps_the_nine_and_counts_it_a_big_point():
    """Keeping one of A and 9 of trumps: the ace (High, 1 point) in the standard game,
    the 9 (Sancho, 9 points) in sancho; the big point trumps are the Pedros, plus
    Sancho there."""
    for variant, want in (("standard", "AS"), ("sancho", "9S")):
        obs, tm, left = _obs(variant)
        assert trumps_to_keep(obs, _cards("AS", "9S"), 1, tm, SPADES, left) == _cards(want)
    obs, tm, left = _obs("sancho")
    assert big_point_trumps(obs, tm, SPADES, left) == _cards("5S", "5C", "9S")
    obs, tm, left = _obs("dom_pedro")
    assert big_point_trumps(obs, tm, SPADES, left) == _cards("5S", "5C", "9S", "3S")


@pytest.mark.parametrize(
    "variant, want",
    [
        # A is the strongest trump (top0); 9S and 3S carry nothing; 3 trumps, a low one
        ("standard", dict(top0=1, length=3, low=1)),
        # Sancho (9S, 9 points) is the first point card outside A K Q J 10
        ("sancho", dict(top0=1, pt0=1, length=3, low=1)),
        # Dom Pedro: Sancho 9, Right Pedro 5, Left Pedro 5, then the Dom (3S) 3: pt3
        ("dom_pedro", dict(top0=1, pt0=1, pt3=1, length=3, low=1)),
        # bowers: J, the Left Bower, then A: the ace is the third strongest (top2)
        ("all_hands", dict(top2=1, length=3, low=1)),
    ],
)
def test_the_hand_features_read_the_presets_tables(variant, want):
    """What the bid model sees of 9S 3S AS with spades trump, worked out from each
    preset's trump order and point table (docs/rules.md section 3.1)."""
    obs, tm, left = _obs(variant)
    names = "top0 top1 top2 top3 top4 pt0 pt1 pt2 pt3 other length low".split()
    got = dict(zip(names, H.hand_features(obs, _cards("9S", "3S", "AS"), SPADES), strict=True))
    assert {k: int(v) for k, v in got.items() if v} == want


def test_the_estimate_weighs_each_slot_and_scales_an_unfitted_intercept():
    """sancho, 9S 3S AS in spades: intercept + Sancho's slot (``right``, the first point
    card) + the ace + 3 trumps + a low trump. A vector not fitted to the game has its
    intercept scaled by the 23 points in play; a fitted one (game_fitted 1) as given."""
    obs, tm, left = _obs("sancho")
    p = load_policy("bid", "heuristic").param_vector()
    hand = _cards("9S", "3S", "AS")
    rest = p[H.B_RIGHT] + p[H.B_ACE] + 3 * p[H.B_LENGTH] + p[H.B_LOW]
    assert suit_estimate(obs, hand, SPADES, p) == pytest.approx(p[H.B_INTERCEPT] * 23 / 14 + rest)
    p[H.B_GAME_FITTED] = 1.0
    assert suit_estimate(obs, hand, SPADES, p) == pytest.approx(p[H.B_INTERCEPT] + rest)


def test_without_a_left_card_the_left_slot_counts_nothing():
    """sancho_classic has no Left Pedro: the 5 of clubs is a plain card, and the
    estimate for 5C alone is the intercept and nothing more. The intercept scales
    with the 18 points in play and, with no draw, the 24 of 52 cards dealt."""
    obs, tm, left = _obs("sancho_classic")
    assert left == -1 and int(tm).bit_count() == 13
    p = load_policy("bid", "heuristic").param_vector()
    got = suit_estimate(obs, _cards("5C"), SPADES, p)
    assert got == pytest.approx(p[H.B_INTERCEPT] * 18 / 14 * 24 / 52)


def test_a_player_without_a_partner_expects_less_from_the_rest():
    """cutthroat3 (each alone, 14 points, a draw): the intercept is _ALONE of the
    partnership's, and the lowest opening bid shrinks with it."""
    obs, tm, left = _obs("cutthroat3")
    p = load_policy("bid", "heuristic").param_vector()
    got = suit_estimate(obs, _cards("4C"), SPADES, p)
    assert got == pytest.approx(p[H.B_INTERCEPT] * H._ALONE)


def test_both_pedros_add_the_pair_weight_to_each_alone():
    """cutthroat3 with the preset's model, spades trump, the other cards fixed (AS 2S
    8D): the Right Pedro (5S) adds its ``right`` weight and one trump's ``length``,
    the Left (5C) its ``left`` and a trump, both together both of those plus ``pair``.
    The fitted pair weight is negative there (two Pedros are worth less than the sum
    of each alone, the second holding the place of a higher trump)."""
    from cinch_sim.policies.hand_models import with_preset_model

    rules = make_rules("cutthroat3")
    obs, tm, left = _obs("cutthroat3")
    p = load_policy("bid", "heuristic").param_vector()
    p = with_preset_model(p, rules)
    base = ("AS", "2S", "8D")
    none = suit_estimate(obs, _cards(*base), SPADES, p)
    right = suit_estimate(obs, _cards(*base, "5S"), SPADES, p)
    left_only = suit_estimate(obs, _cards(*base, "5C"), SPADES, p)
    both = suit_estimate(obs, _cards(*base, "5S", "5C"), SPADES, p)
    trump = p[H.B_LENGTH]
    assert right == pytest.approx(none + p[H.B_RIGHT] + trump)
    assert left_only == pytest.approx(none + p[H.B_LEFT] + trump)
    assert both == pytest.approx(none + p[H.B_RIGHT] + p[H.B_LEFT] + 2 * trump + p[H.B_PAIR])
    assert p[H.B_PAIR] < -0.5
    # the standard game's tuned weights have none: both are the sum of each alone
    obs, tm, left = _obs("standard")
    q = load_policy("bid", "heuristic").param_vector()
    assert q[H.B_PAIR] == 0.0
    plain = suit_estimate(obs, _cards(*base), SPADES, q)
    sum_alone = (
        suit_estimate(obs, _cards(*base, "5S"), SPADES, q)
        + suit_estimate(obs, _cards(*base, "5C"), SPADES, q)
        - plain
    )
    assert suit_estimate(obs, _cards(*base, "5S", "5C"), SPADES, q) == pytest.approx(sum_alone)
