"""Long runs (issue 21, parts 1, 2 and 5): chunked runs that resume exactly after a
Ctrl-C or a kill, and statistics that merge exactly and associatively.

The killed runs are real child processes: one stops itself with a real SIGINT
while its third chunk runs, one with SIGKILL half-way through writing its third
chunk's file. Each is resumed with the command it printed (or the same one) and
its folder must then hold the same files, byte for byte but for the timing
fields, as a run that was never stopped.
"""

from __future__ import annotations

import json
import os
import random
import shlex
import subprocess
import sys
from pathlib import Path

import click
import numpy as np
import pytest
from click.testing import CliRunner

import cinch_sim
from cinch_sim import api
from cinch_sim.checks import InputError
from cinch_sim.cli.main import main
from cinch_sim.engine.run import PolicySet
from cinch_sim.matches.pairs import same_stats
from cinch_sim.rules import make_rules
from cinch_sim.runs import kinds, work
from cinch_sim.runs.store import chunk_name, pack, unpack

ROOT = Path(cinch_sim.__file__).resolve().parents[1]
TIMING = ("seconds",)  # the fields a resumed run may differ in


def _without_timing(x):
    if isinstance(x, dict):
        return {k: _without_timing(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [_without_timing(v) for v in x]
    return x


def _files(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative name; JSON with its timing fields out."""
    out = {}
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            data = p.read_bytes()
            if p.suffix == ".json":
                data = json.dumps(_without_timing(json.loads(data)), sort_keys=True).encode()
            out[p.relative_to(folder).as_posix()] = data
    return out


def _same_folders(a: Path, b: Path) -> None:
    fa, fb = _files(a), _files(b)
    assert sorted(fa) == sorted(fb)
    differ = [name for name in fa if fa[name] != fb[name]]
    assert differ == []


def _cli(*args: str) -> None:
    res = CliRunner().invoke(main, list(args))
    assert res.exit_code == 0, res.output


# A child that runs the command line and stops itself inside its third chunk: a real
# SIGINT (recorded, obeyed once the chunk is saved) or a SIGKILL half-way through the
# chunk file's write (what a power cut does).
CHILD = """
import os, signal, sys
from cinch_sim.runs import store, work
how = sys.argv.pop(1)
count = work.count_hands
seen = []
def count_then_ctrl_c(run, key, on_rows=None):
    out = count(run, key, on_rows)
    seen.append(key)
    if len(seen) == 3:
        signal.raise_signal(signal.SIGINT)
    return out
write = store.write_output
def write_half_then_die(path, data):
    if str(path).endswith("c000002.npz"):
        from cinch_sim.outputs import Output
        out = Output(path)
        out.write(data[: len(data) // 2])
        out.file.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    write(path, data)
if how == "int":
    work.count_hands = count_then_ctrl_c
else:
    store.write_output = write_half_then_die
from cinch_sim.cli.main import main
from cinch_sim.engine.run import PolicySet
main(sys.argv[1:], prog_name="cinch-sim")
"""


def _child(how: str, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", CHILD, how, *args],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


STATS = ["stats", "--hands", "6000", "--chunk", "1000", "--seed", "3", "--by", "pedros"]
STATS += ["--no-charts"]  # charts come from the tables (the merge test draws them)


def test_a_run_stopped_by_ctrl_c_resumes_to_the_same_files(tmp_path):
    _cli(*STATS, "--out", str(tmp_path / "whole"))
    p = _child("int", [*STATS, "--out", "cut"], tmp_path)
    assert p.returncode == 130, p.stderr[-1500:]
    assert "Traceback" not in p.stderr
    cut = tmp_path / "cut"
    assert sorted(x.name for x in (cut / "chunks").iterdir()) == [
        chunk_name((i,)) for i in range(3)
    ]  # the chunk in hand when Ctrl-C came was finished and saved, no more
    assert json.loads((cut / "run.json").read_text())["summary"]["hands"] == 3000
    (line,) = [x for x in p.stderr.splitlines() if "resume with:" in x]
    command = shlex.split(line.split("resume with: ", 1)[1])
    assert command == ["cinch-sim", "stats", "--resume", "cut"]  # the manifest has the rest
    res = subprocess.run(
        [sys.executable, "-m", "cinch_sim", *command[1:]], cwd=tmp_path, text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr[-1500:]
    _same_folders(tmp_path / "whole", cut)


SIMULATE = ["simulate", "--hands", "5000", "--chunk", "1000", "--seed", "4"]


def test_a_killed_run_leaves_no_half_file_and_resumes_to_the_same_files(tmp_path):
    _cli(*SIMULATE, "--out", str(tmp_path / "whole"))
    p = _child("kill", [*SIMULATE, "--out", "cut"], tmp_path)
    assert p.returncode == -9, p.stderr[-1500:]
    cut = tmp_path / "cut"
    names = sorted(x.name for x in (cut / "chunks").iterdir())
    assert [n for n in names if not n.startswith(".")] == [chunk_name((0,)), chunk_name((1,))]
    assert len(names) == 3  # and the temporary file of the third, never renamed into place
    for n in names[1:]:
        unpack(cut / "chunks" / n)  # the two finished ones read whole
    assert not (cut / "run.json").exists()
    _cli(*SIMULATE, "--resume", str(cut))  # the options repeated: the same run
    _same_folders(tmp_path / "whole", cut)  # the stale temporary file is gone too


def test_every_command_resumes_from_any_chunks_it_kept(tmp_path):
    """A kill can leave any set of chunk files (the files are the truth, not the
    manifest): drop some, resume, get the uninterrupted run's files."""
    runs = {
        "compare": ["compare", "greedy", "random", "--games", "40", "--chunk", "3"],
        "ladder": ["ladder", "greedy", "random", "simple", "--games", "12", "--chunk", "2",
                   "--bootstrap", "20"],
        "cutthroat": ["compare", "greedy", "random", "--games", "30", "--chunk", "2",
                      "--variant", "cutthroat3"],
    }  # fmt: skip
    for name, args in runs.items():
        whole, cut = tmp_path / f"{name}-whole", tmp_path / f"{name}-cut"
        _cli(*args, "--seed", "2", "--out", str(whole))
        _cli(*args, "--seed", "2", "--out", str(cut))
        chunks = sorted((cut / "chunks").iterdir())
        for p in random.Random(name).sample(chunks, len(chunks) // 2):
            p.unlink()
        _cli(args[0], "--resume", str(cut))  # alone: the arguments too come from the manifest
        _same_folders(whole, cut)


def test_a_resume_with_other_settings_is_refused_naming_the_difference(tmp_path):
    out = tmp_path / "run"
    _cli(*SIMULATE, "--out", str(out))
    before = _files(out)
    res = CliRunner().invoke(main, [*SIMULATE[:-1], "5", "--resume", str(out)])
    assert res.exit_code == 2
    assert "Invalid value for '--resume'" in res.output
    assert "settings.seed was 4, not 5" in res.output
    res = CliRunner().invoke(main, [*SIMULATE, "--play-policy", "greedy", "--resume", str(out)])
    assert res.exit_code == 2 and "settings.policies.play" in res.output
    res = CliRunner().invoke(main, [*SIMULATE, "--records", "x.jsonl", "--resume", str(out)])
    assert res.exit_code == 2 and "Invalid value for '--records'" in res.output
    res = CliRunner().invoke(main, ["stats", *SIMULATE[1:], "--resume", str(out)])
    assert res.exit_code == 2 and 'command was "simulate", not "stats"' in res.output
    res = CliRunner().invoke(main, [*SIMULATE, "--resume", str(tmp_path)])
    assert res.exit_code == 2 and "holds no manifest.json" in res.output
    # compare --resume DIR alone: the folder's problem, not the strategies left unnamed
    res = CliRunner().invoke(main, ["compare", "--resume", str(tmp_path / "none")])
    assert res.exit_code == 2 and "Invalid value for '--resume'" in res.output
    assert "none holds no manifest.json" in res.output and "Missing argument" not in res.output
    assert _files(out) == before  # nothing touched


# ------------------------------------------------------------------- merging
def _chunk_aggregates(run, play):
    return [(key, play(run, key)) for key in run.keys()]


def _random_merge(kind, parts, rng):
    """Merge contiguous parts in a random bracketing: split at random, merge each side
    the same way, then the two sides (left before right: the chunk order)."""
    if len(parts) == 1:
        return kind.merge(kind.empty(), parts[0])
    cut = rng.randrange(1, len(parts))
    return kind.merge(_random_merge(kind, parts[:cut], rng), _random_merge(kind, parts[cut:], rng))


@pytest.mark.parametrize("what", ["hands", "pairs", "rotations"])
def test_merging_is_exact_and_associative_over_random_splits(what):
    r = api.resolve_rules({})
    if what == "hands":
        pols = PolicySet.from_specs(4, play={0: "greedy"})
        run = work.HandsRun(r, pols.describe(), 5, 3000, 3, chunk=250)
        play = work.count_hands
    else:
        rules = api._rules(None, "cutthroat3") if what == "rotations" else r
        from cinch_sim.policies.strategies import resolve_strategy

        a, b = resolve_strategy("greedy"), resolve_strategy("random")
        run = work.MatchRun(rules, a, b, 5, 60, chunk=2)
        play = work.play_match
    kind = kinds.kind_of(run)
    parts = [agg for _, agg in _chunk_aggregates(run, play)]
    assert len(parts) >= 10
    whole = kind.empty()
    for p in parts:  # one after the other, as a run merges them
        whole = kind.merge(whole, p)
    if what == "hands":  # and the counts do not depend on the chunk size at all
        one = play(work.HandsRun(r, run.policies, 5, 3000, 3, chunk=10**6), (0,))
        assert kind.same(whole, one)
    for seed in range(8):
        rng = random.Random(seed)
        merged = _random_merge(kind, parts, rng)
        assert kind.same(merged, whole)
        # and through the chunk file: a merged aggregate written and read is the same
        back = kind.from_arrays(unpack_bytes(pack(kind.to_arrays(merged))))
        assert kind.same(back, whole)


def unpack_bytes(data: bytes):
    import io

    with np.load(io.BytesIO(data)) as z:
        return {k: z[k] for k in z.files}


def test_hand_counts_are_whole_numbers_so_any_order_gives_the_same_bits():
    r = api.resolve_rules({})
    pols = PolicySet.from_specs(4)
    run = work.HandsRun(r, pols.describe(), 1, 2000, 3, chunk=200)
    parts = [agg for _, agg in _chunk_aggregates(run, work.count_hands)]
    kind = kinds.kind_of(run)
    forward = kind.empty()
    for p in parts:
        kind.merge(forward, p)
    backward = kind.empty()
    for p in reversed(parts):
        kind.merge(backward, p)
    assert forward._sums.dtype == np.int64 and kind.same(forward, backward)


def test_merge_of_seeds_is_the_same_in_any_order_and_bracketing(tmp_path):
    args = ["compare", "greedy", "random", "--games", "10", "--chunk", "2"]
    for seed in (1, 2, 3):
        _cli(*args, "--seed", str(seed), "--out", str(tmp_path / f"s{seed}"))
    s1, s2, s3 = (str(tmp_path / f"s{seed}") for seed in (1, 2, 3))
    _cli("merge", s1, s2, s3, "--out", str(tmp_path / "all"))
    _cli("merge", s2, s1, "--out", str(tmp_path / "m21"))
    _cli("merge", s3, str(tmp_path / "m21"), "--out", str(tmp_path / "again"))
    _same_folders(tmp_path / "all", tmp_path / "again")
    summary = json.loads((tmp_path / "all" / "summary.json").read_text())
    assert summary["games"] == 30 and summary["seed"] == 1
    assert [p["seed"] for p in summary["merged"]] == [1, 2, 3]
    assert summary["merged"][0]["pairs"] == [[0, 0, 5]]
    one = [json.loads((tmp_path / f"s{s}" / "summary.json").read_text()) for s in (1, 2, 3)]
    assert summary["a_wins"] == sum(x["a_wins"] for x in one)
    games = (tmp_path / "all" / "games.csv").read_text().splitlines()
    assert len(games) == 31  # a header and every game of the three runs
    # each game names the seed and the pair under it that deal it again
    assert games[0].startswith("seed,pair,game,")
    rows = [line.split(",")[:3] for line in games[1:]]
    assert rows[0] == ["1", "0", "1"] and rows[9] == ["1", "4", "2"]
    assert rows[10] == ["2", "0", "1"] and rows[29] == ["3", "4", "2"]


def test_merge_prints_the_tables_its_command_prints(tmp_path):
    """A merged simulate run prints what simulate prints (a review found only the
    headline): the bid table and the Pedros, over both runs' hands, its first line
    naming both seeds and no time (the runs' own are not kept)."""
    import re

    for seed in (1, 2):
        _cli("simulate", "--hands", "300", "--seed", str(seed), "--out", str(tmp_path / f"s{seed}"))
    one = CliRunner().invoke(main, ["simulate", "--hands", "300", "--seed", "1"]).output
    res = CliRunner().invoke(main, ["merge", str(tmp_path / "s1"), str(tmp_path / "s2"),
                                    "--out", str(tmp_path / "both")])  # fmt: skip
    assert res.exit_code == 0, res.output
    first, *rest = res.output.splitlines()
    assert first.startswith("600 hands, seeds 1, 2, dealer seat 3")
    assert not re.search(r"; \d+\.\d\d s$", first)
    # the same sections in the same order as one run's output
    titles = [line for line in one.splitlines() if line.startswith(("Bid success", "Pedro"))]
    assert [line for line in rest if line.startswith(("Bid success", "Pedro"))] == titles
    hands = sum(int(line.split()[1].replace(",", "")) for line in rest
                if re.match(r"^\s+\d+\s+[\d,]+\s", line))  # fmt: skip
    assert hands == 600  # every contract of both runs in the bid table


def test_merge_writes_the_same_bytes_whatever_the_parts_chunks(tmp_path):
    # runs of other chunk sizes: the merged manifest took the first-named folder's
    a, b = tmp_path / "a", tmp_path / "b"
    _cli("simulate", "--hands", "600", "--seed", "1", "--chunk", "200", "--out", str(a))
    _cli("simulate", "--hands", "300", "--seed", "2", "--chunk", "37", "--out", str(b))
    _cli("merge", str(a), str(b), "--out", str(tmp_path / "ab"))
    _cli("merge", str(b), str(a), "--out", str(tmp_path / "ba"))
    _same_folders(tmp_path / "ab", tmp_path / "ba")


@pytest.mark.parametrize("variant", ["sancho_classic", "dom_pedro"])
def test_compare_runs_of_a_game_with_other_key_cards_merge(variant, tmp_path):
    """sancho_classic has one Pedro and Sancho, dom_pedro two Pedros, Sancho and Dom:
    the match keeps a column pair per key card, so its chunks merge (the classic
    presets' chunks were refused as unreadable) and the sides' table names each card;
    each card's in-play and taken counts add up over the seeds."""
    args = ["compare", "heuristic", "simple", "--variant", variant, "--games", "8"]
    for seed in (1, 2):
        _cli(*args, "--seed", str(seed), "--out", str(tmp_path / f"s{seed}"))
    _cli("merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m"))
    one = [json.loads((tmp_path / f"s{s}" / "summary.json").read_text()) for s in (1, 2)]
    merged = json.loads((tmp_path / "m" / "summary.json").read_text())
    names = [n for n, _ in make_rules(variant).key_cards]
    assert "sancho" in names
    for name in names:
        for side in ("a_side", "b_side"):
            rates = [x[side][f"{name}_capture"] for x in (*one, merged)]
            assert all(0 <= r <= 1 for r in rates), (name, side, rates)
            assert min(rates[:2]) <= rates[2] <= max(rates[:2])  # a pooled rate lies between


def test_merge_refuses_other_settings_and_the_same_chunk_twice(tmp_path):
    a, b, c = (str(tmp_path / n) for n in "abc")
    _cli(*SIMULATE, "--out", a)
    _cli(*SIMULATE[:-1], "9", "--play-policy", "greedy", "--out", b)
    _cli(*SIMULATE[:-1], "9", "--chunk", "500", "--out", c)  # seed 9, another chunk size
    res = CliRunner().invoke(main, ["merge", a, b, "--out", str(tmp_path / "m")])
    assert res.exit_code == 2
    assert "is not a run of" in res.output and "settings.policies.play" in res.output
    res = CliRunner().invoke(main, ["merge", a, a, "--out", str(tmp_path / "m")])
    assert res.exit_code == 2 and "both hold seed 4's hands 0..4999" in res.output
    res = CliRunner().invoke(main, ["merge", a, c, "--out", str(tmp_path / "m")])
    assert res.exit_code == 0, res.output  # different seeds merge, whatever their chunks
    # stats runs by other features: named as --by, not as the manifest's own key
    from cinch_sim import api

    d, e = str(tmp_path / "d"), str(tmp_path / "e")
    api.stats(hands=300, seed=1, by="pedros", save=d)
    api.stats(hands=300, seed=2, by="trumps", save=e)
    with pytest.raises(ValueError, match=r"by\[0\] was \"pedros\", not \"trumps\"") as caught:
        api.merge([d, e])
    assert "shown" not in str(caught.value)
    sim = api.merge([a, c])
    assert sim.hands == 10_000 and sim.settings["merged"][1] == {"seed": 9, "hands": [[0, 0, 5000]]}
    with pytest.raises(InputError, match="both hold seed 9"):
        api.merge([str(tmp_path / "m"), c])  # a merged folder's parts count too


def test_merged_stats_write_what_a_stats_run_writes(tmp_path):
    args = ["stats", "--hands", "2000", "--chunk", "1000", "--no-charts", "--by", "seat"]
    _cli(*args, "--seed", "1", "--out", str(tmp_path / "a"))
    _cli(*args, "--seed", "2", "--out", str(tmp_path / "b"))
    _cli("merge", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "m"))
    names = {p.name for p in (tmp_path / "a").iterdir()}
    merged = {p.name for p in (tmp_path / "m").iterdir()}
    assert names <= merged  # and, as the runs were saved --no-charts, no chart:
    assert not any(n.endswith(".png") for n in merged)
    run = json.loads((tmp_path / "m" / "run.json").read_text())
    assert run["summary"]["hands"] == 4000 and run["by"] == ["seat"]
    assert "make_rate_by_seat.csv" in run["tables"]


def test_a_chunk_file_has_the_same_bytes_each_time():
    r = api.resolve_rules({})
    run = work.HandsRun(r, PolicySet.from_specs(4).describe(), 1, 500, 3, chunk=500)
    agg = work.count_hands(run, (0,))
    assert pack(agg.to_arrays()) == pack(work.count_hands(run, (0,)).to_arrays())


def test_same_stats_tells_a_different_pair():
    from cinch_sim.matches.pairs import PairStats

    a = PairStats(pair_score=[np.array([0.5, 1.0])])
    b = PairStats(pair_score=[np.array([0.5, 0.75])])
    assert same_stats(a, a) and not same_stats(a, b)


# ------------------------------------------------------------ the executor seam
class Backwards:
    """An executor that finishes the chunks last first, as a cluster might, each
    work item sent through pickle as it would be to another process."""

    def map(self, work, keys):
        import pickle

        for key in reversed(list(keys)):
            yield key, pickle.loads(pickle.dumps(work))(key)


@pytest.mark.parametrize("what", ["hands", "match", "ladder"])
def test_completion_order_and_pickling_change_no_number(what, tmp_path):
    from functools import partial

    from cinch_sim.policies.strategies import resolve_strategy
    from cinch_sim.runs.driver import run_chunks
    from cinch_sim.runs.executor import LocalExecutor
    from cinch_sim.runs.store import ChunkStore

    r = api.resolve_rules({})
    a, b, c = (resolve_strategy(n) for n in ("greedy", "random", "simple"))
    if what == "hands":
        run = work.HandsRun(r, PolicySet.from_specs(4).describe(), 2, 1200, 3, chunk=300)
        fn = partial(work.count_hands, run)
    elif what == "match":
        run = work.MatchRun(r, a, b, 2, 24, chunk=3)
        fn = partial(work.play_match, run)
    else:
        run = work.LadderRun(r, (a, b, c), 2, 8, chunk=2, matchups=((0, 1), (0, 2), (1, 2)))
        fn = partial(work.play_ladder, run)
    kind = kinds.kind_of(run)
    local, _ = run_chunks(run, fn, kind, executor=LocalExecutor(1))
    head = {"format": "cinch-run/1", "command": what}
    store = ChunkStore.create(tmp_path / "s", head, run.keys())
    backwards, interrupted = run_chunks(run, fn, kind, store, Backwards())
    assert not interrupted and kind.same(local, backwards)
    again, _ = run_chunks(run, fn, kind, ChunkStore.resume(tmp_path / "s", head, run.keys()))
    assert kind.same(local, again)  # every chunk read back from its file


def test_progress_counts_every_game_of_a_ladder():
    told = []
    api.ladder(["greedy", "random", "simple"], games=12, seed=1, bootstrap=0, chunk=2,
               progress=told.append)  # fmt: skip
    assert sum(told) == 3 * 12 and told[0] == 4  # a chunk of two pairs: four games


def test_a_resume_alone_takes_the_manifests_options_and_refuses_a_changed_one(tmp_path):
    """``--resume DIR`` alone: every option the --out run was given comes back from its
    manifest (but where it ran and what does not resume); one given that changes a
    setting is refused, one that only changes the printing is obeyed."""
    args = ["simulate", "--hands", "3000", "--chunk", "1000", "--seed", "6", "--rule",
            "robber=dealer", "--play-policy", "0=greedy", "--format", "json"]  # fmt: skip
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    _cli(*args, "--out", str(whole))
    _cli(*args, "--out", str(cut), "--threads", "1", "--force")
    kept = json.loads((cut / "manifest.json").read_text())["command_line"]
    assert kept["command"] == "simulate" and "threads" not in kept["options"]
    assert "out" not in kept["options"] and "force" not in kept["options"]
    (cut / "chunks" / chunk_name((1,))).unlink()
    res = CliRunner().invoke(main, ["simulate", "--resume", str(cut), "--format", "csv"])
    assert res.exit_code == 0, res.output
    assert res.stdout.startswith("bid,")  # the printing obeys what is given now
    _same_folders(whole, cut)
    res = CliRunner().invoke(main, ["simulate", "--resume", str(cut), "--hands", "4000"])
    assert res.exit_code == 2 and "settings.hands was 3000, not 4000" in res.output


def test_the_resume_command_is_the_command_and_its_folder():
    from cinch_sim.cli.options import resume_command

    with click.Context(click.Command("stats"), info_name="stats"):
        assert resume_command(Path("big")) == "cinch-sim stats --resume big"
    with click.Context(click.Command("simulate"), info_name="simulate"):
        assert resume_command(Path("my run")) == "cinch-sim simulate --resume 'my run'"


def test_slow_players_run_in_small_chunks_for_the_same_numbers(tmp_path):
    """Where a seat plays a slow built-in (dd, pimc) the default chunk is small, so
    progress shows every few seconds and Ctrl-C keeps nearly all; a chunk given is
    kept, and the numbers are those of one big chunk."""
    from cinch_sim.policies.strategies import BUILTIN
    from cinch_sim.runs.chunks import SLOW_HANDS_CHUNK, SLOW_PAIRS_CHUNK, plays_slowly

    assert plays_slowly([BUILTIN["heuristic"], BUILTIN["pimc_infer"]])
    assert not plays_slowly([BUILTIN["heuristic"], BUILTIN["greedy"]])

    hands = 2 * SLOW_HANDS_CHUNK + 10
    seen: list[int] = []
    small = api.simulate(hands=hands, seed=4, play={1: "dd"}, progress=seen.append)
    assert seen == [SLOW_HANDS_CHUNK, SLOW_HANDS_CHUNK, 10]  # told once a chunk
    big = api.simulate(hands=hands, seed=4, play={1: "dd"}, chunk=hands)
    assert small.table().equals(big.table())
    quick: list[int] = []
    api.simulate(hands=hands, seed=4, progress=quick.append)
    assert quick == [hands]  # the heuristic's hands: one chunk

    cheap_pimc = tmp_path / "cheap_pimc.toml"  # pimc solving two deals a decision
    cheap_pimc.write_text('name = "cheap_pimc"\nbase = "pimc"\n[play]\nparams = { samples = 2 }\n')
    games: list[int] = []
    api.compare(str(cheap_pimc), "heuristic", games=4 * SLOW_PAIRS_CHUNK + 4, seed=3,
                progress=games.append)  # fmt: skip
    assert games == [2 * SLOW_PAIRS_CHUNK, 2 * SLOW_PAIRS_CHUNK, 4]  # games, a chunk at a time


def test_a_slow_cutthroat_match_chunks_about_as_many_games_as_a_pairs_match():
    """A cut-throat rotation is a game a seat, so a slow match's default chunk holds
    fewer rotations the more seats: six-seat chunks of 16 rotations (96 games) left a
    PIMC match silent for ten minutes. Nothing is played: only the runs' chunks."""
    from cinch_sim.policies.strategies import BUILTIN
    from cinch_sim.rules import make_rules
    from cinch_sim.runs.chunks import PAIRS_CHUNK, SLOW_MATCH_GAMES, SLOW_PAIRS_CHUNK
    from cinch_sim.runs.work import LadderRun

    pimc, greedy = BUILTIN["pimc"], BUILTIN["greedy"]
    for preset, slow in (("standard", 16), ("cutthroat3", 11), ("cutthroat6", 5)):
        rules = make_rules(preset)
        run = LadderRun(rules, (pimc, greedy), 1, 1000, matchups=((0, 1),))
        match = run.match(0)
        assert match.chunk == slow
        assert abs(match.chunk * match.per_unit - SLOW_MATCH_GAMES) <= match.per_unit / 2
        fast = LadderRun(rules, (greedy, BUILTIN["random"]), 1, 1000, matchups=((0, 1),))
        assert fast.match(0).chunk == PAIRS_CHUNK
    assert SLOW_PAIRS_CHUNK == 16


def test_a_ladder_takes_each_matchups_own_default_chunk():
    """A slow player's matchups run in small chunks, the others in big ones (one
    chunk size for the whole ladder made every matchup small); a chunk given is kept
    for all. Only the runs' chunk keys are looked at: nothing is played."""
    from cinch_sim.matches.ladder import matchup_order
    from cinch_sim.policies.strategies import BUILTIN
    from cinch_sim.rules import Rules
    from cinch_sim.runs.chunks import PAIRS_CHUNK, SLOW_PAIRS_CHUNK
    from cinch_sim.runs.work import LadderRun

    strats = (BUILTIN["pimc"], BUILTIN["greedy"], BUILTIN["random"])
    order = tuple(matchup_order(Rules(), 3))
    games = 2 * PAIRS_CHUNK + 2
    pairs = (games + 1) // 2  # 1,001 a matchup: two big chunks, 63 small ones
    run = LadderRun(Rules(), strats, 1, games, matchups=order)
    for m, (i, j) in enumerate(order):
        slow = 0 in (i, j)  # pimc is strategy 0
        chunk = SLOW_PAIRS_CHUNK if slow else PAIRS_CHUNK
        assert run.match(m).chunk == chunk
        assert len([k for k in run.keys() if k[0] == m]) == -(-pairs // chunk)
    given = LadderRun(Rules(), strats, 1, games, chunk=100, matchups=order)
    assert {given.match(m).chunk for m in range(len(order))} == {100}


def test_a_resumed_run_reports_every_sittings_time(tmp_path):
    """The manifest keeps the seconds played so far, and a resumed run adds them to its
    own: a run stopped after 1,000 s and resumed reports more than 1,000 s, not only
    the minutes of its last sitting."""
    folder = tmp_path / "run"
    first = api.simulate(hands=3000, chunk=1000, seed=4, save=folder)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert 0 < manifest["seconds"] < 1000 and first.seconds < 1000
    manifest["seconds"] = 1000.0  # as if the first sitting had taken that long
    (folder / "manifest.json").write_text(json.dumps(manifest))
    (folder / "chunks" / chunk_name((2,))).unlink()  # its last chunk left to play
    again = api.simulate(hands=3000, chunk=1000, seed=4, resume=folder)
    assert 1000 < again.seconds < 1000 + 600
    assert json.loads((folder / "manifest.json").read_text())["seconds"] > 1000
    assert again.table("by_bid").equals(first.table("by_bid"))  # the same run
    # a finished run resumed to print its tables again plays nothing and adds no time
    said = json.loads((folder / "manifest.json").read_text())["seconds"]
    once_more = api.simulate(hands=3000, chunk=1000, seed=4, resume=folder)
    assert once_more.seconds == said
    assert json.loads((folder / "manifest.json").read_text())["seconds"] == said


def test_merge_with_force_over_a_longer_run_keeps_only_its_own_chunks(tmp_path):
    # a run of 5 chunks, then a merge of two 1-chunk runs written over it with --force:
    # the merge's folder holds its 2 chunk files and lists only them
    big, a, b = (tmp_path / n for n in ("big", "a", "b"))
    _cli(*SIMULATE[:-1], "5", "--chunk", "1000", "--out", str(big))
    assert len(list((big / "chunks").glob("*.npz"))) == 5
    _cli(*SIMULATE[:-1], "6", "--hands", "1000", "--chunk", "1000", "--out", str(a))
    _cli(*SIMULATE[:-1], "7", "--hands", "1000", "--chunk", "1000", "--out", str(b))
    _cli("merge", str(a), str(b), "--out", str(big), "--force")
    chunks = sorted(p.name for p in (big / "chunks").glob("*.npz"))
    assert chunks == ["c000000.npz", "c000001.npz"]
    listed = json.loads((big / "run.json").read_text())["files"]
    assert [f for f in listed if f.startswith("chunks/")] == [f"chunks/{c}" for c in chunks]
    assert api.merge([str(big)]).hands == 2000


def test_a_taken_folder_suggests_resume_only_where_a_run_can_resume(tmp_path):
    run = tmp_path / "run"
    _cli(*SIMULATE, "--out", str(run))
    res = CliRunner().invoke(main, [*SIMULATE, "--out", str(run)])
    assert res.exit_code == 2 and "use --force to replace them" in res.output
    assert "resume" not in res.output  # a finished run: nothing to go on with
    manifest = run / "manifest.json"
    m = json.loads(manifest.read_text())
    manifest.write_text(json.dumps({**m, "complete": False}))  # as if stopped half-way
    # the hint names the command that can resume it, whichever command found it
    for command in (SIMULATE, ["report", "--quick"]):
        res = CliRunner().invoke(main, [*command, "--out", str(run)])
        assert res.exit_code == 2, res.output
        assert f"(or go on with its unfinished run: cinch-sim simulate --resume {run})" in (
            res.output.replace("\n", " ")
        )
    res = CliRunner().invoke(main, ["merge", str(run), "--out", str(run)])
    assert res.exit_code == 2 and "use --force to replace them" in res.output
    assert "resume" not in res.output  # merge has no --resume
    # stopped before its first chunk (a policy that failed at once): nothing to go on with
    for chunk in (run / "chunks").glob("*.npz"):
        chunk.unlink()
    res = CliRunner().invoke(main, [*SIMULATE, "--out", str(run)])
    assert res.exit_code == 2 and "use --force to replace them" in res.output
    assert "resume" not in res.output


def test_a_folder_of_someone_else_s_files_is_never_told_to_use_force(tmp_path):
    """A folder with the user's own files and no run.json of ours: --force will not
    replace them, so the first refusal says so at once (it said "use --force", and
    --force was then refused)."""
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("my notes")
    for force in ([], ["--force"]):
        res = CliRunner().invoke(main, ["simulate", "--hands", "10", "--out", str(mine), *force])
        assert res.exit_code == 2, res.output
        said = res.output.replace("\n", " ")
        assert "--force will not replace them; name an empty or new folder" in said
        assert "use --force" not in said
    assert (mine / "notes.txt").read_text() == "my notes" and len(list(mine.iterdir())) == 1


CRASH = """
from numba import njit
from cinch_sim.bits import lowbit_index
from cinch_sim.signatures import POLICY_SIG

@njit(POLICY_SIG)
def crash(obs, hand, legal, params, scratch, rng):
    return lowbit_index(legal) // (obs[0] - obs[0])
"""


def test_a_force_run_that_fails_leaves_the_earlier_run_whole(tmp_path):
    # the new run's policy divides by zero on its first card: no chunk of it is saved,
    # so the folder keeps the earlier run byte for byte, and it still merges
    bot = tmp_path / "crash.py"
    bot.write_text(CRASH)
    out = tmp_path / "run"
    _cli(*SIMULATE[:-1], "5", "--out", str(out))
    before = _files(out)
    res = CliRunner().invoke(main, [*SIMULATE, "--out", str(out), "--force",
                                    "--play-policy", f"{bot}:crash"])  # fmt: skip
    assert res.exit_code == 1 and "ZeroDivisionError" in res.output
    assert _files(out) == before
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".")) == []
    assert api.merge([str(out)]).hands == 5000


def test_a_force_run_stands_once_it_saved_a_chunk(tmp_path):
    # the store level: the earlier run is set aside, put back only when the new run
    # failed before saving a chunk, and dropped once a chunk of the new run is saved
    from cinch_sim.runs.store import ASIDE, ChunkStore

    out = tmp_path / "run"
    _cli(*SIMULATE[:-1], "5", "--out", str(out))
    before = _files(out)
    head = {"format": "cinch-run/1", "command": "test", "settings": {"seed": 6}}
    store = ChunkStore.create(out, head, [(0,), (1,)])
    assert [p.name for p in out.glob(f"{ASIDE}*")] == [f"{ASIDE}{os.getpid()}"]
    assert list((out / "chunks").iterdir()) == []
    store.settle(failed=True)
    assert _files(out) == before and not list(out.glob(f"{ASIDE}*"))
    store = ChunkStore.create(out, head, [(0,), (1,)])
    store.save((0,), {"x": np.arange(3)})
    store.close()
    store.settle(failed=True)
    assert not list(out.glob(f"{ASIDE}*"))
    assert json.loads((out / "manifest.json").read_text())["settings"] == {"seed": 6}
    assert [p.name for p in (out / "chunks").iterdir()] == ["c000000.npz"]
    # a store made and never run (an error between), then another in the same process
    ChunkStore.create(out, head, [(0,)])
    ChunkStore.create(out, head, [(0,)]).settle(failed=False)
    assert not list(out.glob(f"{ASIDE}*"))


def test_a_refused_merge_makes_no_folder_and_one_string_is_not_a_list(tmp_path):
    one = tmp_path / "one"
    _cli(*SIMULATE[:-1], "5", "--hands", "1000", "--out", str(one))
    out = tmp_path / "new" / "merged"
    res = CliRunner().invoke(main, ["merge", str(one), str(one), "--out", str(out)])
    assert res.exit_code == 2 and "both hold seed 5" in res.output
    assert not (tmp_path / "new").exists()
    with pytest.raises(InputError, match=r"folders: .* is one string: give a list"):
        api.merge(str(one))
    assert api.merge([one], out=out).hands == 1000 and (out / "manifest.json").is_file()
