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


DIGEST = f"{Path(__file__).parent / 'digest_policy.py'}:digest_play"


def _expected_plays(rules, out, trace, seats):
    """Replay each hand from its trace; at every decision of one of ``seats`` with a
    choice, work the history fields out from the public record and the seat's own
    discards, and yield (the card the digest policy should play, the card played)."""
    import numpy as np
    from digest_policy import digest, pick

    from cinch_sim.solver import moves
    from cinch_sim.solver import position as Q

    ra = rules.to_array()
    for row, tr in zip(out, trace, strict=True):
        if row[L.H_MAKER] < 0:
            continue
        pos, plays = Q.from_trace(rules, row, tr)
        trump = int(row[L.H_TRUMP])
        left = (trump ^ 1) * 13 + 3
        tmask = (0x1FFF << (13 * trump)) | (1 << left)
        voids = np.zeros(L.MAX_PLAYERS, np.int64)
        taken = np.zeros(L.MAX_TEAMS, np.int64)
        led = None
        n_in_trick = 0
        for seat, card in plays:
            legal = int(moves.legal_mask(pos, ra))
            if seat in seats and legal & (legal - 1):
                known = tr[L.T_ROBBER_DISCARD] if tr[L.T_ROBBER] == seat else tr[L.T_DISCARD + seat]
                h = digest(voids, taken, np.int64(known), ra)
                yield int(pick(np.uint64(legal), np.uint64(h))), card
            if n_in_trick == 0:
                led = card
            else:
                led_trump = (tmask >> led) & 1
                suit_led = tmask if led_trump else (0x1FFF << (13 * (led // 13))) & ~tmask
                strict = rules.follow_rule == "strict"
                if not (suit_led >> card) & 1 and (strict or not (tmask >> card) & 1):
                    voids[seat] |= 1 << (L.VOID_TRUMP if led_trump else led // 13)
            trick_before = int(pos[Q.P_TAKEN]), int(pos[Q.P_TAKEN + 1])
            assert moves.play(pos, ra, card)
            n_in_trick += 1
            if (int(pos[Q.P_TAKEN]), int(pos[Q.P_TAKEN + 1])) != trick_before:
                taken[: rules.teams] = pos[Q.P_TAKEN : Q.P_TAKEN + rules.teams]
                n_in_trick = 0


@pytest.mark.parametrize(
    "options",
    [{}, {"follow_rule": "strict"}, {"robber": "dealer"}, {"discards_face_up": True}],
    ids=["standard", "strict", "dealer-robs", "face-up"],
)
def test_the_history_fields_follow_the_public_record(options):
    """O_VOIDS, O_TAKEN, O_KNOWN_OUT and O_RULES, as the digest policy is shown them
    at every decision, equal what the hand's record says they must be: a wrong
    field would make the policy's hash pick another card."""
    rules = Rules(**options)
    ps = PolicySet.from_specs(4, play={0: DIGEST, 1: "heuristic", 2: DIGEST, 3: "greedy"})
    out, trace = run_chunk(rules, ps, 5, 0, 300, trace=True)
    pairs = list(_expected_plays(rules, out, trace, seats=(0, 2)))
    assert len(pairs) > 1500
    wrong = [p for p in pairs if p[0] != p[1]]
    assert not wrong, f"{len(wrong)} of {len(pairs)} decisions saw other history fields"


CALLER = f"{Path(__file__).parent / 'calls_policy.py'}:caller"


@pytest.mark.parametrize("variant", ["standard", "auction", "cutthroat3", "cutthroat6"])
def test_a_bid_policy_sees_the_calls_made_before_it(variant):
    """``O_N_CALLS``/``O_CALLS`` agree with the bids per seat, the high bid and the
    order of bidding (the caller returns an illegal bid, raised as a PolicyError,
    on the first disagreement); and an auction does get past one round."""
    import numpy as np

    from cinch_sim.rules import make_rules

    rules = make_rules(variant)
    ps = PolicySet.from_specs(rules.players, CALLER, "random", "random", "random")
    out, trace = run_chunk(rules, ps, 23, 0, 3_000, rules.players - 1, trace=True)
    calls = trace[:, L.T_N_BIDS]
    if rules.bid_rounds == 0:  # raises went round again (or a bid of the top ended it)
        assert (calls > rules.players).mean() > 0.3
        assert calls.min() == 1
    else:  # one round: everyone is asked once
        assert (calls == rules.players).all()
    assert np.isin(out[:, L.H_ERROR], [0]).all()
