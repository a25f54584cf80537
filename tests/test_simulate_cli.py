"""``cinch-sim simulate`` and the policy loader: output forms, files, and bad input
(one-line errors, non-zero exit, never a traceback)."""

from __future__ import annotations

import json
import textwrap

import pytest
from click.testing import CliRunner

from cinch_sim.cli.main import main

POLICY_FILE = textwrap.dedent(
    """
    from numba import njit
    from cinch_sim.signatures import POLICY_SIG
    from cinch_sim.bits import lowbit_index

    @njit(POLICY_SIG, cache=True)
    def lowest(obs, hand, legal, params, scratch, rng):
        return lowbit_index(legal)

    @njit(POLICY_SIG, cache=True)
    def illegal(obs, hand, legal, params, scratch, rng):
        return 60

    @njit(POLICY_SIG, cache=True)
    def boom(obs, hand, legal, params, scratch, rng):
        if obs[17] == 2:
            raise ValueError("my policy broke")
        return lowbit_index(legal)

    @njit
    def two_args(a, b):
        return a + b

    def not_jitted(obs, hand, legal, params, scratch, rng):
        return 0
    """
)


def run(*args: str):
    return CliRunner().invoke(main, ["simulate", *args])


@pytest.fixture(scope="module")
def policy_file(tmp_path_factory):
    p = tmp_path_factory.mktemp("pol") / "mypolicies.py"
    p.write_text(POLICY_FILE)
    return p


def test_table_output_names_seats_relative_to_the_dealer():
    res = run("--hands", "2000", "--seed", "1")
    assert res.exit_code == 0, res.output
    assert "0=eldest, 1=second, 2=third, 3=dealer" in res.output
    assert "Bid success" in res.output and "Pedro capture" in res.output


def test_bids_made_on_few_hands_are_starred_as_stats_stars_them():
    """A bid chosen on fewer than FEW_HANDS hands (here 12 and 13: 1 and 2 hands, worked
    out from this seed's table) is starred with a line saying why; a bid on many is not."""
    from cinch_sim.analysis.intervals import FEW_HANDS

    res = run("--hands", "2000", "--seed", "7", "--rule", "robber=dealer", "--threads", "1")
    assert res.exit_code == 0, res.output
    rows = {ln.split()[0]: ln for ln in res.output.splitlines() if ln.strip()[:2].isdigit()}
    counts = {b: int(r.split()[1].replace(",", "")) for b, r in rows.items()}
    assert any(n < FEW_HANDS for n in counts.values()), counts  # the seed still has some
    for bid, line in rows.items():
        assert line.rstrip().endswith("*") == (counts[bid] < FEW_HANDS), line
    few = sum(n < FEW_HANDS for n in counts.values())
    assert f"* {few} row(s) with fewer than {FEW_HANDS} hands: read with care" in res.output


def test_json_has_the_promised_keys_and_counts_every_hand():
    res = run("--hands", "3000", "--seed", "2", "--format", "json", "--rule", "robber=dealer")
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    for key in ("hands", "seed", "rules", "policies", "by_bid", "pedros"):
        assert key in d
    assert d["hands"] == 3000 and d["rules"]["robber"] == "dealer"
    assert sum(r["hands"] for r in d["by_bid"]) + d["thrown_in"] == 3000


def test_same_seed_same_output_any_thread_count():
    a = run("--hands", "3000", "--seed", "9", "--format", "csv", "--threads", "1")
    b = run("--hands", "3000", "--seed", "9", "--format", "csv", "--threads", "2")
    assert a.exit_code == b.exit_code == 0
    assert a.output == b.output


def test_out_writes_tables_and_run_json_and_refuses_to_overwrite(tmp_path):
    out = tmp_path / "run"
    assert run("--hands", "1000", "--out", str(out)).exit_code == 0
    tables = {"by_bid.csv", "pedros.csv", "run.json"}
    assert {p.name for p in out.iterdir()} == tables | {"manifest.json", "chunks"}  # the store
    assert [p.name for p in (out / "chunks").iterdir()] == ["c000000.npz"]  # one chunk
    settings = json.loads((out / "run.json").read_text())
    assert settings["files"] == sorted(tables | {"manifest.json", "chunks/c000000.npz"})
    assert settings["seed"] == 0 and settings["hands"] == 1000 and "versions" in settings
    before = (out / "by_bid.csv").read_text()
    res = run("--hands", "1000", "--seed", "5", "--out", str(out))
    assert res.exit_code != 0 and "--force" in res.output
    assert (out / "by_bid.csv").read_text() == before  # nothing touched
    assert run("--hands", "1000", "--seed", "5", "--out", str(out), "--force").exit_code == 0


