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


def test_the_time_to_go_leaves_out_what_came_before_the_first_work():
    """A first run compiles for minutes before its first unit of work: the estimate is
    the work's own pace, not one that counts the compile (it said "0% done in 3 min,
    about 10.3 h to go" for the report)."""
    out, clock = io.StringIO(), Clock()
    bar = Progress(1000, "building the report", unit=None, stream=out, clock=clock)
    clock.now = 180.0  # three minutes of compiling, then the first 5 units
    bar(5)
    clock.now = 190.0  # 10 s later 200 done: 195 in 10 s is 19.5 a second
    bar(195)
    bar.close()
    lines = out.getvalue().splitlines()
    assert lines[0] == "building the report: 0% done in 3 min"  # no pace yet: no estimate
    # 800 left at 19.5 a second: 41 s (counting the compile: 800 / (200 / 190) = 13 min)
    assert lines[1] == "building the report: 20% done in 3 min, about 41 s to go"


def test_a_resumed_runs_kept_work_is_done_but_not_in_the_pace():
    """A resume loads the chunks kept by the run it continues, at once: counted in the
    pace they promised the rest far too soon ("90 of 300 games in 5 min, about 13 min
    to go" where 35 were left)."""
    out, clock = io.StringIO(), Clock()
    bar = Progress(300, "playing", unit="games", stream=out, clock=clock)
    bar.resumed(30)
    bar.resumed(30)  # two chunks kept, loaded at 0 s
    clock.now = 300.0
    bar(30)  # the first chunk played now: no pace yet
    clock.now = 600.0
    bar(30)  # 30 games in 300 s since: 180 left / 0.1 a second = 1,800 s = 30 min
    lines = out.getvalue().splitlines()
    assert lines[0] == "playing: 90 of 300 games (30%; 60 from the earlier run) in 5 min"
    assert lines[1] == (
        "playing: 120 of 300 games (40%; 60 from the earlier run) in 10 min, about 30 min to go"
    )
    bar.close()
    last = out.getvalue().splitlines()[-1]
    assert last == "playing: 120 games (60 from the earlier run), done in 10 min"


def test_between_two_chunks_the_time_to_go_counts_down():
    """A slow run's chunks come minutes apart, with heartbeat lines between: the
    estimate counts down from the last chunk instead of growing with each line, until
    the run is later than its pace said; then it is the pace up to now."""
    bar = Progress(300, "playing", unit="games", stream=io.StringIO(), clock=Clock())
    bar.clock.now = 100.0
    bar(30)
    bar.clock.now = 200.0
    bar(30)  # 30 games in 100 s: 240 left at 0.3 a second, 800 s
    assert bar.line(200.0).endswith("in 3 min, about 13 min to go")
    # 60 s on with nothing new: 800 - 60 = 740 s (the pace up to now: 240 / (30 / 160),
    # 1,280 s, "about 21 min")
    assert bar.line(260.0).endswith("in 4 min, about 12 min to go")
    # 900 s on, past the 800 promised: the pace up to now, 240 / (30 / 1,000) = 8,000 s
    assert bar.line(1100.0).endswith("in 18 min, about 2.2 h to go")


def test_a_compile_in_the_middle_is_said_and_left_out_of_the_pace():
    """A first run's report compiled PIMC at 20%: its lines read "about 10 s to go",
    then "about 5 min", the pace cut by the compile's minutes. While a compile runs
    (``jit.notice`` tells it) the line says so, with the time to go as it stood when
    the compile began; afterwards the pace is the work's own."""
    out, clock = io.StringIO(), Clock()
    bar = Progress(1000, "building the report", unit=None, stream=out, clock=clock)
    clock.now = 10.0
    bar(100)
    clock.now = 20.0
    bar(100)  # 100 in 10 s since the first: 800 left at 10 a second, 80 s
    assert bar.line(20.0).endswith("20% done in 20 s, about 80 s to go")
    clock.now = 35.0  # the compile began at 25 s and is noticed 10 s in
    bar.compile_event("compiling", "the pimc policies", 10.0)
    bar.compile_event("compiling", "the double-dummy solver", 4.0)  # nested: one compile
    # the time to go at 25 s: 80 - (25 - 20) = 75 s, whatever the clock says now
    for now in (40.0, 200.0):
        assert bar.line(now).endswith(
            "20% done in " + ("40 s" if now == 40 else "3 min")
            + "; first run: compiling the pimc policies, then about 75 s to go"
        )  # fmt: skip
    clock.now = 140.0
    bar.compile_event("compiled", "the double-dummy solver", 50.0)
    assert "compiling the pimc policies" in bar.line(140.0)  # the outer one still runs
    clock.now = 145.0
    bar.compile_event("compiled", "the pimc policies", 120.0)  # 25 s to 145 s
    # the count-down resumes where the compile stopped it: 75 s (with the compile in the
    # pace: 800 / (200 / 135) = 540 s, "about 9 min")
    assert bar.line(145.0).endswith("20% done in 2 min, about 75 s to go")
    clock.now = 155.0
    bar(100)  # 200 since the first in 145 s less the compile's 120: 700 / 8 = 87.5 s
    assert bar.line(155.0).endswith("30% done in 3 min, about 88 s to go")
    bar.close()


