"""A chunked run's folder gone wrong, told in one line and never a traceback.

A chunk file that cannot be read back (cut short, not an archive, an array missing
or of the wrong shape) is played again by ``--resume``, with a warning naming it,
and refused by ``merge`` naming it and the command that replays it. A refused
resume or merge names another preset as such, not by the first rule it sets; and
a folder ``merge`` wrote is refused by ``--resume`` as what it is.
"""

from __future__ import annotations

import os
import subprocess
import sys
from inspect import signature
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from test_runs import _files  # every file of a folder, JSON without its timing

import cinch_sim
from cinch_sim import api
from cinch_sim.checks import InputError
from cinch_sim.cli.main import main
from cinch_sim.runs.store import DamagedChunk, chunk_name, first_difference, pack, unpack

ROOT = Path(cinch_sim.__file__).resolve().parents[1]
_APART = {"mix_stderr": False} if "mix_stderr" in signature(CliRunner).parameters else {}
SIMULATE = ["simulate", "--hands", "20000", "--chunk", "5000", "--seed", "1"]


def _run(*args: str):
    return CliRunner(**_APART).invoke(main, list(args))


def _ok(*args: str):
    res = _run(*args)
    assert res.exit_code == 0, res.output
    return res


def _one_line_refusal(res, *words: str) -> str:
    """The usage error's line (exit 2, no traceback), which must say every one of ``words``."""
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit) and "Traceback" not in res.output
    (line,) = [x for x in res.output.splitlines() if x.startswith("Error:")]
    for w in words:
        assert w in line, line
    return line


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:100])


def _not_a_zip(path: Path) -> None:
    path.write_bytes(b"not a chunk\n")


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _array_missing(path: Path) -> None:
    arrays = unpack(path)
    del arrays[sorted(arrays)[0]]
    path.write_bytes(pack(arrays))


def _wrong_shape(path: Path) -> None:
    arrays = unpack(path)
    name = sorted(arrays)[-1]
    arrays[name] = np.zeros((3, 2), np.int64)
    path.write_bytes(pack(arrays))


def _too_few(path: Path) -> None:
    """A readable chunk of hands that holds fewer hands than its key."""
    arrays = unpack(path)
    arrays["totals"] = arrays["totals"] - np.array([1, 0, 0])
    path.write_bytes(pack(arrays))


DAMAGES = [_truncate, _not_a_zip, _empty, _array_missing, _wrong_shape]


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """A simulate run that was never stopped: what a resumed one must write."""
    out = tmp_path_factory.mktemp("whole") / "run"
    _ok(*SIMULATE, "--out", str(out))
    return out


# ------------------------------------------------------------ a damaged chunk
@pytest.mark.parametrize("damage", [*DAMAGES, _too_few], ids=lambda f: f.__name__.strip("_"))
def test_a_resume_plays_an_unreadable_chunk_again(damage, whole, tmp_path):
    cut = tmp_path / "cut"
    _ok(*SIMULATE, "--out", str(cut))
    bad = cut / "chunks" / chunk_name((1,))
    damage(bad)
    res = _ok("simulate", "--resume", str(cut))
    warned = [x for x in res.stderr.splitlines() if "cannot be read" in x]
    assert len(warned) == 1 and str(bad) in warned[0] and "playing its chunk again" in warned[0]
    assert "Traceback" not in res.stderr
    assert _files(cut) == _files(whole)  # the chunk played again: the same bytes


