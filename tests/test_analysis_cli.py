"""``cinch-sim stats`` through click's CliRunner: tables, files, formats, bad input."""

from __future__ import annotations

import json

import pandas as pd
import pytest
from click.testing import CliRunner

from cinch_sim.cli.main import main
from cinch_sim.views import INTERRUPTED

HANDS = ["--hands", "3000", "--seed", "4"]


def run(*args):
    return CliRunner().invoke(main, ["stats", *args], catch_exceptions=False)


def one_line_error(result, text):
    """A usage error: exit 2, click's usage lines and one ``Error:`` line naming it."""
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.output.splitlines() if ln.startswith("Error:")]
    assert len(lines) == 1 and text in lines[0], result.output
    assert "Traceback" not in result.output


def test_tables_on_stdout():
    r = run(*HANDS, "--by", "trumps", "--by", "pedros")
    assert r.exit_code == 0, r.output
    out = r.output
    assert out.startswith("3,000 hands, seed 4")
    for title in (
        "[make_rate_by_bid]",
        "[make_rate_by_trumps]",
        "[make_rate_by_pedros]",
        "[make_rate_by_seat]",
        "[make_rate_by_hand_and_bid]",
        "[pedro_capture]",
        "[pedro_by_trick]",
        "[points]",
        "[score_by_bid]",
    ):
        assert title in out
    assert "make rate [95%]" in out and "hands" in out
    assert "fewer than 30 hands" in out  # low-n rows are starred and explained
    assert out.count("make_rate_by_trumps_and_bid]") == 1  # by pedros too: its own table
    assert "Rules: standard; policies: bid=heuristic, trump=heuristic" in out


def test_by_trumps_the_table_for_each_bid_given_the_hand_is_printed_once():
    """By trumps (the default) it is the table by trumps and bid: one table, both names
    (it was printed twice); the CSV files keep both names."""
    out = run(*HANDS).output
    assert out.count("[make_rate_by_hand_and_bid, make_rate_by_trumps_and_bid]") == 1
    assert out.count("make_rate_by_trumps_and_bid") == 1


def test_json_and_csv_formats():
    r = run(*HANDS, "--format", "json")
    assert r.exit_code == 0
    d = json.loads(r.output)
    assert d["summary"]["hands"] == 3000 and d["seed"] == 4
    by_bid = pd.DataFrame(d["tables"]["make_rate_by_bid"])
    assert by_bid["hands"].sum() == d["summary"]["played"]
    r = run(*HANDS, "--format", "csv", "--table", "make_rate_by_seat")
    assert r.exit_code == 0
    lines = r.output.strip().splitlines()
    assert lines[0].startswith("seat,hands,made,make_rate,make_rate_lo,make_rate_hi")
    assert len(lines) == 5  # header and four seats
    assert sum(int(ln.split(",")[1]) for ln in lines[1:]) == 3000


def test_out_writes_tables_charts_and_run_json(tmp_path):
    out = tmp_path / "o"
    r = run(*HANDS, "--out", str(out), "--table", "points")
    assert r.exit_code == 0, r.output
    names = {p.name for p in out.iterdir()}
    for stem in ("make_rate_by_bid", "make_rate_heatmap", "pedro_capture", "points"):
        assert {f"{stem}.png", f"{stem}.svg"} <= names
    assert {"run.json", "make_rate_by_bid.csv", "pedro_capture.csv", "score_by_bid.csv"} <= names
    assert not [n for n in names if n.endswith(".tmp")]
    meta = json.loads((out / "run.json").read_text())
    assert meta["command"] == "stats" and meta["hands"] == 3000 and meta["by"] == ["trumps"]
    assert meta["policies"]["bid"] == ["heuristic"] * 4 and "versions" in meta
    assert (out / "make_rate_by_bid.png").read_bytes()[:4] == b"\x89PNG"
    assert b"3,000 hands" in (out / "points.svg").read_bytes()  # the caption
    csv = pd.read_csv(out / "make_rate_by_bid.csv")
    assert csv["hands"].sum() == 3000 and "low_n" in csv


def test_every_csv_marks_small_classes(tmp_path):
    out = tmp_path / "o"
    r = run(*HANDS, "--out", str(out), "--by", "trumps", "--by", "pedros", "--no-charts")
    assert r.exit_code == 0, r.output
    flagged = 0
    for f in sorted(out.glob("*.csv")):
        t = pd.read_csv(f)
        assert t["low_n"].dtype == bool, f.name
        assert pd.api.types.is_integer_dtype(t["hands"]), f.name
        flagged += int(t["low_n"].sum())
    assert flagged > 0  # 3,000 hands leave some classes small


def test_out_refuses_to_overwrite_without_force(tmp_path):
    out = tmp_path / "o"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    r = run(*HANDS, "--out", str(out), "--no-charts")
    one_line_error(r, "'--out'")
    assert "--force" in r.output
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    # --force replaces an earlier run's files only: keep.txt is no output of ours
    one_line_error(run(*HANDS, "--out", str(out), "--no-charts", "--force"), "'--out'")
    assert [p.name for p in out.iterdir()] == ["keep.txt"]
    (out / "keep.txt").unlink()
    assert run(*HANDS, "--out", str(out), "--no-charts").exit_code == 0
    r = run(*HANDS, "--out", str(out), "--no-charts", "--force")
    assert r.exit_code == 0
    assert (out / "run.json").exists() and not (out / "points.png").exists()


