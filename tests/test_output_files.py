"""Every output goes through one writer (``cinch_sim.outputs``): what stands at the path
is respected (a symlink followed, a FIFO or device written through, ``-`` is stdout),
files get the mode ``open()`` would give them, no temporary file outlives its run,
one overwrite rule (``--force``) for every output, bad paths refused before any work,
and a closed pipe ends a command quietly."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import threading
from inspect import signature
from pathlib import Path

import pytest
from click.testing import CliRunner

import cinch_sim.outputs as outputs
from cinch_sim.cli.main import main

_APART = {"mix_stderr": False} if "mix_stderr" in signature(CliRunner).parameters else {}
HAND = "AS KS 5S 5C 2S 9H 3D 7C JD"
ADVISE = ["advise", HAND, "--seat", "2", "--precision", "0.1", "--max-hands", "300"]


def invoke(*args: str):
    return CliRunner(**_APART).invoke(main, list(args))


def usage_error(res, option: str, *words: str) -> str:
    """Exit 2 with one ``Error:`` line naming the option (and the words given), no
    traceback, no temporary file's name; returns the line."""
    assert res.exit_code == 2, res.output
    lines = [ln for ln in res.output.splitlines() if ln.startswith("Error: ")]
    assert len(lines) == 1, res.output
    assert f"'{option}'" in lines[0], lines[0]
    for w in words:
        assert w in lines[0], lines[0]
    assert "Traceback" not in res.output and "cinch-tmp" not in res.output
    assert ".tmp" not in lines[0], lines[0]
    return lines[0]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def dead_pid() -> int:
    """The PID of a process that has ended."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def records_in(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# ------------------------------------------------------------------ what stands there
def test_a_symlink_is_followed_its_target_replaced_and_the_link_kept(tmp_path):
    target = tmp_path / "real.jsonl"
    target.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target.name)
    res = invoke("simulate", "--hands", "20", "--records", str(link), "--format", "json")
    usage_error(res, "--records", str(link), "--force")  # the target exists
    assert target.read_text() == "old\n"
    res = invoke("simulate", "--hands", "20", "--records", str(link), "--force")
    assert res.exit_code == 0, res.output
    assert link.is_symlink() and os.readlink(link) == target.name
    assert len(records_in(target)) == 20
    assert leftovers(tmp_path) == []


def test_a_dangling_symlink_makes_its_target(tmp_path):
    link = tmp_path / "link.png"
    link.symlink_to("made.png")
    outputs.write_output(link, b"\x89PNG")
    assert link.is_symlink() and (tmp_path / "made.png").read_bytes() == b"\x89PNG"


def test_a_fifo_is_written_through_to_its_reader(tmp_path):
    fifo = tmp_path / "hands.jsonl"
    os.mkfifo(fifo)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as f:
            got.append(f.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    res = invoke("simulate", "--hands", "30", "--records", str(fifo), "--format", "json")
    reader.join(timeout=60)
    assert res.exit_code == 0, res.output  # no --force: a FIFO is not replaced
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    lines = got[0].decode().splitlines()
    assert len(lines) == 30 and json.loads(lines[0])["format"] == "cinch-hand/1"
    assert leftovers(tmp_path) == []


def test_a_character_device_is_written_through_not_replaced():
    before = os.stat("/dev/null")
    outputs.write_output("/dev/null", "nothing\n")
    after = os.lstat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert not [n for n in os.listdir("/dev") if outputs.TEMP_MARK in n]


def test_dash_is_stdout_and_the_results_go_to_stderr():
    res = invoke("simulate", "--hands", "25", "--records", "-", "--format", "json")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == 25 and all(json.loads(ln)["format"] == "cinch-hand/1" for ln in lines)
    assert json.loads(res.stderr.splitlines()[-1])["hands"] == 25  # the result, on stderr


def test_referee_writes_dash_to_stdout(tmp_path):
    hands = tmp_path / "hands.jsonl"
    assert invoke("simulate", "--hands", "5", "--records", str(hands)).exit_code == 0
    res = invoke("referee", str(hands), "--write", "-", "--format", "csv")
    assert res.exit_code == 0, res.output
    assert [json.loads(ln)["format"] for ln in res.stdout.splitlines()] == ["cinch-hand/1"] * 5
    assert res.stderr.startswith("line,kind,status")  # the verdicts make way


# ------------------------------------------------------------------ modes
@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600)])
def test_files_get_the_mode_open_would_give(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        res = invoke(
            "simulate", "--hands", "20", "--records", str(tmp_path / "h.jsonl"),
            "--out", str(tmp_path / "out"),
        )  # fmt: skip
        assert res.exit_code == 0, res.output
        made = [tmp_path / "h.jsonl", *(tmp_path / "out").rglob("*")]
        assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in made if p.is_file()} == {
            "h.jsonl": mode, "by_bid.csv": mode, "pedros.csv": mode, "run.json": mode,
            "manifest.json": mode, "c000000.npz": mode,  # the run's chunk store too
        }  # fmt: skip
        outputs.write_output(tmp_path / "a.csv", "x\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "a.csv").stat().st_mode) == mode


def test_a_replaced_file_keeps_its_mode(tmp_path):
    path = tmp_path / "keep.csv"
    path.write_text("old\n")
    path.chmod(0o640)
    outputs.write_output(path, "new\n")
    assert path.read_text() == "new\n" and stat.S_IMODE(path.stat().st_mode) == 0o640


# ------------------------------------------------------------------ no temp file left
class _OsWith:
    """``os`` as cinch_sim.outputs sees it, with ``fdopen`` giving a failing file."""

    def __init__(self, make):
        self._make = make

    def fdopen(self, fd, *args, **kwargs):
        return self._make(os.fdopen(fd, *args, **kwargs))

    def __getattr__(self, name):
        return getattr(os, name)


class _FullDisk:
    """A file on a disk that fills up: writes after the first ``ok`` fail (None: all
    are buffered), and so do flush and close (the buffered data cannot be written)."""

    def __init__(self, f, ok: int | None) -> None:
        self.f, self.ok = f, ok

    def _full(self):
        return OSError(errno.ENOSPC, "No space left on device")

    def write(self, data):
        if self.ok is not None:
            if self.ok <= 0:
                raise self._full()
            self.ok -= 1
        return self.f.write(data)

    def flush(self):
        raise self._full()

    def fileno(self):
        return self.f.fileno()

    def close(self):
        self.f.close()
        raise self._full()


def test_a_write_failing_mid_run_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(outputs, "os", _OsWith(lambda f: _FullDisk(f, ok=1)))
    path = tmp_path / "hands.jsonl"
    res = invoke("simulate", "--hands", "5000", "--records", str(path))  # 3 writes
    assert res.exit_code == 1, res.output
    assert f"cannot write {path}: No space left on device" in res.output
    assert "Traceback" not in res.output and "cinch-tmp" not in res.output
    assert list(tmp_path.iterdir()) == []


def test_a_close_failing_on_a_full_disk_leaves_no_temp_file(tmp_path, monkeypatch):
    hands = tmp_path / "in" / "hands.jsonl"
    hands.parent.mkdir()
    assert invoke("simulate", "--hands", "5", "--records", str(hands)).exit_code == 0
    out = tmp_path / "out"
    out.mkdir()
    monkeypatch.setattr(outputs, "os", _OsWith(lambda f: _FullDisk(f, ok=None)))
    res = invoke("referee", str(hands), "--write", str(out / "clean.jsonl"))
    assert res.exit_code == 2, res.output
    assert "No space left on device" in res.output and "Traceback" not in res.output
    assert list(out.iterdir()) == []


def test_an_interrupted_write_leaves_nothing(tmp_path):
    path = tmp_path / "x.csv"
    with pytest.raises(KeyboardInterrupt), outputs.Output(path) as out:
        out.write("half")
        raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_the_next_run_removes_a_killed_runs_temp_file(tmp_path):
    pid = dead_pid()
    path = tmp_path / "hands.jsonl"
    stale = tmp_path / f".hands.jsonl.cinch-tmp-{pid}-0badc0de"
    stale.write_text("405 MB of records\n")
    living = tmp_path / f".hands.jsonl.cinch-tmp-{os.getppid()}-0badc0de"
    living.write_text("another run, still going\n")
    other = tmp_path / f".notes.txt.cinch-tmp-{pid}-0badc0de"  # not this target's
    other.write_text("x")
    res = invoke("simulate", "--hands", "10", "--records", str(path))
    assert res.exit_code == 0, res.output
    assert not stale.exists() and living.exists() and other.exists()
    assert len(records_in(path)) == 10


def test_a_killed_runs_temp_file_does_not_block_its_out_folder(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / f".by_bid.csv.cinch-tmp-{dead_pid()}-12345678").write_text("x")
    res = invoke("simulate", "--hands", "10", "--out", str(out))  # no --force needed
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.iterdir()) == [
        "by_bid.csv", "chunks", "manifest.json", "pedros.csv", "run.json",
    ]  # fmt: skip


def test_force_removes_the_temp_files_earlier_versions_left(tmp_path):
    out = tmp_path / "out"
    assert invoke("simulate", "--hands", "10", "--out", str(out)).exit_code == 0
    (out / ".by_bid.csv.k2j_x9aq.tmp").write_text("x")  # mkstemp's name
    usage_error(invoke("simulate", "--hands", "10", "--out", str(out)), "--out", "--force")
    res = invoke("simulate", "--hands", "10", "--out", str(out), "--force")
    assert res.exit_code == 0, res.output
    assert leftovers(out) == []


# ------------------------------------------------------------------ one overwrite rule
def _existing(tmp_path: Path, name: str) -> Path:
    p = tmp_path / name
    p.write_bytes(b"mine\n")
    return p


@pytest.fixture(scope="module")
def hands_file(tmp_path_factory) -> Path:
    p = tmp_path_factory.mktemp("hands") / "hands.jsonl"
    assert invoke("simulate", "--hands", "5", "--records", str(p)).exit_code == 0
    return p


def _overwrite_cases(tmp_path: Path, hands_file: Path):
    """(option, arguments that write the path, the path)."""
    rec = _existing(tmp_path, "hands.jsonl")
    games = _existing(tmp_path, "games.jsonl")
    ladder = _existing(tmp_path, "ladder.jsonl")
    plot = _existing(tmp_path, "p.png")
    clean = _existing(tmp_path, "clean.jsonl")
    return [
        ("--records", ["simulate", "--hands", "10", "--records", str(rec)], rec),
        ("--records", ["compare", "greedy", "random", "--games", "2", "--records", str(games)],
         games),
        ("--records", ["ladder", "greedy", "random", "--games", "2", "--records", str(ladder)],
         ladder),
        ("--plot", [*ADVISE, "--plot", str(plot)], plot),
        ("--write", ["referee", str(hands_file), "--write", str(clean)], clean),
    ]  # fmt: skip


def test_every_file_option_refuses_an_existing_file_without_force(tmp_path, hands_file):
    for option, args, path in _overwrite_cases(tmp_path, hands_file):
        usage_error(invoke(*args), option, str(path), "already exists", "--force")
        assert path.read_bytes() == b"mine\n", option
        res = invoke(*args, "--force")
        assert res.exit_code == 0, (option, res.output)
        assert path.read_bytes() != b"mine\n", option
    assert leftovers(tmp_path) == []


def test_out_refuses_a_folder_with_files_and_force_replaces_an_earlier_run(tmp_path):
    out = tmp_path / "out"
    assert invoke("simulate", "--hands", "10", "--out", str(out)).exit_code == 0
    before = (out / "by_bid.csv").read_text()
    usage_error(invoke("simulate", "--hands", "10", "--out", str(out)), "--out", "--force")
    assert (out / "by_bid.csv").read_text() == before
    res = invoke("simulate", "--hands", "20", "--out", str(out), "--force")
    assert res.exit_code == 0, res.output
    run = json.loads((out / "run.json").read_text())
    assert run["hands"] == 20 and run["files"] == [
        "by_bid.csv", "chunks/c000000.npz", "manifest.json", "pedros.csv", "run.json",
    ]  # fmt: skip


def test_force_leaves_only_the_new_runs_files(tmp_path):
    out = tmp_path / "out"
    assert invoke("simulate", "--hands", "10", "--out", str(out)).exit_code == 0
    (out / "notes.txt").write_text("mine")  # not an output of ours: kept
    res = invoke("stats", "--hands", "200", "--out", str(out), "--no-charts", "--force")
    assert res.exit_code == 0, res.output
    files = json.loads((out / "run.json").read_text())["files"]
    assert "by_bid.csv" not in files and "make_rate_by_bid.csv" in files
    found = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert found == sorted([*files, "notes.txt"])


def test_force_by_a_run_with_no_store_removes_the_earlier_runs_store(tmp_path):
    # a report (no chunks) written with --force over a simulate run: the run's manifest
    # and chunks go with its other files, and the new run.json does not list them
    out = tmp_path / "out"
    assert invoke("simulate", "--hands", "10", "--out", str(out)).exit_code == 0
    outputs.prepare_out_dir(out, force=True)
    outputs.write_output(out / "report.md", "# report\n")
    outputs.write_run_json(out, {"command": "report"})
    assert json.loads((out / "run.json").read_text())["files"] == ["report.md", "run.json"]
    assert sorted(p.name for p in out.rglob("*")) == ["report.md", "run.json"]


def test_force_never_clears_a_folder_we_did_not_write(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "thesis.md").write_text("years of work")
    (home / "by_bid.csv").write_text("mine")
    res = invoke("simulate", "--hands", "10", "--out", str(home), "--force")
    usage_error(res, "--out", str(home), "run.json")
    assert sorted(p.name for p in home.iterdir()) == ["by_bid.csv", "thesis.md"]
    assert (home / "by_bid.csv").read_text() == "mine"


def test_force_replaces_exactly_what_run_json_lists_subfolders_too(tmp_path):
    out = tmp_path / "out"
    prepare_out_dir, write_output, write_run_json = (
        outputs.prepare_out_dir, outputs.write_output, outputs.write_run_json
    )  # fmt: skip
    first = prepare_out_dir(out, force=False)
    (first / "figures").mkdir()
    write_output(first / "figures" / "a.png", b"a")
    write_output(first / "report.md", "a")
    write_run_json(first, {"command": "first"})
    assert json.loads((out / "run.json").read_text())["files"] == [
        "figures/a.png", "report.md", "run.json",
    ]  # fmt: skip
    (out / "figures" / "mine.txt").write_text("x")
    (out / "tables").mkdir()
    (out / "tables" / "mine.csv").write_text("x")  # not listed: kept
    second = prepare_out_dir(out, force=True)
    assert (out / "figures" / "a.png").exists()  # nothing removed before the new run ends
    write_output(second / "report.md", "b")
    write_run_json(second, {"command": "second"})
    assert not (out / "figures" / "a.png").exists()
    assert (out / "figures" / "mine.txt").exists() and (out / "tables" / "mine.csv").exists()
    assert (out / "report.md").read_text() == "b"
    # a folder left with nothing of ours goes with its last file
    (out / "figures" / "mine.txt").unlink()
    third = prepare_out_dir(out, force=True)
    (third / "figures").mkdir(exist_ok=True)
    write_output(third / "figures" / "b.png", b"b")
    write_run_json(third, {"command": "third"})
    fourth = prepare_out_dir(out, force=True)
    write_run_json(fourth, {"command": "fourth"})
    assert not (out / "figures").exists()
    assert json.loads((out / "run.json").read_text())["files"] == ["run.json"]


def test_a_run_json_from_before_the_file_list_stands_for_our_kinds_of_file(tmp_path):
    out = tmp_path / "out"
    (out / "figures").mkdir(parents=True)
    (out / "figures" / "x.png").write_bytes(b"x")
    (out / "old.csv").write_text("x")
    (out / "notes.txt").write_text("x")
    (out / "run.json").write_text(json.dumps({"versions": {"cinch_sim": "0.1"}}))
    res = invoke("simulate", "--hands", "10", "--out", str(out), "--force")
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.iterdir()) == [
        "by_bid.csv", "chunks", "manifest.json", "notes.txt", "pedros.csv", "run.json",
    ]  # fmt: skip


# ------------------------------------------------------------------ checked before work
@pytest.fixture
def no_work(monkeypatch):
    """Every command's work, replaced by a call that fails the test."""
    import cinch_sim.api
    import cinch_sim.records.io

    def ran(*args, **kwargs):
        raise AssertionError("the work ran before the output path was checked")

    for name in ("simulate", "stats", "compare", "ladder", "advise", "report"):
        monkeypatch.setattr(cinch_sim.api, name, ran)
    monkeypatch.setattr(cinch_sim.records.io, "iter_referee_file", ran)


