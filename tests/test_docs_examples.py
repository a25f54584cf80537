"""Every example output in README.md and docs/*.md is checked here, so none goes stale.

Each fenced block of the docs is of one kind, and each kind has one rule (a block
of another kind fails ``test_every_block_is_of_a_known_kind``):

- ```` ```pycon ````: a Python session, run as a doctest (``doctest.testfile``,
  ``ELLIPSIS | NORMALIZE_WHITESPACE``; ``...`` stands for the incidental part of
  an output). A file's sessions run in order, in one namespace, in a fresh
  temporary folder: the files they write go there.
- ```` ```console ````: the command line. Each ``$ cinch-sim ...`` line is run
  (click's ``CliRunner``; a file's blocks in order, in a fresh temporary
  folder) and what it prints must match the lines under it, as a doctest's
  output does; ``^C`` marks a Ctrl-C. A command too long for a test runs as its
  stand-in (``STAND_INS``: a small run of the same kind, stopped the same way),
  and then its words must match, numbers masked. A file a command reads is
  written first by ``SETUP``.
- ```` ```bash ````: commands to copy, no output shown (each line a command or a
  comment). ```` ```python ````: code to copy (a policy file, a sketch), no
  ``>>>``. ```` ```json ```` and ```` ```toml ````: records and strategy files
  (docs/records.md's example hand record is refereed below). ```` ```text ````:
  a picture (the package's layout).

Besides the blocks: the table of errors in docs/api.md is run row by row, in Python
and on the command line (``test_the_api_error_table``), and the worked intervals of
docs/statistics.md are computed again.

The pycon sessions keep their counts small: the whole module takes a few seconds
with the kernel cache warm, the Ctrl-C stand-in (a child process) a few more.
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import cinch_sim
from cinch_sim import api
from cinch_sim.cli.main import main

ROOT = Path(cinch_sim.__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
FENCE = re.compile(r"^(\s*)```(\S*)\s*$")
COMMANDS = ("cinch-sim ", "python ", "pip ", "pytest", "dask ", "NUMBA_CACHE_DIR=")


def blocks(path: Path) -> list[tuple[str, int, list[str]]]:
    """The fenced blocks of a Markdown file: (kind, first line number, lines), each
    line without the fence's indentation."""
    out, open_at, kind, indent, body = [], None, "", "", []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        m = FENCE.match(line)
        if open_at is None and m:
            open_at, indent, kind, body = n, m.group(1), m.group(2), []
        elif open_at is not None and line.strip() == "```":
            out.append((kind, open_at, body))
            open_at = None
        elif open_at is not None:
            body.append(line[len(indent) :] if line.startswith(indent) else line.lstrip())
    assert open_at is None, f"{path.name}: the block at line {open_at} is never closed"
    return out


def _docs_with(kind: str) -> list[Path]:
    return [p for p in DOCS if any(k == kind for k, _, _ in blocks(p))]


def _ids(paths: list[Path]) -> list[str]:
    return [p.relative_to(ROOT).as_posix() for p in paths]


