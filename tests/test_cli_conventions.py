"""One convention across the commands: every bad input is a usage error (exit 2, one
``Error:`` line naming the option, never a traceback); every choice is listed in
``--help``; every command prints ``--format json`` and ``--format csv`` that parse;
names are never cut; tricks and a game's hands are numbered from 1."""

from __future__ import annotations

import importlib
import io
import json
import re
from inspect import signature

import pandas as pd
import pytest
from click.testing import CliRunner
from records_cases import base_hand

from cinch_sim.cli.main import main

# stdout and stderr apart (click 8.2 keeps them apart by default; 8.1 needs the flag)
_APART = {"mix_stderr": False} if "mix_stderr" in signature(CliRunner).parameters else {}

HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"
ADVISE = [HAND, "--seat", "2", "--precision", "0.05", "--max-hands", "500"]
SMALL = {
    "simulate": ["--hands", "200"],
    "stats": ["--hands", "200"],
    "compare": ["greedy", "simple", "--games", "4"],
    "ladder": ["greedy", "simple", "--games", "4", "--bootstrap", "5"],
}


def invoke(*args: str):
    return CliRunner(**_APART).invoke(main, list(args))


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """A hand file (a clean hand, then one whose first trick is wrong), a game file,
    a TOML strategy, an existing file and a folder that holds a file."""
    d = tmp_path_factory.mktemp("conventions")
    bad = base_hand()
    bad["tricks"][0]["cards"][1] = "2S"  # seat 3 does not hold it
    hands = d / "hands.jsonl"
    hands.write_text(json.dumps(base_hand()) + "\n" + json.dumps(bad) + "\n")
    games = d / "games.jsonl"
    res = invoke("compare", "greedy", "simple", "--games", "2", "--records", str(games))
    assert res.exit_code == 0, res.output
    broken = d / "broken.toml"
    broken.write_text("[bid]\nparams = { nope = 1 }\n")
    full = d / "full"
    full.mkdir()
    (full / "keep.txt").write_text("x")
    return {"hands": hands, "games": games, "broken": broken, "full": full}