def test_a_user_policy_plugs_in(policy_file):
    res = run("--hands", "1000", "--play-policy", f"{policy_file}:lowest", "--format", "json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["policies"]["play"] == [f"{policy_file}:lowest"] * 4


@pytest.mark.parametrize(
    "args, words",
    [
        (("--rule", "robber=nobody"), ["robber", "nobody"]),
        (("--rule", "robber"), ["NAME=VALUE"]),
        (("--rule", "colour=red"), ["unknown rule option", "colour"]),
        (("--rule", "bid_min=9", "--rule", "bid_max=3"), ["bid_min"]),
        (("--rule", "target=0"), ["target"]),
        (("--hands", "-5"), ["-5"]),
        (("--dealer", "7"), ["7"]),
        (("--bid-policy", "clever"), ["unknown bid policy", "clever"]),
        (("--play-policy", "9=random"), ["seat 9"]),
        (("--play-policy", "nosuchmodule:f"), ["nosuchmodule"]),
        (("--play-policy", "missing_file.py:f"), ["no such file"]),
    ],
)
def test_bad_input_is_one_line_and_non_zero(args, words):
    res = run("--hands", "100", *args)
    assert res.exit_code == 2  # a usage error, before any work
    assert "Traceback" not in res.output
    for w in words:
        assert w in res.output, res.output


@pytest.mark.parametrize(
    "fn, words, code",
    [
        ("illegal", ["illegal card 60", "seat 1", "second"], 1),  # found while playing
        ("boom", ["my policy broke", "seat 1"], 1),
        ("two_args", ["--play-policy", "does not compile"], 2),  # found before any work
        ("not_jitted", ["--play-policy", "not a numba function"], 2),
        ("absent", ["--play-policy", "has no function"], 2),
    ],
)
def test_a_broken_policy_is_named_with_its_seat(policy_file, fn, words, code):
    res = run("--hands", "500", "--play-policy", f"1={policy_file}:{fn}")
    assert res.exit_code == code
    assert "Traceback" not in res.output
    errors = [ln for ln in res.output.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1, res.output  # after click's usage lines for a usage error
    if code == 1:
        assert len(res.output.strip().splitlines()) == 1, res.output
    for w in words:
        assert w in errors[0], res.output


@pytest.mark.slow  # 7 s; test_runs and test_interrupts stop runs with Ctrl-C by default
def test_ctrl_c_keeps_the_finished_hands(tmp_path):
    """SIGINT mid-run: exit 130, tables, run.json and records hold exactly the finished hands."""
    import signal
    import subprocess
    import sys
    import time

    out, rec = tmp_path / "out", tmp_path / "hands.jsonl"
    cmd = [
        sys.executable,
        "-c",
        "from cinch_sim.cli.main import main; main()",
        "simulate",
        "--hands",
        "1000000000",
        "--out",
        str(out),
        "--format",
        "json",
        "--records",
        str(rec),
    ]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while not list(tmp_path.glob(".hands.jsonl.*")) and time.time() < deadline:
        time.sleep(0.2)  # the records' temporary file appears once the kernel runs
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    stdout, stderr = p.communicate(timeout=120)
    assert p.returncode == 130, stderr
    assert "interrupted" in stderr and "Traceback" not in stderr
    done = json.loads(stdout)["hands"]
    assert 0 < done < 1_000_000_000
    assert json.loads((out / "run.json").read_text())["hands_done"] == done
    with rec.open() as f:
        assert sum(1 for _ in f) == done  # every finished hand, none half-written
    assert not list(tmp_path.glob(".hands.jsonl.*"))  # the temporary file was renamed


@pytest.mark.parametrize("command", ["simulate", "stats", "advise"])
def test_dealer_is_checked_the_same_way_everywhere(command):
    what = (
        ["AS KS 5S 5C 2S 9H 3D 7C JD", "--seat", "2"] if command == "advise" else ["--hands", "9"]
    )
    res = CliRunner().invoke(main, [command, *what, "--dealer", "4"])
    assert res.exit_code == 2
    last = res.output.strip().splitlines()[-1]
    assert last == "Error: Invalid value for '--dealer': seat 4 is out of range 0..3"


def test_a_random_seed_run_resumes_with_the_seed_drawn(tmp_path):
    """--seed random --out DIR records the number drawn, not the word: the printed
    resume command used to draw a new seed and be refused ("settings.seed was ...")."""
    out = tmp_path / "run"
    args = ["simulate", "--hands", "20000", "--chunk", "5000", "--format", "json"]
    first = CliRunner().invoke(main, [*args, "--seed", "random", "--out", str(out)])
    assert first.exit_code == 0, first.output
    seed = json.loads(first.output)["seed"]
    stored = json.loads((out / "manifest.json").read_text())["command_line"]["options"]
    assert stored["seed"] == str(seed)
    again = CliRunner().invoke(main, ["simulate", "--resume", str(out), "--format", "json"])
    assert again.exit_code == 0, again.output
    assert json.loads(again.output)["seed"] == seed