def test_every_block_is_of_a_known_kind():
    wrong = []
    for path in DOCS:
        for kind, line, body in blocks(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            if kind not in ("pycon", "console", "bash", "python", "json", "toml", "text"):
                wrong.append(f"{where}: a block of kind {kind!r}")
            elif kind == "python" and any(x.startswith(">>>") for x in body):
                wrong.append(f"{where}: a session in a python block (make it pycon)")
            elif kind == "bash":
                wrong += [
                    f"{where}: {x!r} is no command (show output in a console block)"
                    for x in body
                    if x.strip() and not x.lstrip().startswith(("#", *COMMANDS))
                ]
    assert wrong == []


# ------------------------------------------------------------------ pycon
class MarkdownSessions(doctest.DocTestParser):
    """Reads a Markdown file's ```pycon blocks, and nothing else, as one docstring."""

    def parse(self, string, name="<string>"):
        sessions = re.findall(r"^```pycon\n(.*?)^```", string, flags=re.M | re.S)
        return super().parse("\n".join(sessions), name)


@pytest.mark.parametrize("path", _docs_with("pycon"), ids=_ids(_docs_with("pycon")))
def test_the_python_sessions(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = doctest.testfile(
        str(path), module_relative=False, parser=MarkdownSessions(), optionflags=FLAGS,
        globs={}, encoding="utf-8",
    )  # fmt: skip
    assert result.attempted > 0
    assert result.failed == 0, f"{path.name}: {result.failed} example(s) failed (above)"


# ---------------------------------------------------------------- console
def _record_example() -> dict:
    """docs/records.md's example hand record."""
    kind, _, body = blocks(ROOT / "docs" / "records.md")[1]
    assert kind == "json"
    return json.loads("\n".join(body))


def _bad_records(folder: Path) -> None:
    """bad.jsonl: the example record with seat 0 playing seat 3's 8H in the third trick,
    then a line that is not JSON."""
    record = _record_example()
    cards = record["tricks"][2]["cards"]
    cards[cards.index("7H")] = "8H"
    (folder / "bad.jsonl").write_text(json.dumps(record) + "\n{bid: 7}\n", encoding="utf-8")


SETUP = {"cinch-sim referee bad.jsonl": _bad_records}

# A child that runs the command line and sends itself a real Ctrl-C (SIGINT) while its
# third chunk of hands runs (the chunk is then finished and saved, as always).
CTRL_C_CHILD = """
import signal, sys
from cinch_sim.runs import work
count, seen = work.count_hands, []
def count_then_ctrl_c(run, key, on_rows=None):
    seen.append(key)
    if len(seen) == 3:
        signal.raise_signal(signal.SIGINT)
    return count(run, key, on_rows)
work.count_hands = count_then_ctrl_c
from cinch_sim.cli.main import main
main(sys.argv[1:], prog_name="cinch-sim")
"""

# The docs' commands too long for a test, each with a small run of the same kind.
STAND_INS = {
    "cinch-sim stats --hands 100000000 --chunk 1000000 --seed 3 --out big": [
        "stats", "--hands", "6000", "--chunk", "1000", "--seed", "3", "--out", "big",
        "--no-charts",
    ],
}  # fmt: skip


def _run(command: str, ctrl_c: bool) -> tuple[str, bool]:
    """What ``command`` prints (stdout, then stderr), and whether a stand-in ran it."""
    args = STAND_INS.get(command, shlex.split(command)[1:])
    if ctrl_c:
        p = subprocess.run(
            [sys.executable, "-c", CTRL_C_CHILD, *args], capture_output=True, text=True,
            env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=600,
        )  # fmt: skip
        assert p.returncode == 128 + signal.SIGINT or p.returncode == 130, p.stderr[-2000:]
        return p.stdout + p.stderr, command in STAND_INS
    res = CliRunner().invoke(main, args, prog_name="cinch-sim")
    return res.output, command in STAND_INS


def _mask(text: str) -> str:
    return re.sub(r"\d+(?:[.,]\d+)*", "#", text)


@pytest.mark.parametrize("path", _docs_with("console"), ids=_ids(_docs_with("console")))
def test_the_command_lines(path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    checker = doctest.OutputChecker()
    ran = 0
    for kind, line, body in blocks(path):
        if kind != "console":
            continue
        assert body and body[0].startswith("$ "), f"{path.name}:{line}: start with $ command"
        steps = []  # (command, the lines under it)
        for x in body:
            if x.startswith("$ "):
                steps.append((x[2:], []))
            else:
                steps[-1][1].append(x)
        for command, shown in steps:
            assert command.startswith("cinch-sim "), f"{path.name}:{line}: {command}"
            SETUP.get(command, lambda folder: None)(tmp_path)
            ctrl_c = shown[:1] == ["^C"]
            got, stand_in = _run(command, ctrl_c)
            want = "\n".join(shown[1:] if ctrl_c else shown) + "\n"
            if stand_in:
                want, got = _mask(want), _mask(got)
            assert checker.check_output(want, got, FLAGS), (
                f"{path.name}:{line}: $ {command}\nshown:\n{want}\nprinted:\n{got}"
            )
            ran += 1
    assert ran > 0


# ------------------------------------------------------------------ the rest
def test_the_record_example_is_what_the_referee_writes(tmp_path):
    record = _record_example()
    report = api.referee([record], write=str(tmp_path / "checked.jsonl"))
    assert report.summary() == "1 valid, 0 renege, 0 misdeal, 0 invalid"
    written = json.loads((tmp_path / "checked.jsonl").read_text(encoding="utf-8"))
    assert written == record  # its computed fields (winners, result) as the referee's


ERROR_ROW = re.compile(r"^\| `(simulate\(.*\))` \| `(.*)` \| `(.*)` \|$", re.M)


def test_the_api_error_table():
    """docs/api.md's errors: each Python call raises the message shown, and the same
    input on the command line ends with click's line holding the same words."""
    rows = ERROR_ROW.findall((ROOT / "docs" / "api.md").read_text(encoding="utf-8"))
    assert len(rows) >= 8
    checker = doctest.OutputChecker()
    for call, message, cli in rows:
        with pytest.raises(ValueError) as info:
            eval(f"api.{call}", {"api": api})  # the table's own text
        assert checker.check_output(message, str(info.value), FLAGS), (call, str(info.value))
        args = shlex.split(cli)
        res = CliRunner().invoke(main, ["simulate", *args])
        assert res.exit_code == 2
        last = res.output.strip().splitlines()[-1]
        words = message.split(": ", 1)[1]
        want = f"Error: Invalid value for '{args[0]}': {words}"
        assert checker.check_output(want, last, FLAGS), (cli, last)


def test_the_worked_intervals_of_the_statistics_page():
    """docs/statistics.md's worked examples, as the notation prints them: 12 hands of 14
    points, 2 hands of 9 and 14, 10 duplicate pairs (or rotations) all won."""
    import numpy as np

    from cinch_sim import notation as N
    from cinch_sim.analysis.intervals import bounded_mean

    page = (ROOT / "docs" / "statistics.md").read_text(encoding="utf-8")
    for shown in (
        N.number_with_interval(*bounded_mean(np.full(12, 14.0), 0, 14)),
        N.number_with_interval(*bounded_mean(np.array([9.0, 14.0]), 0, 14)),
        N.rate_with_interval(*bounded_mean(np.ones(10), 0, 1)),
    ):
        assert f"`{shown}`" in page


def test_the_statistics_page_quotes_the_committed_report_s_safe_bid_counts():
    """docs/statistics.md quotes how often perfect play's safe bid is higher, lower or
    the same as the heuristic's in the standard report: the counts are those of the
    committed report's own sentence (results/report/report.md), so a report made again
    with other counts fails here until the page says so too."""
    report = (ROOT / "results" / "report" / "report.md").read_text(encoding="utf-8")
    sentence = next(line for line in report.splitlines() if line.startswith("'Safe bid, perfect"))
    counts = re.findall(r"higher in (\d+)[^,]*, lower in (\d+) and the same in (\d+)", sentence)
    assert len(counts) == 2, sentence
    page = " ".join((ROOT / "docs" / "statistics.md").read_text(encoding="utf-8").split())
    for higher, lower, same in counts:
        assert f"higher in {higher}" in page and f"lower in {lower}" in page, (higher, lower)
        assert f"the same in {same}" in page, same