def _bad_inputs(f) -> list[tuple[list[str], str]]:
    """(arguments, the option's name as the Error line quotes it)."""
    hands, games = str(f["hands"]), str(f["games"])
    cases = []
    for cmd in ("simulate", "stats"):
        cases += [
            ([cmd, "--hands", "0"], "'--hands'"),
            ([cmd, "--hands", "1000.0"], "'--hands'"),
            ([cmd, "--hands", "-5"], "'--hands'"),
            ([cmd, "--hands", "abc"], "'--hands'"),
            ([cmd, "--hands", "200", "--rule", "robber=nobody"], "'--rule'"),
            ([cmd, "--hands", "200", "--rule", "robber"], "'--rule'"),
            ([cmd, "--hands", "200", "--rule", "colour=red"], "'--rule'"),
            ([cmd, "--hands", "200", "--rule", "bid_min=9", "--rule", "bid_max=3"], "'--rule'"),
            (
                [cmd, "--hands", "200", "--rule", "robber=dealer", "--rule", "robber=none"],
                "'--rule'",
            ),  # fmt: skip
            ([cmd, "--hands", "200", "--bid-policy", "clever"], "'--bid-policy'"),
            ([cmd, "--hands", "200", "--play-policy", "9=random"], "'--play-policy'"),
            ([cmd, "--hands", "200", "--play-policy", "nosuchmodule:f"], "'--play-policy'"),
            ([cmd, "--hands", "200", "--dealer", "4"], "'--dealer'"),
            ([cmd, "--hands", "200", "--variant", "nope"], "'--variant'"),
            ([cmd, "--hands", "200", "--variant", "two_deck", "--rule", "bid_max=29"], "'--rule'"),
            ([cmd, "--hands", "200", "--variant", "no_draw", "--rule", "robber=maker"], "'--rule'"),
            ([cmd, "--hands", "200", "--variant", "cutthroat3", "--dealer", "3"], "'--dealer'"),
            ([cmd, "--hands", "200", "--dealer", "x"], "'--dealer'"),
            ([cmd, "--hands", "200", "--threads", "0"], "'--threads'"),
            ([cmd, "--hands", "200", "--seed", "x"], "'--seed'"),
            ([cmd, "--hands", "200", "--format", "xml"], "'--format'"),
            ([cmd, "--hands", "200", "--table", "nope"], "'--table'"),
            ([cmd, "--hands", "200", "--out", str(f["full"])], "'--out'"),
        ]
    cases += [
        (["variants", "--format", "xml"], "'--format'"),
        (["serve", "--port", "70000"], "'--port'"),
        (["serve", "--workers", "0"], "'--workers'"),
        (["stats", "--hands", "200", "--by", "colour"], "'--by'"),
        (["stats", "--hands", "200", "--min-hands", "0"], "'--min-hands'"),
        (["stats", "--hands", "200", "--hand-data"], "'--hand-data'"),
        (
            [
                "stats",
                "--hands",
                "200",
                "--format",
                "csv",
                "--table",
                "points",
                "--table",
                "pedro_capture",
            ],
            "'--table'",
        ),  # fmt: skip
        (["advise", "x", "--seat", "2"], "'HAND'"),
        (["advise", "AS KS 5S 5C 2S 9H 3D 7C", "--seat", "2"], "'HAND'"),
        (["advise", "AS KS 5S 5C 2S 9H 3D 7C AS", "--seat", "2"], "'HAND'"),
        (["advise", "AS KS 5S 5C 2S 9H 3D 7C"], "'HAND'"),  # no --seat: the hand first
        (["advise", HAND, "--seat", "4"], "'--seat'"),
        (["advise", HAND, "--seat", "x"], "'--seat'"),
        (["advise", HAND, "--seat", "2", "--dealer", "4"], "'--dealer'"),
        (["advise", HAND, "--seat", "2", "--bids", "0:9,1:9"], "'--bids'"),
        (["advise", HAND, "--seat", "2", "--bids", "0:x"], "'--bids'"),
        (["advise", HAND, "--seat", "2", "--bids", "garbage"], "'--bids'"),
        (["advise", HAND, "--seat", "2", "--bids", "0:pass,3:9"], "'--bids'"),
        (["advise", HAND, "--seat", "2", "--known", "1:ZZ"], "'--known'"),
        (["advise", HAND, "--seat", "2", "--known", "1 AH"], "'--known'"),
        (["advise", HAND, "--seat", "2", "--known", "1:AS"], "'--known'"),
        (["advise", HAND, "--seat", "2", "--rule", "robber=x"], "'--rule'"),
        (["advise", HAND, "--seat", "2", "--bid-policy", "nosuch"], "'--bid-policy'"),
        (["advise", HAND, "--seat", "2", "--risk", "2"], "'--risk'"),
        (["advise", HAND, "--seat", "2", "--format", "xml"], "'--format'"),
        (["compare", "nosuch", "greedy"], "'STRATEGY_A'"),
        (["compare", "greedy", "nosuch"], "'STRATEGY_B'"),
        (["compare", "greedy", str(f["broken"])], "'STRATEGY_B'"),
        (["compare", "greedy"], "'STRATEGY_B'"),
        (["compare", "greedy", "simple", "--games", "0"], "'--games'"),
        (["compare", "greedy", "simple", "--games", "abc"], "'--games'"),
        (["compare", "greedy", "simple", "--pairing", "x"], "'--pairing'"),
        (
            ["compare", "greedy", "simple", "--variant", "cutthroat3", "--pairing", "rotate"],
            "'--pairing'",
        ),
        (
            ["ladder", "greedy", "simple", "--variant", "heasly", "--pairing", "rotate"],
            "'--pairing'",
        ),
        (["compare", "greedy", "simple", "--max-hands", "0"], "'--max-hands'"),
        (["compare", "greedy", "simple", "--rule", "robber=x"], "'--rule'"),
        (["compare", "greedy", "simple", "--format", "xml"], "'--format'"),
        (["compare", "greedy", "simple", "--table", "nope"], "'--table'"),
        (["compare", "greedy", "simple", "--out", str(f["full"])], "'--out'"),
        (["ladder", "greedy"], "'STRATEGIES"),
        (["ladder", "greedy", "nosuch"], "'STRATEGIES"),
        (["ladder", "greedy", "simple", "--bootstrap", "-1"], "'--bootstrap'"),
        (["ladder", "greedy", "simple", "--games", "0"], "'--games'"),
        (["ladder", "greedy", "simple", "--table", "nope"], "'--table'"),
        (["ladder", "greedy", "simple", "--format", "xml"], "'--format'"),
        (["report", "--hands", "5"], "'--hands'"),
        (["report", "--games", "1"], "'--games'"),
        (["report", "--strategies", "greedy"], "'--strategies'"),
        (["report", "--strategies", "nosuch,greedy"], "'--strategies'"),
        (["report", "--rule", "x=y"], "'--rule'"),
        (["report", "--threads", "0"], "'--threads'"),
        (["report", "--out", str(f["full"])], "'--out'"),
        (["referee", hands, "--format", "xml"], "'--format'"),
        (["referee"], "'FILE'"),
        (["show", hands, "--line", "0"], "'--line'"),
        (["show", hands, "--line", "99"], "'--line'"),
        (["show", hands, "--hand", "1"], "'--hand'"),  # a hand record has no hands
        (["show", games, "--hand", "0"], "'--hand'"),
        (["show", games, "--hand", "999"], "'--hand'"),
        (["show", hands, "--format", "xml"], "'--format'"),
        (["merge", "nosuch", "--out", str(f["full"].parent / "m1")], "'DIRS"),
        (["merge", str(f["full"]), "--out", str(f["full"].parent / "m2")], "'DIRS"),
        (["merge", str(f["full"])], "'--out'"),
        (["merge", str(f["full"]), "--out", str(f["full"]), "--format", "xml"], "'--format'"),
        (["simulate", "--resume", str(f["full"])], "'--resume'"),
        (["simulate", "--chunk", "0"], "'--chunk'"),
        (["stats", "--resume", str(f["full"]), "--out", str(f["full"])], "'--resume'"),
        (["compare", "greedy", "simple", "--resume", str(f["full"])], "'--resume'"),
        (["ladder", "greedy", "simple", "--chunk", "0"], "'--chunk'"),
        (["solve"], "'FILE'"),
        (["solve", hands, "--line", "0"], "'--line'"),
        (["solve", hands, "--line", "99"], "'--line'"),
        (["solve", hands, "--format", "csv"], "'--format'"),
        # a whole number or a share is plain ASCII, as a --rule value is: Python's int
        # and float would read these
        (["simulate", "--hands", "1_000"], "'--hands'"),
        (["simulate", "--hands", "\u0661\u0662"], "'--hands'"),  # Arabic-Indic 12
        (["simulate", "--threads", " 1"], "'--threads'"),
        (["advise", HAND, "--seat", "\u0663"], "'--seat'"),
        (["advise", HAND, "--risk", "0,7"], "'--risk'"),
        (["advise", HAND, "--precision", "1_0e-2"], "'--precision'"),
        (["compare", "greedy", "simple", "--max-hands", "1_0"], "'--max-hands'"),
        (["serve", "--port", "70000"], "'--port'"),
        (["serve", "--workers", "\uff11"], "'--workers'"),  # a full-width 1
        (["simulate", "--hands", "1" * 5000], "'--hands'"),  # more digits than int() reads
        (["advise", HAND, "--seat", "3", "--bids", "\u0661:8"], "'--bids'"),
        (["advise", HAND, "--known", "\u0661:AH"], "'--known'"),
        (["solve", hands, "--from-trick", "\u00b2"], "'--from-trick'"),  # a superscript 2
    ]
    return cases


