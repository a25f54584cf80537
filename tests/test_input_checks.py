"""Every input checked (issue 17, "Input" 10-13 and 15): what cannot be honoured is
refused, on the command line as a usage error (exit 2, one ``Error:`` line naming the
option, no traceback) and from Python as a ValueError naming the argument.

- every integer rule option has a range (no OverflowError from a huge ``target``);
- counts the kernel cannot number and seeds outside 0..2^64-1 are refused, not
  run until interrupted or reduced mod 2^64;
- non-finite strategy parameters are refused naming the parameter;
- ``advise --bids 0:0`` is not a pass; a seat that is not an ASCII number is named;
- an illegal policy return is shown whole (64 bits), not cut to 32;
- ``compare --games 2`` says there are too few games for an interval;
- the card readers take exactly what the record format allows;
- an option without meaning in the rules it is given (``left_bower_points`` in the
  standard game) is refused, by the CLI and by the referee.
"""

from __future__ import annotations

import textwrap
from inspect import signature

import pytest
from click.testing import CliRunner
from records_cases import base_hand

from cinch_sim import api
from cinch_sim.cards import CardError, parse_card, parse_hand
from cinch_sim.cli.main import main
from cinch_sim.policies.loading import PolicyError
from cinch_sim.policies.strategies import BUILTIN, StrategyError, resolve_strategy
from cinch_sim.records.io import referee_records
from cinch_sim.rules import Rules, RulesError, make_rules

_APART = {"mix_stderr": False} if "mix_stderr" in signature(CliRunner).parameters else {}
HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"
HUGE = "99999999999999999999999"

# each command with the least work that still reads --rule
RUNS = {
    "simulate": ["simulate", "--hands", "10"],
    "stats": ["stats", "--hands", "10"],
    "compare": ["compare", "greedy", "random", "--games", "2"],
    "advise": ["advise", HAND, "--seat", "2", "--max-hands", "100"],
    "ladder": ["ladder", "greedy", "random", "--games", "2"],
    "report": ["report", "--hands", "1000", "--games", "2"],
}


def invoke(*args: str):
    return CliRunner(**_APART).invoke(main, list(args))


def usage_error(args: list[str], option: str) -> str:
    """Run the CLI; assert a usage error naming ``option``; return the Error line."""
    res = invoke(*args)
    out = res.output
    assert res.exit_code == 2, (args, out)
    assert "Traceback" not in out, (args, out)
    errors = [ln for ln in out.splitlines() if ln.startswith("Error: ")]
    assert len(errors) == 1, (args, out)
    assert f"'{option}'" in errors[0], (args, out)
    assert res.stdout == "", (args, out)  # nothing ran
    return errors[0]


# ------------------------------------------------------------- 10: rule ranges
@pytest.mark.parametrize("command", list(RUNS))
@pytest.mark.parametrize("option", ["target", "min_score_loss"])
def test_a_huge_rule_value_is_a_usage_error_in_every_command(command, option):
    line = usage_error([*RUNS[command], "--rule", f"{option}={HUGE}"], "--rule")
    assert option in line and "OverflowError" not in line


@pytest.mark.parametrize(
    "option, bad, good, bounds",
    [
        ("target", [0, 10_001, 10**23, -(10**23)], [1, 10_000], "1 to 10,000"),
        ("min_score_loss", [0, 10_001, 10**23], [1, 10_000, None], "1 to 10,000"),
        ("bid_min", [0, 15, 63, 10**23], [1, 14], "1 to bid_max (14)"),
        ("bid_max", [0, 15, 63, 10**23], [1, 14], "bid_min (1) to 14"),
    ],
)
def test_every_integer_option_has_a_range(option, bad, good, bounds):
    for value in bad:
        with pytest.raises(RulesError, match=f"^{option}="):
            make_rules(options={option: value})
        with pytest.raises(RulesError, match=f"^{option}="):
            make_rules(options={option: str(value)})  # as typed after --rule
        with pytest.raises(RulesError, match=f"^{option}="):
            Rules(**{option: value})
        with pytest.raises(ValueError, match=f"^rules: {option}="):
            api.simulate(hands=10, rules={option: value})
    for value in good:
        assert getattr(make_rules(options={option: value}), option) == value
    with pytest.raises(RulesError) as info:  # the message says what is allowed
        make_rules(options={option: 10**23})
    assert bounds in str(info.value)