def _unwritable(tmp_path: Path) -> Path | None:
    """A folder this process cannot create files in (root ignores modes: /sys)."""
    d = tmp_path / "locked"
    d.mkdir()
    d.chmod(0o500)
    for folder in (d, Path("/sys")):
        try:
            (folder / "probe").touch()
        except OSError:
            return folder
        (folder / "probe").unlink()
    return None


def test_bad_output_paths_are_usage_errors_before_any_work(tmp_path, hands_file, no_work):
    a_file = _existing(tmp_path, "a_file")
    missing = tmp_path / "missing" / "x.jsonl"
    under_file = a_file / "x.jsonl"
    cases = [
        (["simulate", "--records", str(missing)], "--records", str(missing), "does not exist"),
        (["simulate", "--records", str(under_file)], "--records", str(under_file), "not a folder"),
        (["compare", "greedy", "random", "--records", str(missing)], "--records", str(missing),
         "does not exist"),
        (["ladder", "greedy", "random", "--records", str(missing)], "--records", str(missing),
         "does not exist"),
        ([*ADVISE, "--plot", str(tmp_path / "missing" / "p.png")], "--plot", "missing/p.png",
         "does not exist"),
        ([*ADVISE, "--plot", str(tmp_path / "p.xyz")], "--plot", "p.xyz", ".png"),
        (["referee", str(hands_file), "--write", str(missing)], "--write", str(missing),
         "does not exist"),
        (["referee", str(hands_file), "--write", str(tmp_path)], "--write", str(tmp_path),
         "directory"),  # click's own check
        (["simulate", "--out", str(a_file)], "--out", str(a_file), "is a file"),
        (["stats", "--out", str(a_file / "sub")], "--out", str(a_file / "sub"), "is a file"),
        (["ladder", "greedy", "random", "--out", str(a_file / "x" / "y")], "--out",
         str(a_file / "x" / "y"), "is a file"),
        (["report", "--out", str(a_file / "sub")], "--out", str(a_file / "sub"), "is a file"),
    ]  # fmt: skip
    locked = _unwritable(tmp_path)
    if locked is not None:
        cases.append(
            (["simulate", "--records", str(locked / "x.jsonl")], "--records",
             str(locked / "x.jsonl"), "cannot write")
        )  # fmt: skip
    for args, option, *words in cases:
        usage_error(invoke(*args), option, *words)
    assert not missing.parent.exists()
    if locked is not None and locked != Path("/sys"):
        locked.chmod(0o700)


