"""The ``fixed`` bid and trump policies: the advised seat's chosen bid and suit,
while every other seat keeps its own policies."""

import numpy as np

from cinch_sim import layout as L
from cinch_sim.engine.run import PolicySet, run_chunk
from cinch_sim.policies.loading import load_policy
from cinch_sim.rules import Rules


def _policies(bid: int, suit: int) -> PolicySet:
    ps = PolicySet.from_specs(4)
    ps.bid[0] = load_policy("bid", "fixed", (float(bid),))
    ps.trump[0] = load_policy("trump", "fixed", (float(suit),))
    return ps


def test_the_fixed_seat_bids_and_names_what_it_is_given():
    # seat 0 is eldest (dealer 3): it bids first, so 9 is always legal; the others
    # overbid it with their own policies or pass
    out, _ = run_chunk(Rules(), _policies(9, 2), 4, 0, 2000)
    assert (out[:, L.H_BIDS] == 9).all()
    ours = out[:, L.H_MAKER] == 0
    assert 0.3 < ours.mean() < 1.0  # overbid in part of the deals
    assert (out[ours, L.H_TRUMP] == 2).all()
    assert (out[ours, L.H_BID] == 9).all()
    others = out[~ours & (out[:, L.H_MAKER] >= 0)]
    assert (others[:, L.H_BID] > 9).all()  # they had to overbid the 9


def test_an_illegal_fixed_bid_passes():
    # dealer 0: seat 0 bids last; a fixed bid of 1 is below every opening but a pass
    out, _ = run_chunk(Rules(), _policies(1, 0), 4, 0, 2000, dealer=0)
    opened = (out[:, L.H_BIDS + 1 : L.H_BIDS + 4] > 0).any(axis=1)
    assert (out[opened, L.H_BIDS] == -1).all()
    assert np.isin(out[~opened, L.H_BIDS], (1, -1)).all()


def test_fixed_named_alone_is_refused_and_a_strategy_file_sets_it(tmp_path):
    """A review found ``--bid-policy fixed`` passing out every hand and ``advise
    --bid-model fixed`` advising against seats that always pass: its bid is its
    parameter, which a name alone cannot give. Named alone it is a usage error
    (exit 2, the option named) and an API error; a strategy file that sets its
    bid plays it: every contract the strategy's seats make is that bid."""
    import pytest
    from click.testing import CliRunner

    from cinch_sim import api
    from cinch_sim.cli.main import main as cli
    from cinch_sim.policies.loading import PolicyError

    runner = CliRunner()
    for args, option in (
        (["simulate", "--hands", "50", "--bid-policy", "fixed"], "--bid-policy"),
        (["stats", "--hands", "50", "--trump-policy", "2=fixed"], "--trump-policy"),
        (["advise", "AS", "KS", "5S", "5C", "2S", "9H", "--bid-model", "fixed"], "--bid-model"),
    ):
        got = runner.invoke(cli, args)
        assert got.exit_code == 2, got.output
        assert option in got.output and "Traceback" not in got.output
    with pytest.raises(PolicyError, match="strategy file"):
        api.simulate(hands=50, bid="fixed")
    path = tmp_path / "always7.toml"
    path.write_text('[bid]\npolicy = "fixed"\nparams = { bid = 7 }\n')
    m = api.compare(str(path), "heuristic", games=2, seed=3)
    assert m.games >= 2