@pytest.mark.parametrize("text", ["٥", "５", "4_2", "٤٢"])  # int() reads them all
def test_rule_numbers_are_plain_decimal(text):
    with pytest.raises(RulesError, match="^target="):
        make_rules(options={"target": text})


def test_a_rule_field_of_the_wrong_type_is_refused_not_a_type_error():
    for value in ("51", 51.0, True, None):
        with pytest.raises(RulesError, match="^target="):
            Rules(target=value)


# --------------------------------------------------------- 11: counts and seeds
@pytest.mark.parametrize(
    "args, option",
    [
        (["simulate", "--hands", str(10**23)], "--hands"),
        (["stats", "--hands", str(10**23)], "--hands"),
        (["simulate", "--hands", str(2**62 + 1)], "--hands"),
        (["report", "--hands", str(10**23)], "--hands"),
        (["compare", "greedy", "random", "--games", str(10**20)], "--games"),
        (["ladder", "greedy", "random", "--games", str(10**20)], "--games"),
        (["report", "--games", str(10**20)], "--games"),
        (["advise", HAND, "--seat", "2", "--max-hands", str(10**23)], "--max-hands"),
        (["simulate", "--hands", "10", "--seed", str(2**64)], "--seed"),
        (["simulate", "--hands", "10", "--seed", "-1"], "--seed"),
        (["simulate", "--hands", "10", "--seed", str(-(2**64))], "--seed"),
        (["stats", "--hands", "10", "--seed", str(2**64)], "--seed"),
        (["compare", "greedy", "random", "--games", "2", "--seed", str(2**64)], "--seed"),
        (["ladder", "greedy", "random", "--games", "2", "--seed", "-1"], "--seed"),
        (["report", "--seed", str(2**64)], "--seed"),
        (["advise", HAND, "--seat", "2", "--seed", str(2**64)], "--seed"),
    ],
    ids=lambda x: " ".join(x) if isinstance(x, list) else x,
)
def test_counts_and_seeds_that_cannot_be_honoured_are_usage_errors(args, option):
    usage_error(args, option)


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: api.simulate(hands=10**23), "hands"),
        (lambda: api.stats(hands=2**62 + 1), "hands"),
        (lambda: api.simulate(hands=10, seed=2**64), "seed"),
        (lambda: api.simulate(hands=10, seed=-1), "seed"),
        (lambda: api.simulate(hands=10, seed=-(2**64)), "seed"),
        (lambda: api.compare("greedy", "random", games=10**20), "games"),
        (lambda: api.compare("greedy", "random", games=2, seed=2**64), "seed"),
        (lambda: api.ladder(["greedy", "random"], games=10**20), "games"),
        (lambda: api.ladder(["greedy", "random"], games=2, seed=-1), "seed"),
        (lambda: api.report(hands=10**23), "hands"),
        (lambda: api.report(games=10**20), "games"),
        (lambda: api.report(seed=2**64), "seed"),
        (lambda: api.advise(HAND, seat=2, max_hands=10**23), "max_hands"),
        (lambda: api.advise(HAND, seat=2, seed=-1), "seed"),
        # a game's length, checked before a folder is made or a game played
        (lambda: api.compare("greedy", "random", games=2, max_hands=2.0), "max_hands"),
        (lambda: api.compare("greedy", "random", games=2, max_hands=0), "max_hands"),
        (lambda: api.compare("greedy", "random", games=2, max_hands=70_000), "max_hands"),
        (lambda: api.ladder(["greedy", "random"], games=2, max_hands=True), "max_hands"),
        # which side of a match, which strategy of a ladder
        (lambda: api.compare("greedy", "nope", games=2), "b"),
        (lambda: api.compare(5, "greedy", games=2), "a"),
        (lambda: api.ladder(["greedy", "nope"], games=2), r"strategies\[1\]"),
        (lambda: api.stats(hands=10, min_hands="5"), "min_hands"),
        (lambda: api.stats(hands=10, min_hands=2.5), "min_hands"),
        (lambda: api.stats(hands=10, by=5), "by"),
        # paths, flags and callbacks: refused before any work, not deep in pathlib
        (lambda: api.simulate(hands=10, save=123), "save"),
        (lambda: api.simulate(hands=10, records=123), "records"),
        (lambda: api.compare("greedy", "random", games=2, records=[1]), "records"),
        (lambda: api.stats(hands=10, hand_data="/nonexistent/x.parquet"), "hand_data"),
        (lambda: api.simulate(hands=10, progress=5), "progress"),
        (lambda: api.simulate(hands=10, on_chunk=5), "on_chunk"),
        (lambda: api.simulate(hands=10, save="unused", force="yes"), "force"),
    ],
)
def test_the_api_refuses_them_naming_the_argument(call, name):
    with pytest.raises(ValueError, match=f"^{name}: "):
        call()