def test_hand_data_to_parquet(tmp_path):
    pytest.importorskip("pyarrow")
    out = tmp_path / "o"
    r = run(*HANDS, "--out", str(out), "--no-charts", "--hand-data", "--format", "json")
    assert r.exit_code == 0, r.output
    df = pd.read_parquet(out / "hands.parquet")
    assert len(df) == 3000
    assert {
        "bid",
        "made",
        "seat",
        "trumps",
        "pedros",
        "honours",
        "right_pedro_fate",
        "left_pedro_trick",
    } <= set(df.columns)
    by_bid = pd.read_csv(out / "make_rate_by_bid.csv").set_index("bid")
    assert df.groupby("bid")["made"].sum().to_dict() == by_bid["made"].to_dict()


def test_bad_input_gives_one_line_errors(tmp_path):
    one_line_error(run(*HANDS, "--by", "colour"), "'--by': 'colour' is not one of")
    one_line_error(run(*HANDS, "--table", "nope"), "'--table': 'nope' is not one of")
    one_line_error(run(*HANDS, "--hand-data"), "'--hand-data': needs --out")
    one_line_error(run(*HANDS, "--bid-policy", "nosuch"), "'--bid-policy': unknown bid policy")


def test_help_lists_stats():
    r = CliRunner().invoke(main, ["--help"])
    assert "stats" in r.output
    r = CliRunner().invoke(main, ["stats", "--help"])
    assert "--by FEATURE" in r.output and "--hand-data" in r.output


def test_what_a_resume_adds_is_kept_by_the_next_resume(tmp_path):
    """stats --resume DIR --card-values used to run the card values and not record the
    option, so the next plain --resume DIR deleted their files from the folder."""
    out = tmp_path / "run"
    base = ["stats", "--hands", "4000", "--chunk", "1000", "--no-charts", "--out", str(out)]
    assert CliRunner().invoke(main, base).exit_code == 0
    added = ["stats", "--resume", str(out), "--card-values", "--card-values-hands", "200"]
    first = CliRunner().invoke(main, [*added, "--no-charts"])
    assert first.exit_code == 0, first.output
    assert (out / "card_values.csv").exists()
    again = CliRunner().invoke(main, ["stats", "--resume", str(out)])
    assert again.exit_code == 0, again.output
    assert (out / "card_values.csv").exists()
    assert "card_values.csv" in json.loads((out / "run.json").read_text())["files"]
    # how one sitting prints (--table, --format) is that sitting's, never the run's
    once = CliRunner().invoke(main, ["stats", "--resume", str(out), "--table", "points"])
    assert once.exit_code == 0 and "Bid success by bid level" not in once.output
    later = CliRunner().invoke(main, ["stats", "--resume", str(out)])
    assert "Bid success by bid level" in later.output and "card_values" in later.output


def test_merge_says_it_leaves_card_values_out(tmp_path):
    """Card values are played after the chunks, so a merge cannot add them up: it says
    so, where it used to drop them without a word."""
    a, b = tmp_path / "a", tmp_path / "b"
    run = ["stats", "--hands", "2000", "--chunk", "1000", "--no-charts"]
    cards = ["--card-values", "--card-values-hands", "100"]
    assert CliRunner().invoke(main, [*run, "--seed", "1", *cards, "--out", str(a)]).exit_code == 0
    assert CliRunner().invoke(main, [*run, "--seed", "2", "--out", str(b)]).exit_code == 0
    merged = CliRunner().invoke(main, ["merge", str(a), str(b), "--out", str(tmp_path / "m")])
    assert merged.exit_code == 0, merged.output
    assert f"card values not merged (from {a})" in merged.output
    # both were saved --no-charts: so is the merge (it drew them all before)
    assert not list((tmp_path / "m").glob("*.png"))
    from cinch_sim.cli.commands.merge import _drew_no_charts

    c = tmp_path / "c"  # a run that drew its charts: the merge draws them too
    c.mkdir()
    (c / "run.json").write_text(json.dumps({"charts": ["make_rate_by_bid.png"]}))
    assert _drew_no_charts([a, b]) and not _drew_no_charts([a, c])


def test_a_ctrl_c_in_the_card_values_says_so_everywhere(tmp_path, monkeypatch):
    # The hands are whole, the card values' replays are cut short: stdout opens with
    # the interruption, stderr says what was kept, run.json and the JSON say so (the
    # table of card values read as a whole study before).
    import cinch_sim.api as api

    real = api.card_values

    def cut(*args, **kwargs):
        def ctrl_c(n: int) -> None:  # Ctrl-C as the first chunk of replays is done
            raise KeyboardInterrupt

        return real(*args, **{**kwargs, "progress": ctrl_c})

    monkeypatch.setattr(api, "card_values", cut)
    out = tmp_path / "cv"
    args = ["--hands", "2000", "--card-values", "--card-values-hands", "3000", "--no-charts"]
    r = CliRunner().invoke(main, ["stats", *args, "--out", str(out)])
    assert r.exit_code == 130, r.output
    first = r.output.splitlines()[0]
    assert first.startswith(INTERRUPTED) and first.endswith(
        " of 3,000 hands of the card values (the other tables: every hand)"
    )
    assert "kept the 2,000 finished hands and the card values of " in r.output
    settings = json.loads((out / "run.json").read_text())
    assert settings["interrupted"] is True and settings["card_values"]["interrupted"] is True
    assert settings["card_values"]["hands_played"] < 3000
    r = CliRunner().invoke(main, ["stats", *args, "--format", "json"])
    cv = json.loads(r.output.splitlines()[0])["card_values_settings"]
    assert r.exit_code == 130 and cv["interrupted"] is True
