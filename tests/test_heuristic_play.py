"""The heuristic's play fixes, each in a hand-built position where the version
before it (``heuristic_v1`` for issue 18's, ``heuristic_v2`` for issue 29's) plays
the worse card and the default the better one."""

import numpy as np
import pytest
from helpers import play_position

from cinch_sim import layout as L
from cinch_sim.cards import SUITS, parse_card, to_mask
from cinch_sim.policies.heuristic import heuristic_play
from cinch_sim.policies.loading import load_policy
from cinch_sim.rules import Rules

SPADES = SUITS.index("S")


def _params(name: str, **changes: float) -> np.ndarray:
    from cinch_sim.policies import heuristic as H

    v = load_policy("play", name).param_vector()
    for key, value in changes.items():
        v[getattr(H, "P_" + key.upper())] = value
    return v


def _obs(leader, trick, played, me=0, cards_left=3):
    """Seat ``me`` to play, spades trump, four players in two sides (0, 2 / 1, 3);
    ``trick`` is the cards already in the trick, led by ``leader``; ``played``
    the cards of earlier tricks (``helpers.play_position``)."""
    return play_position(me, leader, trick, played, cards_left=cards_left)


def _play(obs, hand, legal, params):
    h = np.uint64(to_mask([parse_card(c) for c in hand]))
    lg = np.uint64(to_mask([parse_card(c) for c in (legal or hand)]))
    scratch = np.zeros(16, np.int64)
    rng = np.zeros(4, np.uint64)
    return heuristic_play(obs, h, lg, params, scratch, rng)


# I play last (seat 1 led); the partner's 9S wins the trick, which holds no points
LAST_ON_PARTNERS_TRICK = dict(leader=1, trick=("7S", "9S", "6S"), played=())


def test_nothing_to_save_on_partners_sure_trick_gives_the_cheapest_card():
    obs = _obs(**LAST_ON_PARTNERS_TRICK)
    hand = ("KS", "QS", "4S")
    assert _play(obs, hand, None, _params("heuristic_v1")) == parse_card("KS")  # the leak
    assert _play(obs, hand, None, _params("heuristic")) == parse_card("4S")


def test_a_pedro_is_still_saved_on_partners_sure_trick():
    obs = _obs(**LAST_ON_PARTNERS_TRICK)
    hand = ("KS", "5C", "4S")  # the Left Pedro: partner's trick is sure, drop it there
    for name in ("heuristic_v1", "heuristic"):
        assert _play(obs, hand, None, _params(name)) == parse_card("5C")


def test_a_pedro_nobody_can_beat_is_led_to_bank_its_points():
    # every trump above the 5 has been played: my Right Pedro is the top trump left
    above = ("AS", "KS", "QS", "JS", "10S", "9S", "8S", "7S", "6S")
    obs = _obs(leader=0, trick=(), played=above)
    hand = ("5S", "3S", "9H")
    assert _play(obs, hand, None, _params("heuristic_v1")) == parse_card("9H")
    assert _play(obs, hand, None, _params("heuristic")) == parse_card("5S")


def test_partners_pedro_trick_is_covered_with_a_sure_winner():
    # the partner led his Right Pedro; the KS is unseen and may come after me:
    # my AS secures the 5 points, the 3S would leave them to the opponent after me
    obs = _obs(leader=2, trick=("5S", "4S"), played=())
    hand = ("AS", "3S", "9H")
    legal = ("AS", "3S")
    assert _play(obs, hand, legal, _params("heuristic_v1")) == parse_card("3S")
    assert _play(obs, hand, legal, _params("heuristic")) == parse_card("AS")
    # a trick without points is left to the partner
    obs = _obs(leader=2, trick=("9S", "4S"), played=())
    assert _play(obs, hand, legal, _params("heuristic")) == parse_card("3S")


@pytest.mark.parametrize("flag, expected", [(0.0, "AH"), (1.0, "7H")])
def test_side_ace_lead_waits_for_trumps_to_be_gone_when_asked(flag, expected):
    # unseen trumps could ruff the ace: with ace_needs_safe it keeps it for later (the
    # maker on lead: lead_top_trump, cut-throat's only here, would lead the 3S)
    obs = _obs(leader=0, trick=(), played=())
    hand = ("AH", "7H", "3S")
    params = _params("heuristic", ace_needs_safe=flag, lead_sure_pedro=0, pull_trumps=0,
                     lead_top_trump=1)  # fmt: skip
    assert _play(obs, hand, None, params) == parse_card(expected)
    gone = tuple(c + "S" for c in "A K Q J 10 9 8 7 6 5 4 2".split()) + ("5C",)
    obs = _obs(leader=0, trick=(), played=gone)
    assert _play(obs, hand, None, params) == parse_card("AH")  # no trump left to ruff it


# ---- the fixes of issue 29 (a double-dummy review of heuristic_v2's play)


