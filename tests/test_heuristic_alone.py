"""The heuristic's rules for a player without a partner (cut-throat), each in a
hand-built cutthroat3 position where the play before them (the rule's slot at
0) gives the worse card and the default the better one; with a partner (the standard
game) the same position is played as before. Three players, spades trump, seat 0 the
maker; the 5 of spades and the 5 of clubs are the Pedros."""

import numpy as np
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


def _obs(me, leader, trick, variant="cutthroat3"):
    """Seat ``me`` to play in ``variant`` (``helpers.play_position``: seat 0 the maker)."""
    return play_position(me, leader, trick, variant=variant)


def _play(obs, hand, params, legal=None):
    h = np.uint64(to_mask([parse_card(c) for c in hand]))
    lg = np.uint64(to_mask([parse_card(c) for c in (legal or hand)]))
    return heuristic_play(obs, h, lg, params, np.zeros(16, np.int64), np.zeros(4, np.uint64))


def test_the_maker_alone_leads_his_strongest_trump_that_is_not_a_pedro():
    """On lead with Q 10 5 of trumps and the 7D, the A and K of spades unseen: no trump
    is sure, so before he led the 7D and kept his trumps for the others to overtake
    one by one. Now he leads the Queen: the others must follow with trumps, and a bare
    Pedro of theirs falls under it. A defender, and a maker with a partner, lead as
    before."""
    hand = ("QS", "10S", "5S", "7D")
    obs = _obs(me=0, leader=0, trick=())
    assert _play(obs, hand, _params(lead_top_trump=0)) == parse_card("7D")
    assert _play(obs, hand, _params()) == parse_card("QS")
    defender = _obs(me=1, leader=1, trick=())
    assert _play(defender, hand, _params()) == parse_card("7D")
    partnership = _obs(me=0, leader=0, trick=(), variant="standard")
    assert _play(partnership, hand, _params()) == parse_card("7D")
    # 2: with a partner too
    assert _play(partnership, hand, _params(lead_top_trump=2)) == parse_card("QS")


def test_a_trick_without_points_is_not_trumped_with_a_plain_card_in_hand():
    """Last to play, void in hearts, on the maker's 9H and the 2H (no points): the 7S
    surely wins it, so before he trumped. Now he discards the 3C and keeps the trump
    for a trick that holds a Pedro. Holding a Pedro that wins, he still takes the
    trick with it (last to play, its 5 points are banked)."""
    obs = _obs(me=2, leader=0, trick=("9H", "4H"))
    hand = ("7S", "3C", "6D")
    assert _play(obs, hand, _params(no_empty_ruff=0)) == parse_card("7S")
    assert _play(obs, hand, _params()) == parse_card("3C")
    assert _play(obs, ("5S", "3C", "6D"), _params()) == parse_card("5S")
    partnership = _obs(me=3, leader=0, trick=("9H", "4H", "8H"), variant="standard")
    assert _play(partnership, hand, _params()) == parse_card("7S")
    assert _play(partnership, hand, _params(no_empty_ruff=2)) == parse_card("3C")


def test_a_defender_does_not_overtake_the_makers_empty_trump_lead():
    """Last to play on the maker's 8S and the 4S, holding K and 3 of spades: before he
    took the empty trick with the King; now he plays the 3, leaving the maker on lead
    to lead again, and keeps the King over the maker's remaining trumps (his Pedro
    among them). The maker himself, and a player with a partner, take it."""
    obs = _obs(me=2, leader=0, trick=("8S", "4S"))
    hand, trumps = ("KS", "3S", "6D"), ("KS", "3S")  # trumps led: he must follow
    assert _play(obs, hand, _params(duck_empty_trump=0), trumps) == parse_card("KS")
    assert _play(obs, hand, _params(), trumps) == parse_card("3S")
    maker = _obs(me=0, leader=1, trick=("8S", "4S"))
    assert _play(maker, hand, _params(), trumps) == parse_card("KS")
    partnership = _obs(me=3, leader=0, trick=("8S", "4S", "6S"), variant="standard")
    assert _play(partnership, hand, _params(), trumps) == parse_card("KS")
    assert _play(partnership, hand, _params(duck_empty_trump=2), trumps) == parse_card("3S")
