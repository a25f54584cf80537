"""``dd``, double-dummy play (cinch_sim/policies/dd.py): with it at every seat the hand
follows the solver's principal line, so the solver's own review of the records finds
no card that gave anything away and the maker's side takes exactly the value of the
start of play; it is the same at any thread count, and matches refuse it."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from cinch_sim import api
from cinch_sim.checks import InputError
from cinch_sim.cli.main import main
from cinch_sim.policies.strategies import Strategy, StrategyError
from cinch_sim.rules import VARIANTS
from cinch_sim.solver.limits import require_dd


def _served() -> list[str]:
    """The presets dd plays (one deck, at most five players)."""
    out = []
    for name, rules in VARIANTS.items():
        try:
            require_dd(rules, "play")
        except InputError:
            continue
        out.append(name)
    return out


def _check_line(preset: str, hands: int, seed: int, tmp_path) -> int:
    """Every hand's solver review: dd start value = points taken, nothing lost."""
    path = tmp_path / f"{preset}.jsonl"
    api.simulate(variant=preset, hands=hands, seed=seed, play="dd", records=path)
    rep = api.solve(path)
    solved = rep.solved()
    for h in solved:
        assert h["dd_start"] == h["points"], (preset, h["line"], h["dd_start"], h["points"])
        assert not any(h["lost"]), (preset, h["line"], h["lost"])
    return len(solved)


@pytest.mark.parametrize("preset", _served())
def test_dd_play_takes_exactly_the_double_dummy_value(preset, tmp_path):
    # nine tricks (no_draw) or five seats cost 50-150 ms a hand to review: fewer hands
    hands = {"standard": 100, "no_draw": 6, "cutthroat5": 4}.get(preset, 40)
    assert _check_line(preset, hands, 5, tmp_path) >= hands // 2


@pytest.mark.slow
@pytest.mark.parametrize("preset", _served())
def test_thousands_of_dd_hands_over_the_presets(preset, tmp_path):
    """2,300 hands in all: the review costs about 65 ms a standard hand and up to 1 s
    with nine tricks or five seats."""
    hands = {"standard": 1_000, "no_draw": 30, "cutthroat5": 30}.get(preset, 150)
    assert _check_line(preset, hands, 6, tmp_path) >= hands // 2


def test_dd_gives_the_same_numbers_at_any_thread_count():
    one = api.simulate(hands=600, seed=3, play="dd", threads=1)
    two = api.simulate(hands=600, seed=3, play="dd", threads=2, chunk=100)
    assert one.by_bid().equals(two.by_bid()) and one.pedros().equals(two.pedros())


def test_dd_at_some_seats_plays_against_the_others():
    sim = api.simulate(hands=300, seed=4, play={0: "dd", 2: "dd"})
    assert sim.settings["policies"]["play"] == ["dd", "heuristic", "dd", "heuristic"]
    assert sim.counts.played == 300
    # a notebook's repr says it too, as the command line does
    assert "play dd at seats 0, 2: the double-dummy bound (every card seen)" in repr(sim)
    assert "double-dummy" not in repr(api.simulate(hands=10, seed=4))


@pytest.mark.parametrize("preset", ["cutthroat6", "two_deck"])
def test_dd_refuses_what_it_cannot_search_in_time(preset):
    with pytest.raises(InputError, match="dd cannot play"):
        api.simulate(variant=preset, hands=2, play="dd")
    # on the command line a usage error: exit 2, naming the option
    r = CliRunner().invoke(main, ["simulate", "--variant", preset, "--play-policy", "dd"])
    assert r.exit_code == 2, r.output
    assert "Invalid value for '--play-policy': dd cannot play" in r.output


def test_matches_refuse_dd():
    """From the API and from the match functions themselves (scripts/ladder.py called
    matches.ladder.ladder with every built-in, dd too, and played it)."""
    from cinch_sim.matches import compare, cutthroat, ladder

    perfect = Strategy("perfect", play="dd")
    with pytest.raises(StrategyError, match="not a player"):
        api.compare("heuristic", perfect, games=2)
    with pytest.raises(StrategyError, match="not a player"):
        api.ladder(["heuristic", "greedy", perfect], games=2)
    with pytest.raises(StrategyError, match="not a player"):
        ladder.ladder(["heuristic", "dd"], games=2)
    with pytest.raises(StrategyError, match="not a player"):
        compare.compare("dd", "heuristic", games=2)
    with pytest.raises(StrategyError, match="not a player"):
        cutthroat.cutthroat_compare("heuristic", perfect, games=3, rules=VARIANTS["cutthroat3"])


def test_the_command_line_labels_dd_and_refuses_it_in_a_match(tmp_path):
    r = CliRunner().invoke(main, ["simulate", "--hands", "200", "--play-policy", "0=dd"])
    assert r.exit_code == 0, r.output
    assert "play dd at seat 0: the double-dummy bound (every card seen), not a player" in r.output
    toml = tmp_path / "perfect.toml"
    toml.write_text('name = "perfect"\nplay = "dd"\n', encoding="utf-8")
    r = CliRunner().invoke(main, ["compare", "heuristic", str(toml), "--games", "2"])
    assert r.exit_code == 2 and "not a player" in r.output and "Traceback" not in r.output


def test_the_built_in_dd_strategy_and_the_advisor_say_what_dd_is():
    """The built-in strategy ``dd`` is refused in a match with a one-line message; the
    advisor's text under dd play says it is the double-dummy bound."""
    r = CliRunner().invoke(main, ["compare", "heuristic", "dd", "--games", "2"])
    assert r.exit_code == 2 and "not a player" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["advise", "AS KS 5S 5C 2S 9H 3D 7C JD", "--seat", "0",
                                  "--play-policy", "dd", "--max-hands", "40"])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert "note: play dd at seats 0, 1, 2, 3: the double-dummy bound" in r.output