def test_the_api_checks_its_output_paths_before_any_work(tmp_path, monkeypatch):
    import cinch_sim.api as api

    def ran(*args, **kwargs):
        raise AssertionError("the kernel ran")

    monkeypatch.setattr(api, "iter_chunks", ran)
    with pytest.raises(ValueError, match=r"^records: .*missing.* does not exist"):
        api.simulate(hands=100, records=tmp_path / "missing" / "x.jsonl")
    with pytest.raises(ValueError, match=r"^write: .* is a folder"):
        api.referee([], write=tmp_path)
    with pytest.raises(ValueError, match="force=True"):
        (tmp_path / "out").mkdir()
        (tmp_path / "out" / "x").write_text("x")
        api.report(hands=1000, games=2, out=tmp_path / "out")


# ------------------------------------------------------------------ closed pipes
def _closed_stdout(*args: str) -> tuple[int, str]:
    """Run the command with its stdout a pipe whose reader has already gone."""
    p = subprocess.Popen(
        [sys.executable, "-m", "cinch_sim", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=Path(__file__).parent.parent,
    )
    p.stdout.close()
    err = p.stderr.read().decode()
    return p.wait(), err


def test_a_closed_pipe_ends_every_command_quietly(hands_file):
    for args in (
        ["--help"],
        ["simulate", "--hands", "50", "--format", "csv", "--table", "by_bid"],
        ["referee", str(hands_file), "--format", "csv"],
        ["simulate", "--hands", "50", "--records", "-"],
    ):
        rc, err = _closed_stdout(*args)
        assert rc == 141, (args, rc, err)
        assert "Error" not in err and "Exception" not in err and "Broken pipe" not in err, err


@pytest.mark.parametrize("command", [
    ["simulate", "--hands", "50"],
    ["stats", "--hands", "50", "--no-charts"],
    ["compare", "greedy", "simple", "--games", "4"],
])  # fmt: skip
def test_a_closed_pipe_loses_no_file_of_out(tmp_path, command):
    # the files are the run's product: written before the tables go to stdout
    out = tmp_path / "out"
    rc, err = _closed_stdout(*command, "--out", str(out))
    assert rc == 141, err
    files = json.loads((out / "run.json").read_text())["files"]
    assert "manifest.json" in files and all((out / f).is_file() for f in files)
