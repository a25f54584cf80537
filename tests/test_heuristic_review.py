"""The heuristic's rules from a double-dummy review of the standard game's play (20,000
hands), each in a hand-built position where the play before them (the rule's slot at 0)
gives the card the review found costly and the default the better one. Four players,
spades trump, seat 0 the maker (partner seat 2); the 5 of spades and the 5 of clubs are
the Pedros (``helpers.play_position``)."""

import numpy as np
import pytest
from helpers import play_position

from cinch_sim.cards import parse_card, to_mask
from cinch_sim.policies import heuristic as H
from cinch_sim.policies.heuristic import heuristic_play
from cinch_sim.policies.loading import load_policy


def _params(**changes: float) -> np.ndarray:
    v = load_policy("play", "heuristic").param_vector()
    for key, value in changes.items():
        v[getattr(H, "P_" + key.upper())] = value
    return v


def _play(obs, hand, params, legal=None) -> str:
    h = np.uint64(to_mask([parse_card(c) for c in hand]))
    lg = np.uint64(to_mask([parse_card(c) for c in (legal or hand)]))
    card = heuristic_play(obs, h, lg, params, np.zeros(16, np.int64), np.zeros(4, np.uint64))
    return {parse_card(c): c for c in hand}[int(card)]


def test_a_defender_last_to_play_lets_the_makers_empty_trump_trick_go():
    """Seat 3, last on the maker's 8S, his partner's 4S and the maker's partner's 6S (no
    points), holds K and 3 of spades with both Pedros unseen. Before, he took the empty
    trick with the King; now he plays the 3 and keeps the King to catch a Pedro. He
    still takes it once both Pedros are out, or when it holds 2 points. The maker, last
    on the defenders' trump trick, lets it go as well; his partner takes it."""
    hand, trumps = ("KS", "3S", "9D"), ("KS", "3S")  # trumps led: he must follow
    obs = play_position(me=3, leader=0, trick=("8S", "4S", "6S"))
    assert _play(obs, hand, _params(last_duck=0), trumps) == "KS"
    assert _play(obs, hand, _params(), trumps) == "3S"
    # 8 + 2 (Low, 1 point) + 6: one point, still let go
    assert _play(play_position(3, 0, ("8S", "2S", "6S")), hand, _params(), trumps) == "3S"
    pedros_out = play_position(3, 0, ("8S", "4S", "6S"), played=("5S", "5C", "7H", "8H"))
    assert _play(pedros_out, hand, _params(), trumps) == "KS"
    two_points = play_position(3, 0, ("JS", "TS", "6S"))  # the Jack and the Ten
    assert _play(two_points, hand, _params(), trumps) == "KS"
    maker = play_position(me=0, leader=1, trick=("8S", "4S", "6S"))  # seats 1, 2, 3
    assert _play(maker, hand, _params(), trumps) == "3S"
    partner = play_position(me=2, leader=3, trick=("8S", "4S", "6S"))  # seats 3, 0, 1
    assert _play(partner, hand, _params(), trumps) == "KS"


def test_the_maker_s_trump_lead_is_not_a_point_card_that_may_be_beaten():
    """The maker on lead with J 9 5 of spades and the 7D, the A K Q unseen: no trump is
    sure, so he leads his strongest that is not a Pedro (``lead_top_trump``). That was
    the Jack, a point the defenders' higher trumps take; now the 9. With no trump but
    the Jack besides his Pedro, the Jack it is."""
    obs = play_position(me=0, leader=0, trick=())
    assert _play(obs, ("JS", "9S", "5S", "7D"), _params(top_without_points=0)) == "JS"
    assert _play(obs, ("JS", "9S", "5S", "7D"), _params()) == "9S"
    assert _play(obs, ("JS", "5S", "7D"), _params()) == "JS"


def test_the_maker_s_partner_on_lead_draws_trumps_as_the_maker_does():
    """The maker's partner on lead with Q 9 of spades and the 7D, the A and K unseen:
    before, he led the 7D; now the Queen, his strongest trump, as the maker would. A
    defender with the same cards leads the 7D."""
    hand = ("QS", "9S", "7D")
    partner = play_position(me=2, leader=2, trick=())
    assert _play(partner, hand, _params(partner_leads_top=0)) == "7D"
    assert _play(partner, hand, _params()) == "QS"
    assert _play(play_position(me=1, leader=1, trick=()), hand, _params()) == "7D"


@pytest.mark.slow
def test_the_review_s_rules_beat_the_play_without_them():
    """20,000 duplicate games on a fresh seed (tuned on 5211, confirmed on 5212 at
    56.0% and on 5301 at 55.5%): the interval lies above 52.5%."""
    from cinch_sim.api import compare
    from cinch_sim.policies.strategies import BUILTIN

    before = (
        BUILTIN["heuristic"]
        .with_params("play", last_duck=0, top_without_points=0, partner_leads_top=0)
        .renamed("before")
    )
    s = compare("heuristic", before, games=20_000, seed=5401).summary()
    assert s["win_rate_ci"][0] > 0.525, s["win_rate_ci"]
    assert s["points_per_hand_diff_ci"][0] > 0