def test_every_bad_input_is_a_usage_error_naming_its_option(files):
    cases = _bad_inputs(files)
    assert {c[0][0] for c in cases} == {c.name for c in main.commands.values()}
    for args, option in cases:
        res = invoke(*args)
        out = res.output
        assert res.exit_code == 2, (args, out)
        assert "Traceback" not in out, (args, out)
        errors = [ln for ln in out.splitlines() if ln.startswith("Error: ")]
        assert len(errors) == 1, (args, out)
        assert option in errors[0], (args, out)
        assert res.stdout == "", (args, out)  # no result printed: nothing ran


def test_a_file_that_cannot_be_opened_is_exit_2(tmp_path):
    for command in ("referee", "show", "solve"):
        res = invoke(command, str(tmp_path / "missing.jsonl"))
        assert res.exit_code == 2
        assert res.output.startswith("Error: cannot open") and "missing.jsonl" in res.output


def test_stats_help_lists_every_table_and_feature():
    from cinch_sim.analysis.counts import FEATURES
    from cinch_sim.analysis.tables import table_names

    stats = importlib.import_module("cinch_sim.cli.commands.stats")  # the module, not the command
    assert set(stats.TABLES) == set(table_names(("trumps",)))  # the CLI's copy is right
    assert set(stats.FEATURES) == set(FEATURES)
    text = " ".join(invoke("stats", "--help").output.split())
    for name in (*table_names(("trumps",)), *FEATURES):
        assert name in text, name