@pytest.mark.parametrize("damage", DAMAGES, ids=lambda f: f.__name__.strip("_"))
def test_merge_refuses_an_unreadable_chunk_naming_it_and_the_replay(damage, tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    _ok(*SIMULATE, "--out", str(a))
    _ok(*SIMULATE[:-1], "2", "--out", str(b))
    bad = a / "chunks" / chunk_name((2,))
    damage(bad)
    res = _run("merge", str(a), str(b), "--out", str(tmp_path / "m"))
    _one_line_refusal(res, "Invalid value for 'DIRS'", str(bad), "cannot be read",
                      f"cinch-sim simulate --resume {a}")  # fmt: skip
    assert not any((tmp_path / "m").rglob("*.*"))  # nothing merged written
    _ok("simulate", "--resume", str(a))  # which mends it: the merge goes through
    _ok("merge", str(a), str(b), "--out", str(tmp_path / "m"))
    damage(a / "chunks" / chunk_name((0,)))
    with pytest.raises(InputError, match=r"c000000.npz cannot be read .*--resume"):
        api.merge([str(a), str(b)])  # the API's refusal says it too


def test_merge_refuses_a_manifest_edited_into_nonsense(tmp_path):
    import json

    a, b = tmp_path / "a", tmp_path / "b"
    _ok(*SIMULATE, "--out", str(a))
    _ok(*SIMULATE[:-1], "2", "--out", str(b))
    manifest = json.loads((a / "manifest.json").read_text())
    manifest["settings"]["hands"] = "lots"  # was a TypeError's traceback
    (a / "manifest.json").write_text(json.dumps(manifest))
    res = _run("merge", str(a), str(b), "--out", str(tmp_path / "m"))
    _one_line_refusal(res, "Invalid value for 'DIRS'", "manifest.json does not describe a run")
    assert not any((tmp_path / "m").rglob("*.*"))


def test_unpack_names_the_file_whatever_numpy_raises(tmp_path):
    path = tmp_path / chunk_name((0,))
    noise = np.random.default_rng(1).integers(0, 2**62, 2000)  # does not compress
    good = pack({"x": noise})
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 1  # inside the data: its checksum fails
    for data in (b"", good[:10], good[:100], good[: len(good) // 2], good[:-1], bytes(flipped)):
        path.write_bytes(data)
        with pytest.raises(DamagedChunk) as err:
            unpack(path)
        assert err.value.path == str(path) and str(path) in str(err.value)
        assert "\n" not in str(err.value) and len(err.value.why) <= 100
    path.write_bytes(good)
    assert np.array_equal(unpack(path)["x"], noise)


def test_merge_refuses_an_unreadable_part_of_a_merged_folder(tmp_path):
    a, b, m = tmp_path / "a", tmp_path / "b", tmp_path / "m"
    _ok(*SIMULATE, "--out", str(a))
    _ok(*SIMULATE[:-1], "2", "--out", str(b))
    _ok("merge", str(a), str(b), "--out", str(m))
    part = m / "chunks" / chunk_name((1,))
    _truncate(part)
    res = _run("merge", str(m), "--out", str(tmp_path / "again"))
    _one_line_refusal(res, str(part), "cannot be read", "merge the runs it was merged from again")
    part.unlink()
    with pytest.raises(InputError, match="c000001.npz cannot be read .No such file"):
        api.merge([str(m)])


def test_a_match_and_a_ladder_play_a_damaged_chunk_again(tmp_path):
    runs = {
        "compare": ["compare", "greedy", "random", "--games", "12", "--chunk", "2"],
        "cutthroat": ["compare", "greedy", "random", "--games", "12", "--chunk", "1",
                      "--variant", "cutthroat3"],
        "ladder": ["ladder", "greedy", "random", "simple", "--games", "8", "--chunk", "2",
                   "--bootstrap", "10"],
    }  # fmt: skip
    for name, args in runs.items():
        full, cut = tmp_path / f"{name}-whole", tmp_path / f"{name}-cut"
        _ok(*args, "--seed", "2", "--out", str(full))
        _ok(*args, "--seed", "2", "--out", str(cut))
        chunks = sorted((cut / "chunks").iterdir())
        _truncate(chunks[1])
        _wrong_shape(chunks[-1])
        res = _run("merge", str(cut), "--out", str(tmp_path / f"{name}-m"))
        _one_line_refusal(res, str(chunks[1]), f"cinch-sim {args[0]} --resume {cut}")
        res = _ok(*args, "--seed", "2", "--resume", str(cut))
        warned = [x for x in res.stderr.splitlines() if "cannot be read" in x]
        assert [str(chunks[1]) in warned[0], str(chunks[-1]) in warned[1]] == [True, True]
        assert _files(cut) == _files(full), name


def test_the_warning_is_one_line_on_the_real_stderr(tmp_path):
    cut = tmp_path / "cut"
    _ok(*SIMULATE, "--out", str(cut))
    _not_a_zip(cut / "chunks" / chunk_name((3,)))
    p = subprocess.run(
        [sys.executable, "-m", "cinch_sim", "simulate", "--resume", "cut"], cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert p.returncode == 0, p.stderr[-1500:]
    assert "Traceback" not in p.stderr
    assert [x for x in p.stderr.splitlines() if "cannot be read" in x] == [
        f"warning: {Path('cut') / 'chunks' / chunk_name((3,))} cannot be read "
        "(not an .npz archive): playing its chunk again"
    ]


# ------------------------------------------------------------ the preset first
def test_another_preset_is_named_as_such(tmp_path):
    run, pidro = tmp_path / "run", tmp_path / "pidro"
    _ok(*SIMULATE, "--out", str(run))
    res = _run("simulate", "--resume", str(run), "--variant", "sancho")
    _one_line_refusal(res, "Invalid value for '--resume'",
                      'settings.rules.preset was "standard", not "sancho"')  # fmt: skip
    _ok(*SIMULATE[:-1], "2", "--variant", "pidro", "--out", str(pidro))
    res = _run("merge", str(run), str(pidro), "--out", str(tmp_path / "m"))
    _one_line_refusal(res, 'settings.rules.preset was "standard", not "pidro"')
    res = _run("merge", str(pidro), str(run), "--out", str(tmp_path / "m"))
    _one_line_refusal(res, 'settings.rules.preset was "pidro", not "standard"')
    # the same preset: the rest as before, in the settings' order
    res = _run("simulate", "--resume", str(run), "--rule", "robber=dealer")
    _one_line_refusal(res, "settings.rules.robber")


def test_first_difference_takes_the_command_then_the_preset_then_the_order():
    def head(command="simulate", preset="standard", bid_max=14, seed=1):
        rules = {"bid_max": bid_max, "preset": preset}
        return {"command": command, "settings": {"seed": seed, "rules": rules}}

    assert first_difference(head(), head()) is None
    assert first_difference(head(), head(preset="sancho", bid_max=23, seed=2)) == (
        'settings.rules.preset was "standard", not "sancho"'
    )
    assert first_difference(head(), head("stats", "sancho")) == (
        'command was "simulate", not "stats"'
    )
    assert first_difference(head(), head(bid_max=13, seed=2)) == "settings.seed was 1, not 2"
    assert first_difference({"settings": {}}, {"settings": {"rules": {}}}) == (
        "settings.rules is set in only one of them"
    )
    # lists: of other lengths, told by count; of one length, the first entry that
    # differs, each value cut to a line
    a = {"strategies": [{"name": "greedy", "params": [0.5] * 40}, {"name": "simple"}]}
    b = {"strategies": [{"name": "greedy", "params": [0.5] * 39}, {"name": "simple"}]}
    assert first_difference(a, b) == "strategies[0].params holds 40 entries, not 39 entries"
    said = first_difference({"p": a["strategies"][0]["params"]}, {"p": 7})
    assert said.startswith("p was [0.5, 0.5,") and len(said) < 200  # cut to a line
    b["strategies"][0]["params"] = [0.5] * 39 + [0.25]
    assert first_difference(a, b) == "strategies[0].params[39] was 0.5, not 0.25"
    # lists of other lengths (a ladder of other strategies): told by count and by name
    assert first_difference(a, {"strategies": a["strategies"][:1]}) == (
        "strategies holds 2 entries (greedy, simple), not 1 entry (greedy)"
    )
    assert first_difference({"x": [1, 2]}, {"x": [1]}) == "x holds 2 entries, not 1 entry"


# ------------------------------------------------------------ a merged folder
def test_a_merged_folder_is_not_resumed(tmp_path):
    a, b, m = tmp_path / "a", tmp_path / "b", tmp_path / "m"
    _ok(*SIMULATE, "--out", str(a))
    _ok(*SIMULATE[:-1], "2", "--out", str(b))
    _ok("merge", str(a), str(b), "--out", str(m))
    before = _files(m)
    for extra in ([], ["--hands", "40000"], ["--hands", "20000", "--seed", "1"]):
        res = _run("simulate", "--resume", str(m), *extra)
        _one_line_refusal(res, "Invalid value for '--resume'", "cannot be resumed",
                          "resume each run it merged, then merge them again")  # fmt: skip
        assert "settings." not in res.output
    with pytest.raises(InputError, match="merged folder cannot be resumed"):
        api.simulate(hands=20000, seed=1, chunk=5000, resume=m)
    assert _files(m) == before  # nothing touched


def test_a_merged_match_is_refused_before_its_strategies_are_missed(tmp_path):
    args = ["compare", "greedy", "random", "--games", "8", "--chunk", "2"]
    a, b, m = tmp_path / "a", tmp_path / "b", tmp_path / "m"
    _ok(*args, "--seed", "1", "--out", str(a))
    _ok(*args, "--seed", "2", "--out", str(b))
    _ok("merge", str(a), str(b), "--out", str(m))
    res = _run("compare", "--resume", str(m))
    _one_line_refusal(res, "cannot be resumed")
    assert "Missing argument" not in res.output