def test_every_seed_is_its_own_run_and_none_is_reduced():
    with pytest.raises(ValueError, match="^seed: 18446744073709551616 is out of range"):
        api.simulate(hands=200, seed=2**64, play="random")  # was the run of seed 0
    top = api.simulate(hands=200, seed=2**64 - 1, play="random")
    zero = api.simulate(hands=200, seed=0, play="random")
    assert top.settings["seed"] == 2**64 - 1
    assert not top.by_bid().equals(zero.by_bid())


# ------------------------------------------------------ 12: strategy parameters
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e309", "-1e309"])
@pytest.mark.parametrize("form", ["named", "list"])
def test_non_finite_strategy_parameters_are_refused_naming_the_parameter(tmp_path, value, form):
    params = f"{{ intercept = {value} }}" if form == "named" else f"[{value}]"
    path = tmp_path / "odd.toml"
    path.write_text(f'[trump]\npolicy = "heuristic"\nparams = {params}\n')
    with pytest.raises(StrategyError) as info:
        resolve_strategy(str(path))
    message = str(info.value)
    assert str(path) in message and "trump" in message
    assert ("intercept" if form == "named" else "params[0]") in message
    line = usage_error(["compare", "greedy", str(path), "--games", "2"], "STRATEGY_B")
    assert "intercept" in line or "params[0]" in line


def test_non_finite_parameters_from_python_are_refused():
    with pytest.raises(StrategyError, match="margin"):
        BUILTIN["heuristic"].with_params("bid", margin=float("nan"))
    with pytest.raises(StrategyError, match="cap"):
        BUILTIN["heuristic"].with_params("bid", cap=10**400)


