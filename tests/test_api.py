"""The public Python API: every function, its results in a notebook, policy specs as the
CLI takes them, and bad input refused in the CLI's own words."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

import cinch_sim
from cinch_sim import api
from cinch_sim.checks import InputError
from cinch_sim.cli.main import main

HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


# ------------------------------------------------------------------ the package
def test_import_cinch_sim_loads_neither_pandas_nor_numba():
    code = (
        "import sys, cinch_sim; "
        "print([m for m in ('pandas', 'numba', 'numpy', 'cinch_sim.api') if m in sys.modules])"
    )
    here = Path(cinch_sim.__file__).parents[1]  # this checkout's package, not an installed one
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=here
    )
    assert out.stdout.strip() == "[]"


def test_the_package_offers_the_api_names():
    assert cinch_sim.simulate is api.simulate
    assert cinch_sim.advise is api.advise
    assert cinch_sim.strategy_report is api.report
    assert (
        cinch_sim.Comparison is __import__("cinch_sim.matches.compare").matches.compare.Comparison
    )
    assert set(cinch_sim.__all__) - {"__version__"} == set(api.__all__) - {"report"}
    assert set(cinch_sim.__all__) <= set(dir(cinch_sim))
    from cinch_sim import layout  # a submodule, not an API name: found as ever

    assert layout.__name__ == "cinch_sim.layout"
    with pytest.raises(AttributeError):
        cinch_sim.no_such_name  # noqa: B018


def test_every_name_in_all_exists():
    for name in api.__all__:
        assert getattr(api, name) is not None


# ------------------------------------------------------------------ the results
def _shows_well(result, kind: type, table_names: tuple[str, ...]) -> None:
    assert isinstance(result, kind)
    assert result.table_names()[: len(table_names)] == table_names
    for name in table_names:
        df = result.table(name)
        assert isinstance(df, pd.DataFrame) and len(df) > 0
    assert result.table().equals(result.table(table_names[0]))
    with pytest.raises(ValueError, match="no table 'nope'"):
        result.table("nope")
    text = repr(result)
    assert 1 <= len(text.splitlines()) <= 3 and len(text) < 600, text
    html = result._repr_html_()
    assert html.startswith("<p>") and "<table" in html


def test_simulate():
    sim = api.simulate(hands=3000, seed=2)
    _shows_well(sim, api.Simulation, ("by_bid", "pedros"))
    assert sim.hands == 3000
    assert repr(sim).startswith("Simulation: 3,000 hands, seed 2, dealer seat 3; made ")
    assert "] of 3,000 contracts" in repr(sim)  # the make rate with its interval
    assert sim.table().equals(sim.by_bid())


def test_stats():
    a = api.stats(hands=3000, seed=2, by="pedros")
    _shows_well(a, api.Analysis, ("make_rate_by_bid", "make_rate_by_trumps"))
    for name, df in a.tables().items():
        assert a.table(name).equals(df)
    assert repr(a).startswith("Analysis: 3,000 hands, seed 2; made ")
    assert api.analyse is api.stats


def test_a_run_s_settings_rules_play_the_same_game_again():
    """run.json's ``rules`` (every option, the preset and its options) passed back as
    ``rules=`` is the same game: it was refused ("unknown rule option 'preset'")."""
    first = api.stats(hands=2000, seed=4, variant="sancho", rules={"robber": "dealer"})
    shown = json.loads(json.dumps(first.settings["rules"]))  # as run.json holds them
    again = api.stats(hands=2000, seed=4, rules=shown)
    assert again.settings["rules"] == first.settings["rules"]
    assert again.table("make_rate_by_bid").equals(first.table("make_rate_by_bid"))
    with pytest.raises(ValueError, match="^rules: robber is 'maker' here but 'dealer' in sancho"):
        api.stats(hands=10, rules={**shown, "robber": "maker"})


def test_advise_and_best_trump_is_a_letter_in_every_view():
    adv = api.advise(HAND, seat=2, max_hands=3000, seed=1)
    _shows_well(adv, api.Advice, ("bids", "suits"))
    assert adv.best_trump == "S"
    assert isinstance(adv.best_trump_index, int) and "CSDH"[adv.best_trump_index] == "S"
    d = adv.to_dict()
    assert d["best_trump"] == adv.best_trump
    assert json.loads(json.dumps(d))["best_trump"] == "S"
    bids = adv.table("bids")
    assert set(bids["trump"]) == set("CSDH")
    assert bids.attrs["advice"]["best_trump"] == "S"
    suits = adv.table("suits")
    assert suits.loc[suits["best"], "trump"].tolist() == ["S"]
    assert {str(suits[c].dtype) for c in ("best_ev_bid", "safe_bid")} == {"Int64"}  # whole bids
    assert "in spades" in repr(adv) and "Advice: " in repr(adv)


def test_advise_json_on_the_command_line_is_the_api_s():
    res = cli("advise", HAND, "--seat", "2", "--max-hands", "2000", "--format", "json")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    adv = api.advise(HAND, seat=2, max_hands=2000).to_dict()
    assert d["best_trump"] == adv["best_trump"] == "S"
    assert d["by_trump"] == adv["by_trump"]


def test_compare_and_its_records(tmp_path):
    path = tmp_path / "games.jsonl"
    cmp = api.compare("greedy", "random", games=20, seed=3, records=path)
    _shows_well(cmp, cinch_sim.Comparison, ("sides", "games"))
    assert cmp.games == 20 and len(cmp.table("games")) == 20
    assert repr(cmp).startswith("Comparison: greedy vs random, 20 games (10 duplicate pairs)")
    assert len(path.read_text().splitlines()) == 20
    assert api.referee(path).summary() == "20 valid, 0 renege, 0 misdeal, 0 invalid"
    # every result with a --format json on the command line has to_dict, JSON-ready
    d = json.loads(json.dumps(api.referee(path).to_dict()))
    assert d["counts"]["valid"] == 20 and d["problems"] == []
    report = api.solve(path)  # 20 games, one summary per hand of each
    solved = json.loads(json.dumps(report.to_dict()))
    assert len(solved["hands"]) == len(report.hands) > 20 and solved["hands"][0]["line"] == 1
    assert solved["means"] == report.means()
    assert "SolveReport" in cinch_sim.__all__
    same = api.compare("greedy", "greedy", games=2)  # two of one name are told apart
    assert list(same.table()["strategy"]) == ["greedy", "greedy#2"]


def test_ladder():
    lad = api.ladder(["greedy", "random", "simple"], games=10, seed=1, bootstrap=10)
    _shows_well(lad, cinch_sim.Ladder, ("ratings", "matchups"))
    assert sorted(lad.table()["strategy"]) == ["greedy", "random", "simple"]
    assert len(lad.table("matchups")) == 3
    assert repr(lad).startswith("Ladder: 3 strategies, 10 games per matchup, seed 1; 1. ")
    assert lad.table().equals(lad.ratings(1))


def test_ladder_records_are_its_matchups_records_in_order(tmp_path):
    path = tmp_path / "ladder.jsonl"
    lad = api.ladder(["greedy", "random", "simple"], games=6, seed=4, bootstrap=0, records=path)
    lines = path.read_text().splitlines()
    assert len(lines) == 18 and api.referee(path).summary().startswith("18 valid")
    # each matchup's games are exactly those compare writes for it, in the matchups' order
    matchups = lad.table("matchups")
    for m, (a, b) in enumerate(zip(matchups["a"], matchups["b"], strict=True)):
        one = tmp_path / f"m{m}.jsonl"
        api.compare(a, b, games=6, seed=4, records=one)
        assert lines[6 * m : 6 * m + 6] == one.read_text().splitlines(), (a, b)
    # written as the games are played: not by a resumed run, nor on a cluster
    for where in ({"resume": tmp_path / "run"}, {"workers": 2}):
        with pytest.raises(InputError, match="records"):
            api.ladder(["greedy", "random"], games=2, records=tmp_path / "x.jsonl", **where)
    assert not (tmp_path / "x.jsonl").exists()


def test_report_writes_its_folder(tmp_path, few_example_deals):
    doc = api.report(hands=1000, games=2, strategies=["greedy", "random"], out=tmp_path / "r")
    _shows_well(doc, cinch_sim.Report, ("contents",))
    assert (tmp_path / "r" / "report.html").is_file()
    assert json.loads((tmp_path / "r" / "run.json").read_text())["hands"] == 1000
    assert "ladder" in doc.table_names() and len(doc.table("ladder")) == 2
    assert repr(doc).startswith("Report 'Cinch strategy report': ")
    assert f"written to {tmp_path / 'r'}" in repr(doc)
    with pytest.raises(ValueError, match="already holds files"):
        api.report(hands=1000, games=2, strategies=["greedy", "random"], out=tmp_path / "r")


def test_referee_files_and_dicts(tmp_path):
    path = tmp_path / "hands.jsonl"
    sim = api.simulate(hands=30, seed=4, records=path)
    assert sim.extra["records"] == str(path)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(records) == 30
    broken = dict(records[0], bid=99)
    rep = api.referee([*records[:4], broken], write=tmp_path / "clean.jsonl")
    _shows_well(rep, api.RefereeReport, ("records",))
    assert rep.summary() == "4 valid, 0 renege, 0 misdeal, 1 invalid" and not rep.ok
    assert repr(rep) == "Referee: 5 records: 4 valid, 0 renege, 0 misdeal, 1 invalid"
    assert len((tmp_path / "clean.jsonl").read_text().splitlines()) == 4  # the invalid one left
    assert api.referee(path).ok
    # the columns keep their types whatever the records: all valid, or one broken
    valid, mixed = api.referee(records[:4]).table(), rep.table()
    for t in (valid, mixed):
        assert [str(t[c].dtype) for c in ("seat", "trick")] == ["Int64", "Int64"]
        assert str(t["field"].dtype).startswith("string") and t["bid"].dtype.kind in "iu"


# ------------------------------------------------------------------ policies
def _cli_json(*args: str) -> dict:
    res = cli("simulate", "--hands", "3000", "--seed", "7", "--format", "json", *args)
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_a_seat_dict_gives_the_numbers_of_the_cli_seat_option():
    got = _cli_json("--play-policy", "0=greedy", "--bid-policy", "2=simple")
    sim = api.simulate(hands=3000, seed=7, play={0: "greedy"}, bid={2: "simple"})
    assert got["policies"]["play"] == ["greedy", "heuristic", "heuristic", "heuristic"]
    assert sim.settings["policies"] == got["policies"]
    assert sim.by_bid().to_dict(orient="records") == got["by_bid"]
    assert sim.pedros().to_dict(orient="records") == got["pedros"]


@pytest.mark.parametrize(
    "spec",
    [
        "0=greedy",
        ["0=greedy"],
        ("0=greedy",),
        {"0": "greedy"},
        ["greedy", "heuristic", "heuristic", "heuristic"],
    ],
    ids=repr,
)
def test_every_policy_form_reads_the_same(spec):
    sim = api.simulate(hands=50, seed=7, play=spec)
    assert sim.settings["policies"]["play"] == ["greedy", "heuristic", "heuristic", "heuristic"]


def test_one_name_is_every_seat_and_the_advisor_reads_bids_as_the_simulator_bids():
    assert api.simulate(hands=10, play="greedy").settings["policies"]["play"] == ["greedy"] * 4
    adv = api.advise(HAND, seat=2, max_hands=500, bid={1: "simple"})
    assert adv.policies["bid"] == ["heuristic", "simple", "heuristic", "heuristic"]
    adv = api.advise(HAND, seat=2, max_hands=500, bid_model="traditional")
    assert adv.policies["bid"] == ["traditional"] * 4


# ------------------------------------------------------------------ bad input
# (Python keywords, the same input on the command line, the words both use)
BAD_RUNS = [
    ({"hands": 0}, ["--hands", "0"], "--hands", "0 is not a positive whole number"),
    ({"hands": -1}, ["--hands", "-1"], "--hands", "-1 is not a positive whole number"),
    ({"hands": 1000.0}, ["--hands", "1000.0"], "--hands", "1000.0 is not a positive whole number"),
    ({"hands": "x"}, ["--hands", "x"], "--hands", "'x' is not a positive whole number"),
    ({"seed": 1.5}, ["--seed", "1.5"], "--seed", "1.5 is not a whole number"),
    ({"dealer": 7}, ["--dealer", "7"], "--dealer", "seat 7 is out of range 0..3"),
    (
        {"rules": {"robber": "nobody"}},
        ["--rule", "robber=nobody"],
        "--rule",
        "robber='nobody' is not one of maker, dealer, none",
    ),
    (
        {"rules": {"target": 0}},
        ["--rule", "target=0"],
        "--rule",
        "target=0 must be a whole number from 1 to 10,000",
    ),
    ({"bid": "clever"}, ["--bid-policy", "clever"], "--bid-policy", "unknown bid policy 'clever'"),
    (
        {"play": {9: "random"}},
        ["--play-policy", "9=random"],
        "--play-policy",
        "play policy '9=random': seat 9 is not 0..3",
    ),
]


@pytest.mark.parametrize("command", ["simulate", "stats"])
@pytest.mark.parametrize("kwargs, args, option, problem", BAD_RUNS, ids=lambda x: str(x))
def test_bad_input_is_refused_in_the_cli_s_words(command, kwargs, args, option, problem):
    run = {"simulate": api.simulate, "stats": api.stats}[command]
    with pytest.raises(ValueError) as info:
        run(**{"hands": 10, **kwargs})
    name = option.removeprefix("--").removesuffix("-policy")
    name = {"rule": "rules"}.get(name, name)
    python = str(info.value)
    assert python.startswith(f"{name}: {problem}"), python
    res = cli(command, "--hands", "10", *args)
    assert res.exit_code == 2
    # the CLI's usage error: the same problem, the option named as click names it
    last = res.output.strip().splitlines()[-1]
    assert last == f"Error: Invalid value for '{option}': {python.removeprefix(name + ': ')}"


@pytest.mark.parametrize(
    "call, args, line",
    [
        (
            lambda: api.compare("greedy", "random", games=0),
            ["compare", "greedy", "random", "--games", "0"],
            "games: 0 is not a positive whole number",
        ),
        (
            lambda: api.ladder(["greedy", "random"], games=2.0),
            ["ladder", "greedy", "random", "--games", "2.0"],
            "games: 2.0 is not a positive whole number",
        ),
        (
            lambda: api.advise(HAND, seat=2, dealer=7),
            ["advise", HAND, "--seat", "2", "--dealer", "7"],
            "dealer: seat 7 is out of range 0..3",
        ),
        (
            lambda: api.advise(HAND, seat=4),
            ["advise", HAND, "--seat", "4"],
            "seat: seat 4 is out of range 0..3",
        ),
        (
            lambda: api.advise(HAND, seat=2, seed=0.5),
            ["advise", HAND, "--seat", "2", "--seed", "0.5"],
            "seed: 0.5 is not a whole number",
        ),
        (
            lambda: api.report(hands=999),
            ["report", "--hands", "999"],
            "hands: 999 is not a whole number of at least 1,000",
        ),
    ],
    ids=lambda x: x[0] if isinstance(x, list) else "",
)
def test_the_other_commands_refuse_alike(call, args, line):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == line
    res = cli(*args)
    assert res.exit_code == 2
    name, problem = line.split(": ", 1)
    assert res.output.strip().splitlines()[-1] == f"Error: Invalid value for '--{name}': {problem}"


def test_errors_are_value_errors_naming_the_argument():
    with pytest.raises(api.InputError) as info:
        api.simulate(hands=True)  # a bool is not a count
    assert (info.value.name, info.value.problem) == ("hands", "True is not a positive whole number")
    with pytest.raises(ValueError, match="^play: 2 play policies given for 4 seats$"):
        api.simulate(hands=10, play=["greedy", "random"])
    with pytest.raises(ValueError, match="^strategies: name at least two strategies$"):
        api.report(strategies=["greedy"])


def test_the_report_function_is_named_where_its_subpackage_is_asked_for():
    """``cinch_sim.report`` (the command's name) is the subpackage that builds reports;
    asked for before it is imported, the error names the function to call instead."""
    code = "import cinch_sim; cinch_sim.report"
    here = Path(cinch_sim.__file__).parents[1]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=here)
    assert out.returncode == 1
    assert "the function is cinch_sim.strategy_report" in out.stderr.splitlines()[-1]