def test_the_compile_notice_tells_a_listening_progress_report(monkeypatch):
    import time

    from cinch_sim.jit import notice

    monkeypatch.setattr(notice, "NOTICE_AFTER", 0.05)
    bar = Progress(1000, "building the report", unit=None, stream=io.StringIO())
    bar(10)
    with notice.first_compile("the pimc policies", lambda: True):
        time.sleep(0.3)
        assert bar.compiles == 1 and "compiling the pimc policies" in bar.line(time.monotonic())
    assert bar.compiles == 0
    with notice.first_compile("the pimc policies", lambda: False):  # a cache load
        time.sleep(0.2)
    assert bar.compiles == 0
    bar.close()
    with notice.first_compile("the pimc policies", lambda: True):  # closed: no longer told
        time.sleep(0.3)
        assert bar.compiles == 0  # inside the compile, past its notice: it was not told


def test_a_resume_through_the_driver_reports_its_kept_chunks_as_kept(tmp_path):
    from cinch_sim import api

    told: list[tuple[str, int]] = []

    class Meter:
        def __call__(self, n: int) -> None:
            told.append(("played", n))

        def resumed(self, n: int) -> None:
            told.append(("kept", n))

    api.simulate(3000, seed=4, chunk=1000, save=tmp_path / "run")
    store = tmp_path / "run" / "chunks"
    for f in sorted(store.iterdir())[1:]:  # keep the first chunk only
        f.unlink()
    api.simulate(3000, seed=4, chunk=1000, resume=tmp_path / "run", progress=Meter())
    assert told == [("kept", 1000), ("played", 1000), ("played", 1000)]


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


def test_referee_tells_how_many_records_it_has_checked(monkeypatch, tmp_path):
    records = tmp_path / "hands.jsonl"
    made = CliRunner().invoke(
        main, ["simulate", "--hands", "3", "--records", str(records), "--format", "json"]
    )
    assert made.exit_code == 0, made.output
    monkeypatch.setattr(progress_mod, "EVERY", 0.0)  # a line after every record
    res = CliRunner().invoke(main, ["referee", str(records)])
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("refereeing:")]
    assert [ln.split(" in ")[0] for ln in lines] == [
        "refereeing: 1 record",
        "refereeing: 2 records",
        "refereeing: 3 records",
        "refereeing: 3 records, done",
    ]
    assert res.stdout.strip() == "3 valid, 0 renege, 0 misdeal, 0 invalid"


def test_a_heartbeat_prints_while_a_long_step_reports_nothing():
    """The report's progress: after the first unit of work, a line every interval even
    with no further call (a study that reports nothing for a while), showing only the
    share for units that mean nothing to a user, and a last line at the end."""
    import time

    out = io.StringIO()
    bar = Progress(None, "building the report", unit=None, heartbeat=True, every=0.05, stream=out)
    bar.set_total(400)
    time.sleep(0.2)
    assert out.getvalue() == ""  # nothing before the first unit of work (the compile)
    bar(100)
    time.sleep(0.4)  # no call: the heartbeat alone
    bar.close()
    lines = out.getvalue().splitlines()
    assert len(lines) >= 4
    assert all(ln.startswith("building the report: 25% done in") for ln in lines[:-1])
    assert lines[-1].startswith("building the report: done in")


def test_report_quick_asks_for_a_smaller_report(monkeypatch, tmp_path):
    """``report --quick`` runs the report with the quick sizes, except a size given."""
    import cinch_sim.api as api_mod

    asked = []

    def fake(hands, games, seed, rules, names, threads, out, force, progress, **kw):
        asked.append((hands, games, kw["card_values_hands"]))
        raise SystemExit(0)

    monkeypatch.setattr(api_mod, "report", fake)
    for extra in ([], ["--hands", "5000"]):
        res = CliRunner().invoke(main, ["report", "--quick", "--out", str(tmp_path / "r"), *extra])
        assert res.exit_code == 0, res.output
    assert asked == [(100_000, 400, None), (5000, 400, None)]
