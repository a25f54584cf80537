"""The heuristic's rules found for a player without a partner (cut-throat), each in a
hand-built cutthroat3 position where the play before them (the rule's slot at
0) gives the worse card and the default the better one; with a partner (the standard
game) the first two apply by default too (their slots read ``PRESET_WAY``: 2, every
player) and not at 1 (cut-throat only), and the duck stays cut-throat's. Three
players, spades trump, seat 0 the maker; the 5 of spades and the 5 of clubs are the
Pedros. Last, how a preset's own choice reaches the slots (pidro keeps 1)."""

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
    Pedro of theirs falls under it. A defender leads as before; a maker with a
    partner leads the Queen too, unless the slot is 1 (cut-throat only)."""
    hand = ("QS", "10S", "5S", "7D")
    obs = _obs(me=0, leader=0, trick=())
    assert _play(obs, hand, _params(lead_top_trump=0)) == parse_card("7D")
    assert _play(obs, hand, _params()) == parse_card("QS")
    defender = _obs(me=1, leader=1, trick=())
    assert _play(defender, hand, _params()) == parse_card("7D")
    partnership = _obs(me=0, leader=0, trick=(), variant="standard")
    assert _play(partnership, hand, _params(lead_top_trump=1)) == parse_card("7D")
    assert _play(partnership, hand, _params()) == parse_card("QS")  # PRESET_WAY: 2
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
    assert _play(partnership, hand, _params(no_empty_ruff=1)) == parse_card("7S")
    assert _play(partnership, hand, _params()) == parse_card("3C")
    assert _play(partnership, hand, _params(no_empty_ruff=2)) == parse_card("3C")


def test_a_defender_does_not_overtake_the_makers_empty_trump_lead():
    """Last to play on the maker's 8S and the 4S, holding K and 3 of spades: before he
    took the empty trick with the King; now he plays the 3, leaving the maker on lead
    to lead again, and keeps the King over the maker's remaining trumps (his Pedro
    among them). The maker himself, and a player with a partner, take it. (Last to
    play, the later ``last_duck`` lets it go too, with a partner as well: it is off
    here, to show this rule alone.)"""
    obs = _obs(me=2, leader=0, trick=("8S", "4S"))
    hand, trumps = ("KS", "3S", "6D"), ("KS", "3S")  # trumps led: he must follow
    before = _params(duck_empty_trump=0, last_duck=0)
    assert _play(obs, hand, before, trumps) == parse_card("KS")
    assert _play(obs, hand, _params(last_duck=0), trumps) == parse_card("3S")
    maker = _obs(me=0, leader=1, trick=("8S", "4S"))
    assert _play(maker, hand, _params(last_duck=0), trumps) == parse_card("KS")
    partnership = _obs(me=3, leader=0, trick=("8S", "4S", "6S"), variant="standard")
    assert _play(partnership, hand, _params(last_duck=0), trumps) == parse_card("KS")
    duck = _params(duck_empty_trump=2, last_duck=0)
    assert _play(partnership, hand, duck, trumps) == parse_card("3S")


def test_a_preset_s_own_choice_fills_the_slots_left_to_it():
    """``PolicySet.params`` puts pidro's stored ``partner_rules`` (1: the rules lost
    games there with a partner) into the two slots that read ``PRESET_WAY``; other
    presets leave them so (2), and a strategy's own setting stays. Whole hands agree:
    the default plays pidro as a strategy setting 1 does, and the standard game as
    one setting 2 does, and each unlike the other setting."""
    from cinch_sim.engine.run import PolicySet, run_chunk
    from cinch_sim.policies.hand_models import partner_rules
    from cinch_sim.policies.strategies import BUILTIN
    from cinch_sim.rules import make_rules

    def policies(**play: float) -> PolicySet:
        pol = BUILTIN["heuristic"].with_params("play", **play).policies()
        return PolicySet(*([pol[k]] * 4 for k in ("bid", "trump", "discard", "play")))

    assert partner_rules("pidro") == 1.0 and partner_rules("standard") is None
    slots = [H.P_LEAD_TOP_TRUMP, H.P_NO_EMPTY_RUFF]
    play = 3  # the kinds' order: bid, trump, discard, play
    assert (policies().params(make_rules("pidro"))[play][:4, slots] == 1.0).all()
    assert (policies().params(make_rules("standard"))[play][:4, slots] == H.PRESET_WAY).all()
    own = policies(lead_top_trump=0, no_empty_ruff=2).params(make_rules("pidro"))
    assert list(own[play][0, slots]) == [0.0, 2.0]

    def rows(ps: PolicySet, variant: str) -> np.ndarray:
        return run_chunk(make_rules(variant), ps, 5, 0, 300)[0]

    for variant, setting in (("pidro", 1.0), ("standard", 2.0)):
        default = rows(policies(), variant)
        same = policies(lead_top_trump=setting, no_empty_ruff=setting)
        other = policies(lead_top_trump=3 - setting, no_empty_ruff=3 - setting)
        assert np.array_equal(default, rows(same, variant))
        assert not np.array_equal(default, rows(other, variant))