def test_a_huge_whole_parameter_is_refused_not_an_overflow(tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(f'[bid]\npolicy = "heuristic"\nparams = {{ cap = {10**400} }}\n')
    with pytest.raises(StrategyError, match="cap"):
        resolve_strategy(str(path))


# ----------------------------------------------------- 12: bids, seats, returns
@pytest.mark.parametrize("bids", ["0:0", "0:-1", "0:pass,1:0", "0:-5"])
def test_a_bid_of_zero_is_not_a_pass(bids):
    line = usage_error(["advise", HAND, "--seat", "2", "--bids", bids], "--bids")
    assert "1..14" in line and "pass" in line
    with pytest.raises(ValueError, match="bids"):
        api.advise(HAND, seat=2, bids=bids, max_hands=100)


def test_a_pass_is_a_word_or_none():
    with pytest.raises(ValueError, match="1..14, or pass"):
        api.advise(HAND, seat=2, bids=[(0, 0)], max_hands=100)
    # (the heuristic bidder, which reads the bids, never passes as eldest hand)
    passes = [api.advise(HAND, seat=3, bids=b, max_hands=200, seed=3) for b in
              ("0:7,1:pass,2:p", "0:7,1:-,2:none", [(0, 7), (1, None), (2, "pass")])]  # fmt: skip
    assert passes[0].hands > 0
    assert all(a.table().equals(passes[0].table()) for a in passes[1:])


@pytest.mark.parametrize("item", ["²=random", "١=random", "０=random"])
def test_a_seat_that_is_not_an_ascii_number_is_named(item):
    line = usage_error(["simulate", "--hands", "10", "--play-policy", item], "--play-policy")
    seat = item.split("=")[0]
    assert f"seat {seat!r} is not a number" in line
    with pytest.raises(PolicyError, match=f"^play: .*seat {seat!r} is not a number"):
        api.simulate(hands=10, play=item)
    with pytest.raises(PolicyError, match=f"^play: .*seat {seat!r} is not a number"):
        api.simulate(hands=10, play={seat: "random"})


POLICY = """
from numba import njit
import numpy as np

@njit
def huge(obs, hand, legal, params, scratch, rng):
    return np.int64(1) << np.int64(62)

@njit
def wraps_to_a_suit(obs, hand, legal, params, scratch, rng):
    return (np.int64(1) << np.int64(32)) + np.int64(1)
"""


def test_an_illegal_policy_return_is_shown_whole(tmp_path):
    path = tmp_path / "odd_policies.py"
    path.write_text(textwrap.dedent(POLICY))
    with pytest.raises(PolicyError) as info:
        api.simulate(hands=10, play=f"{path}:huge")
    assert "an illegal card 4611686018427387904" in str(info.value)
    with pytest.raises(PolicyError) as info:
        api.simulate(hands=10, trump=f"{path}:wraps_to_a_suit")
    assert "an illegal suit 4294967297" in str(info.value)
    # ... and from the games kernel too
    from cinch_sim.engine.run import PolicySet, run_games

    ps = PolicySet.from_specs(4, "random", "random", "random", f"{path}:huge")
    with pytest.raises(PolicyError, match="an illegal card 4611686018427387904"):
        run_games(Rules(), ps, 0, 0, 2)


def test_compare_with_one_pair_says_there_is_no_interval():
    res = invoke("compare", "greedy", "random", "--games", "2")
    assert res.exit_code == 0, res.output
    assert "nan" not in res.stdout
    assert "too few games for an interval" in res.stdout


# ------------------------------------------------------------ 13: card readers
@pytest.mark.parametrize(
    "token",
    ["AS ", " AS", "5S\ufe0f", "A\ufe0fS", "\ufe0fAS", "5\u2660\ufe0f\ufe0f", "10S ",
     "A\u017f", "A\u2660 ", "\ufe0fA\u2660"],
)  # fmt: skip
def test_the_card_readers_take_only_what_the_format_allows(token):
    with pytest.raises(CardError):
        parse_card(token)
    rec = base_hand()
    rec["hands"][0][2] = token.replace("A", "7").replace("5", "7")  # seat 0 holds the 7S
    verdict = referee_records([rec])[0]
    assert verdict.status == "invalid" and verdict.field == "hands[0][2]", verdict


@pytest.mark.parametrize("symbol, letter", [("\u2660", "S"), ("\u2665", "H"), ("\u2663", "c")])
def test_the_selector_is_read_right_after_a_suit_symbol_only(symbol, letter):
    assert parse_card(f"5{symbol}\ufe0f") == parse_card(f"5{symbol}") == parse_card(f"5{letter}")
    with pytest.raises(CardError):
        parse_card(f"5{letter}\ufe0f")


def test_a_typed_hand_splits_on_spaces_and_reads_each_card_strictly():
    assert parse_hand(" AS  KS\t5\u2660\ufe0f ", size=3) == [
        parse_card("AS"),
        parse_card("KS"),
        parse_card("5S"),
    ]
    with pytest.raises(CardError, match="unknown card '5S\ufe0f'"):
        parse_hand("AS KS 5S\ufe0f", size=3)
    usage_error(["advise", HAND.replace("5S", "5S\ufe0f"), "--seat", "2"], "HAND")


# ------------------------------------------------- 15: options without meaning
@pytest.mark.parametrize("value", ["5", "3", HUGE])
def test_left_bower_points_is_refused_in_the_standard_game(value):
    line = usage_error([*RUNS["simulate"], "--rule", f"left_bower_points={value}"], "--rule")
    assert "left_bower_points" in line and "no meaning" in line
    with pytest.raises(ValueError, match="^rules: left_bower_points.*no meaning"):
        api.simulate(hands=10, rules={"left_bower_points": int(value)})
    assert "left_bower_points" not in Rules().describe()
    assert "left_bower_points" not in Rules().options()


def test_the_referee_refuses_left_bower_points_in_the_standard_game():
    clean = referee_records([base_hand()])[0]
    assert clean.status == "valid"
    for value in (5, 3, 10**23):
        verdict = referee_records([base_hand({"left_bower_points": value})])[0]
        assert verdict.status == "invalid"
        assert verdict.field == "rules.options.left_bower_points"
        assert "no meaning" in verdict.message


@pytest.mark.parametrize(
    "args, option",
    [
        (["simulate", "--threads", str(10**20)], "--threads"),
        (["simulate", "--threads", "4096"], "--threads"),
        (["report", "--threads", "4096"], "--threads"),
        (["advise", "AS KS 5S 5C 2S 9H 3D 7C JD", "--risk", "nan"], "--risk"),
        (["advise", "AS KS 5S 5C 2S 9H 3D 7C JD", "--precision", "nan"], "--precision"),
    ],
)
def test_thread_counts_past_the_cores_and_nan_shares_are_usage_errors(args, option):
    # --threads 10**20 used to pass click and fail later with exit 1; nan compares false
    # with every bound, so FloatRange let --risk nan through
    assert option in usage_error(args, option)


def test_a_random_seed_is_drawn_recorded_and_repeats():
    """seed="random" draws a new 64-bit seed each time; the settings record it, and
    that number gives the same run again."""
    a = api.simulate(hands=200, seed="random", play="random")
    b = api.simulate(hands=200, seed="RANDOM", play="random")
    sa, sb = a.settings["seed"], b.settings["seed"]
    assert isinstance(sa, int) and 0 <= sa < 2**64 and sa != sb
    again = api.simulate(hands=200, seed=sa, play="random")
    assert again.by_bid().equals(a.by_bid())


def test_seed_random_on_the_command_line_lands_in_run_json(tmp_path):
    import json

    r = CliRunner().invoke(
        main, ["simulate", "--hands", "300", "--seed", "random", "--out", str(tmp_path / "o")]
    )
    assert r.exit_code == 0, r.output
    run = json.loads((tmp_path / "o" / "run.json").read_text())
    seed = run["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**64
    r2 = CliRunner().invoke(
        main, ["simulate", "--hands", "300", "--seed", str(seed), "--out", str(tmp_path / "p")]
    )
    assert r2.exit_code == 0, r2.output
    first = (tmp_path / "o" / "by_bid.csv").read_text()
    assert first == (tmp_path / "p" / "by_bid.csv").read_text()
    bad = CliRunner().invoke(main, ["simulate", "--hands", "10", "--seed", "randomly"])
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    assert "'--seed': 'randomly' is neither a whole number nor 'random'" in bad.output


def test_api_errors_name_their_argument():
    import cinch_sim as cs
    from cinch_sim.analysis.counts import AnalysisError
    from cinch_sim.cards import CardError

    with pytest.raises(CardError, match=r"^hand: a hand needs 9 cards, got 3$"):
        cs.advise("AS KS 5S")
    with pytest.raises(CardError, match=r"^hand: a hand needs 9 cards, got 3$"):
        cs.advise("AS KS 5S", seat=9, dealer=9)  # the hand's own error first
    with pytest.raises(AnalysisError, match=r"^by: unknown feature 'trump' \(known: bid,"):
        cs.stats(hands=10, by="trump")
    with pytest.raises(AnalysisError, match=r"^min_hands: must be at least 1, got 0$"):
        cs.stats(hands=10, min_hands=0)


def test_a_stuck_dealers_pass_is_named_as_such(tmp_path):
    from cinch_sim.policies.loading import PolicyError

    path = tmp_path / "p.py"
    path.write_text(
        "from numba import njit\nfrom cinch_sim.signatures import POLICY_SIG\n\n"
        "@njit(POLICY_SIG)\ndef always_pass(obs, hand, legal, params, scratch, rng):\n"
        "    return 0\n"
    )
    import cinch_sim as cs

    with pytest.raises(PolicyError, match="returned a pass, which its legal mask did not allow"):
        cs.simulate(hands=20, variant="pidro", bid=f"{path}:always_pass")


def test_an_option_with_an_alias_is_named_once_in_its_error():
    """--play is short for --play-policy: a bad value names the option once."""
    from click.testing import CliRunner

    from cinch_sim.cli.main import main

    res = CliRunner().invoke(main, ["simulate", "--play", "nosuch", "--hands", "10"])
    assert res.exit_code == 2
    assert "Invalid value for '--play-policy': unknown play policy 'nosuch'" in res.output
    assert "/ '--play'" not in res.output


def test_a_number_typed_is_named_as_typed():
    """``--hands 1e3`` said "1000.0 is not ...", a number the user never typed; and
    ``--from-trick 0`` was "not a trick number" beside "7 is out of range"."""
    line = usage_error(["simulate", "--hands", "1e3"], "--hands")
    assert line.endswith("1e3 is not a positive whole number")
    line = usage_error(["solve", "-", "--from-trick", "0"], "--from-trick")
    assert line.endswith("0 is out of range: tricks count from 1")
    line = usage_error(["solve", "-", "--from-trick", "first"], "--from-trick")
    assert line.endswith("'first' is not a trick number or 'quick'")
