"""CSV on stdout is one table that pandas reads whole; several tables go to --out."""

from __future__ import annotations

import io
from inspect import signature

import pandas as pd
import pytest
from click.testing import CliRunner

from cinch_sim.analysis.tables import make_rate, pedro_capture
from cinch_sim.api import analyse, simulate
from cinch_sim.cli.main import main

RUN = ["--hands", "2000", "--seed", "5"]


# stdout and stderr apart (click 8.2 keeps them apart by default; 8.1 needs the flag)
_APART = {"mix_stderr": False} if "mix_stderr" in signature(CliRunner).parameters else {}


def invoke(*args):
    return CliRunner(**_APART).invoke(main, list(args), catch_exceptions=False)


def test_simulate_csv_is_the_by_bid_table_and_table_chooses():
    sim = simulate(hands=2000, seed=5)
    r = invoke("simulate", *RUN, "--format", "csv")
    assert r.exit_code == 0
    df = pd.read_csv(io.StringIO(r.stdout))
    assert list(df.columns) == list(sim.by_bid().columns)
    assert df["bid"].tolist() == sim.by_bid()["bid"].tolist()  # no second header as data
    assert "pedros" in r.stderr  # says how to get the other table
    r = invoke("simulate", *RUN, "--format", "csv", "--table", "pedros")
    df = pd.read_csv(io.StringIO(r.stdout))
    assert list(df.columns) == list(sim.pedros().columns) and len(df) == len(sim.pedros())


def test_stats_csv_prints_the_one_table_named():
    counts = analyse(hands=2000, seed=5).counts
    r = invoke("stats", *RUN, "--format", "csv")
    assert r.exit_code == 0
    df = pd.read_csv(io.StringIO(r.stdout))
    assert df["hands"].sum() == make_rate(counts, "bid")["hands"].sum() == counts.played
    r = invoke("stats", *RUN, "--format", "csv", "--table", "pedro_capture")
    assert len(pd.read_csv(io.StringIO(r.stdout))) == len(pedro_capture(counts))


def test_two_tables_as_csv_is_a_usage_error_before_any_work():
    r = invoke(
        "stats", "--hands", "100000000", "--format", "csv",
        "--table", "make_rate_by_bid", "--table", "pedro_capture",
    )  # fmt: skip
    assert r.exit_code == 2
    assert "--format csv prints one table" in r.stderr and r.stdout == ""


@pytest.mark.parametrize("cmd", ["simulate", "compare", "ladder"])
def test_table_without_csv_is_refused_not_ignored(cmd):
    # it chose nothing: the table format prints every table, and said nothing of it
    args = {"simulate": ["--hands", "10"], "compare": ["greedy", "random", "--games", "2"],
            "ladder": ["greedy", "random", "--games", "2"]}[cmd]  # fmt: skip
    name = {"simulate": "pedros", "compare": "games", "ladder": "matchups"}[cmd]
    r = invoke(cmd, *args, "--table", name)
    assert r.exit_code == 2 and "Invalid value for '--table': chooses the one table" in r.output