def test_help_lists_the_choices_of_every_command():
    for command, words in {
        "simulate": ["by_bid", "pedros", "table|csv|json"],
        "compare": ["sides", "games", "swap|rotate", "table|csv|json"],
        "ladder": ["ladder", "matchups", "table|csv|json"],
        "advise": ["table|csv|json", "heuristic, traditional"],
        "referee": ["table|csv|json"],
        "show": ["table|csv|json"],
        "solve": ["table|json"],
    }.items():
        text = " ".join(invoke(command, "--help").output.split())
        for w in words:
            assert w in text, (command, w)


def test_match_help_lists_every_builtin_strategy_a_match_takes():
    from cinch_sim.policies.strategies import BUILTIN

    players = [n for n, s in BUILTIN.items() if s.spec("play") != "dd"]  # dd is refused
    for command in ("compare", "ladder"):
        text = " ".join(invoke(command, "--help").output.split())
        for name in players:
            assert re.search(rf"\b{name}\b", text), (command, name)


def _one_csv_table(res) -> pd.DataFrame:
    assert res.exit_code in (0, 1), res.output
    df = pd.read_csv(io.StringIO(res.stdout))
    header = ",".join(df.columns)
    assert header not in res.stdout.splitlines()[1:]  # no second table below the first
    return df


def _outputs(command: str, files) -> list[str]:
    return {
        "advise": ADVISE,
        "referee": [str(files["hands"])],
        "show": [str(files["hands"])],
    }.get(command) or SMALL[command]


@pytest.mark.parametrize(
    "command", ["simulate", "stats", "advise", "compare", "ladder", "referee", "show"]
)
def test_json_and_csv_parse(command, files):
    args = [command, *_outputs(command, files)]
    res = invoke(*args, "--format", "json")
    assert res.exit_code in (0, 1), res.output  # referee: 1, the file holds a bad record
    assert isinstance(json.loads(res.stdout), dict)
    df = _one_csv_table(invoke(*args, "--format", "csv"))
    assert len(df) > 0 and len(df.columns) > 2


def test_compare_and_ladder_csv_tables(files):
    sides = _one_csv_table(invoke("compare", *SMALL["compare"], "--format", "csv"))
    assert list(sides["strategy"]) == ["greedy", "simple"]
    games = _one_csv_table(
        invoke("compare", *SMALL["compare"], "--format", "csv", "--table", "games")
    )
    assert len(games) == 4 and set(games["game"]) == {1, 2}
    ratings = _one_csv_table(invoke("ladder", *SMALL["ladder"], "--format", "csv"))
    assert sorted(ratings["strategy"]) == ["greedy", "simple"] and "rating" in ratings
    m = _one_csv_table(invoke("ladder", *SMALL["ladder"], "--format", "csv", "--table", "matchups"))
    assert (m["a"].tolist(), m["b"].tolist()) == (["greedy"], ["simple"])


def test_long_names_are_printed_in_full(tmp_path):
    specs = []
    for i, margin in ((1, 0.2), (2, 0.4)):
        p = tmp_path / f"bold{i}.toml"
        p.write_text(
            f'name = "heuristic_bold_v{i}"\nbase = "heuristic"\n'
            f"[bid]\nparams = {{ margin = {margin} }}\n"
        )
        specs.append(str(p))
    names = ["heuristic_bold_v1", "heuristic_bold_v2"]
    assert names[0][:13] == names[1][:13]  # the old tables cut both to "heuristic_bol"
    res = invoke("compare", *specs, "--games", "4")
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    header = next(i for i, ln in enumerate(lines) if ln.startswith("strategy "))
    rows = [ln.split()[0] for ln in lines[header + 2 : header + 4]]
    assert rows == names  # the per-side table: one row each, the name whole
    res = invoke("ladder", *specs, "greedy", "--games", "4", "--bootstrap", "5")
    assert res.exit_code == 0, res.output
    ranked = [ln.split()[1] for ln in res.output.splitlines() if ln.strip()[:1].isdigit()]
    assert sorted(ranked[-3:]) == ["greedy", *names]
    pairs = [ln.split()[:2] for ln in res.output.splitlines() if ln.startswith("heuristic_")]
    assert pairs == [names, [names[0], "greedy"], [names[1], "greedy"]]


