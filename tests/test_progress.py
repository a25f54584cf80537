"""Long commands report progress: a bar on a terminal, plain lines elsewhere."""

from __future__ import annotations

import io

from click.testing import CliRunner

from cinch_sim.cli import progress as progress_mod
from cinch_sim.cli.main import main
from cinch_sim.cli.progress import Progress


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_without_a_terminal_a_line_comes_every_interval_and_a_last_one_at_the_end():
    out, clock = io.StringIO(), Clock()
    bar = Progress(1_000_000, "simulating", stream=out, clock=clock)
    for step in range(1, 11):  # 100,000 hands every 3 s: a line at 12, 24 s (every 10 s)
        clock.now = 3.0 * step
        bar(100_000)
    bar.close()
    lines = out.getvalue().splitlines()
    # at 12 s, 400,000 of 1,000,000 done at 33,333 a second: 600,000 / 33,333 = 18 s to go
    assert lines[0] == "simulating: 400,000 of 1,000,000 hands (40%) in 12 s, about 18 s to go"
    # at 24 s: 800,000 done, 200,000 / 33,333 = 6 s to go
    assert lines[1] == "simulating: 800,000 of 1,000,000 hands (80%) in 24 s, about 6 s to go"
    assert lines[2] == "simulating: 1,000,000 hands, done in 30 s"
    assert len(lines) == 3


def test_a_short_run_prints_nothing_and_an_unknown_total_says_the_rate():
    out, clock = io.StringIO(), Clock()
    bar = Progress(1_000_000, "simulating", stream=out, clock=clock)
    clock.now = 9.0
    bar(1_000_000)
    bar.close()
    assert out.getvalue() == ""  # under 10 s: nothing to say
    bar = Progress(None, "refereeing", unit="records", stream=out, clock=clock)
    clock.now = 20.0  # 11 s after the start at 9 s
    bar(22_000)
    assert out.getvalue() == "refereeing: 22,000 records in 11 s (2,000 a second)\n"


def test_on_a_terminal_the_bar_waits_for_the_first_finished_work():
    out = Tty()
    bar = Progress(1_000_000, "simulating", stream=out)
    assert out.getvalue() == ""  # nothing drawn while the kernel may still compile
    bar(500_000)
    bar.close()
    assert "simulating" in out.getvalue() and "%" in out.getvalue()


def test_simulate_without_a_terminal_prints_progress_lines(monkeypatch):
    monkeypatch.setattr(progress_mod, "EVERY", 0.0)  # a line after every chunk
    res = CliRunner().invoke(main, ["simulate", "--hands", "140000", "--format", "json"])
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("simulating:")]
    # chunks of 65,536 hands: 65,536 / 140,000 = 47%
    assert lines[0].startswith("simulating: 65,536 of 140,000 hands (47%)")
    assert lines[-1].startswith("simulating: 140,000 hands, done in")
    assert res.stdout.startswith("{")  # progress never mixes into the data