def test_the_top_trump_is_not_dropped_on_partners_sure_trick():
    # partner's 9S wins and I play last: the AS (High) cannot be captured anyway,
    # so dropping it saves nothing and throws away a trick-winner
    obs = _obs(**LAST_ON_PARTNERS_TRICK)
    hand = ("AS", "4S", "9H")
    legal = ("AS", "4S")
    assert _play(obs, hand, legal, _params("heuristic_v2")) == parse_card("AS")  # the leak
    assert _play(obs, hand, legal, _params("heuristic")) == parse_card("4S")


def test_last_to_play_takes_the_trick_with_the_pedro():
    # seat 1 leads KH, partner 2H, seat 3 QH; I am void in hearts and last: the 4S
    # takes it, but so does the 5S, whose 5 points are banked only if it wins
    obs = _obs(leader=1, trick=("KH", "2H", "QH"), played=())
    hand = ("5S", "4S", "9D")
    assert _play(obs, hand, None, _params("heuristic_v2")) == parse_card("4S")  # the leak
    assert _play(obs, hand, None, _params("heuristic")) == parse_card("5S")


def test_no_ruff_with_a_pedro_an_opponent_after_me_may_overtake():
    # seat 3 leads 10H and I am second: seat 1 after me may hold any of the higher
    # trumps, so ruffing with the 5S risks losing it in this trick
    obs = _obs(leader=3, trick=("10H",), played=())
    assert _play(obs, ("5S", "9D"), None, _params("heuristic_v2")) == parse_card("5S")  # leak
    assert _play(obs, ("5S", "9D"), None, _params("heuristic")) == parse_card("9D")
    # a trump without points still takes the trick when it holds points
    obs = _obs(leader=3, trick=("2S",), played=())  # Low led: a point to take
    hand = ("5S", "KS", "9D")
    assert _play(obs, hand, ("5S", "KS"), _params("heuristic_v2")) == parse_card("5S")
    assert _play(obs, hand, ("5S", "KS"), _params("heuristic")) == parse_card("KS")


def test_heuristic_v2_is_the_heuristic_without_the_three_fixes():
    """And without the later rules: for a player alone (cut-throat), and the second
    review's."""
    from cinch_sim.policies import heuristic as H

    new, old = _params("heuristic"), _params("heuristic_v2")
    fixes = [H.P_KEEP_SURE_POINTS, H.P_LAST_TAKES_WITH_POINTS, H.P_NO_UNSURE_POINT_RUFF]
    assert (new[fixes] == 1).all() and new[H.P_DUCK_EMPTY_TRUMP] == 1
    assert (new[[H.P_LEAD_TOP_TRUMP, H.P_NO_EMPTY_RUFF]] == H.PRESET_WAY).all()
    fixes += [H.P_LEAD_TOP_TRUMP, H.P_NO_EMPTY_RUFF, H.P_DUCK_EMPTY_TRUMP]
    review = [H.P_LAST_DUCK, H.P_LAST_DUCK_POINTS, H.P_TOP_WITHOUT_POINTS, H.P_PARTNER_LEADS_TOP]
    assert list(new[review]) == [2, 1, 1, 1]  # the second review's rules (their own test)
    fixes += review
    assert (old[fixes] == 0).all()
    rest = np.ones(len(new), bool)
    rest[fixes] = False
    assert (new[rest] == old[rest]).all()


def test_the_default_bids_with_a_smaller_margin_than_v1():
    from cinch_sim.policies.heuristic import B_MARGIN

    new = load_policy("bid", "heuristic").params[B_MARGIN]
    old = load_policy("bid", "heuristic_v1").params[B_MARGIN]
    assert (old, new) == (2.0, 1.0)


def test_the_heuristic_reads_card_points_from_the_rules():
    """On the partner's sure trick it drops its most valuable card: the Right Pedro
    (5S) under the standard table, the 10 (TS) where the rules give the Game 10
    points and the Pedro 1 (a made-up table: the point table is data, not code)."""
    obs = _obs(**LAST_ON_PARTNERS_TRICK)
    hand = ("TS", "5S", "4S")
    assert _play(obs, hand, None, _params("heuristic")) == parse_card("5S")
    rules = Rules(point_cards=(("jack", "J", 1), ("game", "T", 10), ("right_pedro", "5", 1)))
    obs[L.O_RULES : L.O_RULES + L.R_LEN] = rules.to_array()
    assert _play(obs, hand, None, _params("heuristic")) == parse_card("TS")


@pytest.mark.slow
def test_the_fixes_beat_heuristic_v2_over_20000_duplicate_games():
    """A fresh seed (the fixes were tried on seed 101; seeds 7001 and 7002 gave 54.4%
    and 54.6%): the default's win rate's 95% interval lies above 52.5%."""
    from cinch_sim.api import compare

    s = compare("heuristic", "heuristic_v2", games=20_000, seed=7003).summary()
    assert s["win_rate_ci"][0] > 0.525, s["win_rate_ci"]
    assert s["points_per_hand_diff_ci"][0] > 0