def test_referee_counts_tricks_from_1(files):
    res = invoke("referee", str(files["hands"]))
    assert res.exit_code == 1  # an invalid record is a result, not a usage error
    line = res.output.splitlines()[0]
    assert line.startswith("line 2: invalid: tricks[0].cards[1], seat 3, trick 1: "), line
    d = json.loads(invoke("referee", str(files["hands"]), "--format", "json").stdout)
    assert d["counts"] == {"valid": 1, "renege": 0, "misdeal": 0, "invalid": 1}
    assert [(p["line"], p["trick"], p["seat"]) for p in d["problems"]] == [(2, 1, 3)]
    assert "problems" not in json.loads(
        invoke("referee", str(files["hands"]), "--format", "json", "-q").stdout
    )
    rows = _one_csv_table(invoke("referee", str(files["hands"]), "--format", "csv"))
    assert rows["status"].tolist() == ["valid", "invalid"]
    assert rows["trick"].isna().tolist() == [True, False] and rows["trick"][1] == 1


def test_show_numbers_tricks_and_hands_from_1(files):
    res = invoke("show", str(files["hands"]))
    assert res.exit_code == 0, res.output
    tricks = re.findall(r"^\s+(\d+)\. \d:", res.output, re.MULTILINE)
    assert tricks == ["1", "2", "3", "4", "5", "6"]
    df = _one_csv_table(invoke("show", str(files["hands"]), "--format", "csv"))
    assert df["trick"].tolist() == [1, 2, 3, 4, 5, 6]
    assert df["winner"].tolist() == [2, 2, 1, 0, 2, 2]
    assert df["points"].sum() == sum(base_hand()["result"]["points"])  # every point, once
    assert json.loads(invoke("show", str(files["hands"]), "--format", "json").stdout) == (
        base_hand()
    )  # the record as `referee --write` writes it

    games = str(files["games"])
    res = invoke("show", games)
    lines = res.output.splitlines()  # the hands' table: its first column, under the rule
    rows = lines[lines.index(next(ln for ln in lines if set(ln) == {"-", " "})) + 1 :]
    listed = [ln.split()[0] for ln in rows if ln.startswith(" ")]
    n = len(listed)
    assert listed == [str(i) for i in range(1, n + 1)]
    res = invoke("show", games, "--hand", str(n))
    assert res.exit_code == 0 and f"Hand {n}: " in res.output
    assert invoke("show", games, "--hand", str(n + 1)).exit_code == 2
    table = _one_csv_table(invoke("show", games, "--format", "csv"))
    assert table["hand"].tolist() == list(range(1, n + 1))
    last = json.loads(invoke("show", games, "--hand", str(n), "--format", "json").stdout)
    assert last["format"] == "cinch-hand/1"  # one hand of the game, on its own
    game = json.loads(invoke("show", games, "--format", "json").stdout)
    assert game["format"] == "cinch-game/1" and game["hands"][-1]["tricks"] == last["tricks"]


@pytest.mark.parametrize("command", ["compare", "ladder", "report", "simulate", "advise", "solve"])
def test_every_long_command_states_its_cost_in_help(command):
    """A user decides from --help whether to wait: the commands that can run for minutes
    say how long (compare and ladder share one paragraph, with PIMC's cost)."""
    res = invoke(command, "--help")
    assert res.exit_code == 0
    text = " ".join(res.output.split())
    said = (" s a ", " s each", " ms a ", "about a second", "about 40 s")
    assert any(w in text for w in said), text
    if command in ("compare", "ladder"):
        assert "a PIMC side about 10 s a 100 games" in text


def test_the_command_list_says_each_command_whole():
    """click cuts a command's first sentence at 45 characters ("...in duplicate games
    to the..."): every command names its own short help, whole."""
    listed = invoke("--help").output.split("Commands:")[1].splitlines()
    rows = [ln.split(None, 1) for ln in listed if ln.strip()]
    assert {name for name, _ in rows} >= {"advise", "compare", "ladder", "merge", "simulate"}
    assert all(not text.endswith("...") for _, text in rows), rows
