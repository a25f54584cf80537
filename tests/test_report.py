"""The strategy report: structure, embedded images, same numbers in HTML and Markdown,
escaping of user-supplied names, reproducibility."""

from __future__ import annotations

import base64
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from cinch_sim.cli.main import main

SECTIONS = [
    "What this report is",
    "How often each bid is made",
    "The safe bid by hand type",
    "What trump length and seat are worth",
    "What each card is worth",
    "The right to rob the pack",
    "When the Pedros are saved and lost",
    "Which strategy wins",
    "Advice for a few hands",
    "Method notes",
]
VOID = {"meta", "img", "br", "hr", "link", "input"}


class Collector(HTMLParser):
    """Checks that tags nest and records what the checks below need."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.h2: list[str] = []
        self.imgs: list[dict] = []
        self.links: list[str] = []
        self.tables: list[list[list[str]]] = []
        self._text: list[str] | None = None
        self._cell: list[str] | None = None
        self._joined = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "img":
            self.imgs.append(a)
        for key in ("href", "src"):
            if key in a and tag != "img":
                self.links.append(a[key])
        if tag == "h2":
            self._text = []
        if tag == "table":
            self.tables.append([])
        if tag == "tr":
            self.tables[-1].append([])
        if tag in ("td", "th"):
            self._cell = []
            # the phone's column joining a row's labels (render.Table.labels): not the
            # table's own, and not in the Markdown
            self._joined = "rowlab" in (a.get("class") or "").split()
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"unexpected </{tag}> (open: {self.stack[-3:]})")
            return
        self.stack.pop()
        if tag == "h2":
            self.h2.append("".join(self._text or []))
            self._text = None
        if tag in ("td", "th"):
            if not self._joined:
                self.tables[-1][-1].append("".join(self._cell or []))
            self._cell = None

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)
        if self._cell is not None:
            self._cell.append(data)


def md_tables(text: str) -> list[list[list[str]]]:
    tables, current = [], None
    for line in text.splitlines():
        if line.startswith("| "):
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line)[1:-1]]
            if current is None:
                current = []
                tables.append(current)
            current.append(cells)
        elif line.startswith("|---"):
            continue
        else:
            current = None
    return tables


def unescape(s: str) -> str:
    import html

    return html.unescape(s)


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("report") / "out"
    evil = tmp_path_factory.mktemp("strat") / "evil.toml"
    evil.write_text('name = "<script>alert(1)</script>|x"\nbase = "greedy"\n', encoding="utf-8")
    res = CliRunner().invoke(
        main,
        [
            "report",
            "--hands",
            "4000",
            "--games",
            "40",
            "--seed",
            "5",
            "--card-values-hands",
            "3",  # PIMC's replays: a few deals show the layout (10 by default here)
            "--out",
            str(out),
            "--strategies",
            f"heuristic,random,{evil}",
        ],
    )
    assert res.exit_code == 0, res.output
    return out


def test_every_file_is_written(report_dir):
    for name in ("report.html", "report.md", "run.json"):
        assert (report_dir / name).is_file()
    assert list((report_dir / "figures").glob("*.png"))
    assert list((report_dir / "tables").glob("*.csv"))
    run = json.loads((report_dir / "run.json").read_text())
    assert run["seed"] == 5 and run["hands"] == 4000 and run["rules"]["robber"] == "maker"
    assert "versions" in run


def test_html_parses_with_every_section_and_embedded_images(report_dir):
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    c = Collector()
    c.feed(page)
    c.close()
    assert not c.errors, c.errors[:5]
    assert c.stack == []
    assert c.h2 == SECTIONS
    assert len(c.imgs) >= 3
    for img in c.imgs:
        assert img["src"].startswith("data:image/png;base64,")
        png = base64.b64decode(img["src"].split(",", 1)[1])
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        assert img.get("alt")
    assert not [u for u in c.links if u.startswith(("http:", "https:", "//"))]
    assert "http://" not in page and "https://" not in page  # nothing to fetch


def test_markdown_has_the_sections_and_no_broken_image_reference(report_dir):
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    assert re.findall(r"^## (.*)$", md, re.M) == SECTIONS
    refs = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md)
    assert len(refs) >= 3
    for ref in refs:
        assert (report_dir / ref).is_file(), ref


def test_markdown_and_html_carry_the_same_numbers(report_dir):
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    c = Collector()
    c.feed((report_dir / "report.html").read_text(encoding="utf-8"))
    html_tables = c.tables
    markdown_tables = [[[unescape(x) for x in row] for row in t] for t in md_tables(md)]
    assert len(html_tables) == len(markdown_tables) >= 8
    for h, m in zip(html_tables, markdown_tables, strict=True):
        assert h == m


def test_markdown_reads_as_text_and_run_json_names_every_package(report_dir):
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    # no entities for people: quotes and signs stay as typed
    assert "'" in md and "&#x27;" not in md and "&gt;" not in md and "&amp;" not in md
    versions = json.loads((report_dir / "run.json").read_text())["versions"]
    assert {"numpy", "numba", "scipy", "pyarrow", "pandas", "matplotlib"} <= set(versions)


def test_user_names_cannot_inject_markup(report_dir):
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    assert "<script>" not in page and "<script>" not in md
    assert "&lt;script&gt;" in page  # shown, as text
    c = Collector()
    c.feed(page)
    names = [row[1] for t in c.tables for row in t if len(row) > 1]
    assert "<script>alert(1)</script>|x" in names  # the name survives intact, escaped
    # the pipe in the name did not split a Markdown table row
    tables = md_tables(md)
    assert any("alert" in "".join(r) for t in tables for r in t)
    for t in tables:
        assert all(len(r) == len(t[0]) for r in t), t[0]


def test_run_json_lists_every_file_the_report_wrote(report_dir):
    """What a later --force replaces: the figures and tables too, and nothing else."""
    files = json.loads((report_dir / "run.json").read_text())["files"]
    on_disk = [p.relative_to(report_dir).as_posix() for p in report_dir.rglob("*") if p.is_file()]
    assert files == sorted(on_disk) and "figures/ladder.png" in files


def test_refuses_to_overwrite_without_force(report_dir):
    res = CliRunner().invoke(
        main, ["report", "--hands", "2000", "--games", "4", "--out", str(report_dir)]
    )
    assert res.exit_code != 0
    assert "--force" in res.output and "Traceback" not in res.output


def _small_settings():
    from cinch_sim.report.build import ReportSettings

    return ReportSettings(
        hands=2000, games=8, seed=3, strategies=("heuristic", "simple"), advice_precision=0.05
    )


@pytest.fixture(scope="module")
def small_report():
    from cinch_sim.report.build import build_report

    return build_report(_small_settings())


def test_same_seed_same_report(small_report):
    from cinch_sim.report.build import build_report
    from cinch_sim.report.render import to_markdown

    assert to_markdown(build_report(_small_settings())) == to_markdown(small_report)


def _chart_texts(chart) -> list[str]:
    from matplotlib.text import Text

    chart.render_png()
    return [t.get_text() for t in chart.figure.findobj(Text) if t.get_text().strip()]


def test_charts_say_once_where_they_come_from_in_plain_words(small_report):
    """Hands and seed are in the caption under the chart, not also in the image; no
    caption or chart label shows an internal name such as ``low_n``."""
    snake = re.compile(r"\b[a-z]+_[a-z_]+\b")
    charts = small_report.charts()
    assert len(charts) >= 4
    for chart in charts:
        texts = _chart_texts(chart)
        assert not [t for t in texts if "seed" in t or "hands," in t], chart.name
        assert not [t for t in texts if snake.search(t)], chart.name
        assert not snake.search(chart.caption), chart.caption
    for name in ("make_rate_by_bid", "pedro_capture"):
        (chart,) = [c for c in charts if c.name == name]
        assert chart.caption.count("seed 3") == 1 and "2,000 hands" in chart.caption
    for table in small_report.tables():
        assert not snake.search(table.caption), table.caption


def test_make_rate_chart_fits_its_axis_to_the_data(small_report):
    (chart,) = [c for c in small_report.charts() if c.name == "make_rate_by_bid"]
    ax = chart.figure.axes[0]
    assert ax.get_title() == "Make rate by bid level"
    assert ax.get_legend() is None and not chart.figure.legends  # one line: nothing to tell apart
    lo, hi = ax.get_ylim()
    ys = [y for line in ax.get_lines() for y in line.get_ydata()]
    assert 0 < lo < min(ys) and max(ys) < hi <= 102  # not 0-100% for rates near 80%


def test_pedro_legends_cover_no_bar(small_report):
    """The Pedro charts' legends sit outside the axes, under them."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from cinch_sim.report.charts import style

    for name in ("pedro_capture", "pedro_by_trick"):
        (chart,) = [c for c in small_report.charts() if c.name == name]
        fig = chart.figure
        ax = fig.axes[0]
        assert ax.get_legend() is None and len(fig.legends) == 1
        with style():
            canvas = FigureCanvasAgg(fig)
            canvas.draw()
        renderer = canvas.get_renderer()
        legend = fig.legends[0].get_window_extent(renderer)
        assert legend.y1 < ax.get_window_extent(renderer).y0, name


def test_number_columns_are_told_from_text_columns():
    import pandas as pd

    from cinch_sim.report.render import Report, numeric_columns, to_html, to_markdown

    frame = pd.DataFrame(
        {
            "strategy": ["heuristic", "random"],
            "rating": ["+581", "-860"],
            "interval": ["+539 to +637", "-1006 to -782"],
            "made": ["70.4% [57.2, 80.9]", "–"],
            "value": ["0.1.0", "seat 3"],
            "few hands": ["yes", ""],
            "hands": ["1,000,000", "49"],
        }
    )
    assert numeric_columns(frame) == [False, True, True, True, False, False, True]
    report = Report("t")
    report.section("s").table("t", frame)
    assert "|---|---:|---:|---:|---|---|---:|" in to_markdown(report)
    page = to_html(report)
    assert '<th>strategy</th><th class="num">rating</th>' in page
    assert '<td class="num">70.4% <span class="nb">[57.2, 80.9]</span></td>' in page


# the tables whose CSVs hold numbers (settings is a list of text values)
NUMERIC_TABLES = {
    "card_values": ({"deals"}, {"value", "lo", "hi", "made_diff"}),
    "advice_1": ({"bid"}, {"p_win_auction", "p_win_lo", "p_make_lo", "ev_vs_pass", "ev_lo"}),
    "make_rate_by_bid": ({"bid", "hands", "made"}, {"make_rate", "make_rate_lo"}),
    "safe_bid_by_hand": (
        {"hands"},
        {"mean_points", "mean_points_lo", "make_70", "make_70_lo", "make_70_hi"},
    ),
    "points_by_trumps": ({"trumps", "hands"}, {"mean_points", "mean_lo", "mean_hi"}),
    "points_by_seat": ({"hands"}, {"mean_points", "mean_lo", "mean_hi"}),
    "robbing": ({"hands"}, {"mean_points", "at_least_7", "at_least_7_lo"}),  # 7 of 14
    "pedro_capture": ({"hands", "holder_hands"}, {"rate", "rate_lo", "rate_hi"}),
    "ladder": ({"games"}, {"rating", "rating_lo", "vs_best", "vs_best_hi", "score"}),
    "matchups": ({"games", "unfinished"}, {"win_rate_a", "win_rate_lo", "win_rate_hi"}),
}


def test_csv_tables_hold_numbers(report_dir):
    import pandas as pd

    for name, (ints, floats) in NUMERIC_TABLES.items():
        t = pd.read_csv(report_dir / "tables" / f"{name}.csv")
        for c in ints:
            assert pd.api.types.is_integer_dtype(t[c]), (name, c, t[c].dtype)
        for c in floats:
            assert pd.api.types.is_float_dtype(t[c]), (name, c, t[c].dtype)
        rates = [c for c in floats if c.startswith(("make_", "rate", "at_least", "win_rate"))]
        for c in rates:  # rates as fractions, not percentages
            assert t[c].dropna().between(0, 1).all(), (name, c)
        if "low_n" in t:
            assert t["low_n"].dtype == bool, name
        text = (report_dir / "tables" / f"{name}.csv").read_text(encoding="utf-8")
        assert "%" not in text and "[" not in text, name


def test_small_classes_are_marked_in_the_report(report_dir):
    import pandas as pd

    safe = pd.read_csv(report_dir / "tables" / "safe_bid_by_hand.csv")
    assert safe["low_n"].any() and (~safe["low_n"]).any()
    assert (safe["low_n"] == (safe["hands"] < 30)).all()
    assert set(safe["top_trumps"]) <= {"A K", "A", "K", "neither"}
    md = (report_dir / "report.md").read_text(encoding="utf-8")
    tables: dict = {}
    for t in md_tables(md):  # by first header; the first such table (advice comes last)
        tables.setdefault(t[0][0], t)
    for first in ("bid", "Pedros dealt", "trumps dealt", "maker's seat", "who robs", "Pedro"):
        assert tables[first][0][-1] == "few hands", first
    marked = [r for r in tables["Pedros dealt"][1:] if r[-1] == "yes"]
    assert len(marked) == int(safe["low_n"].sum())


def test_card_values_are_by_experiment_for_three_players(small_report):
    """The card section states its method (and again in a player's words, naming the
    stand-in card), shows the heuristic, PIMC and perfect play side by side, and
    prints no fixed sentence about the data (the old one was false)."""
    from cinch_sim.report.render import to_markdown

    (sec,) = [s for s in small_report.sections if s.title == "What each card is worth"]
    texts = [b for b in sec.blocks if isinstance(b, str)]
    assert texts[0].startswith("Each deal whose maker was dealt the card is played twice")
    assert texts[1].startswith("Put simply:") and "the stand-in card" in texts[1]
    (table,) = [b for b in sec.blocks if getattr(b, "name", "") == "card_values"]
    for player in ("heuristic", "PIMC", "perfect play"):
        assert f"{player}: points" in table.frame.columns
    assert set(table.data["player"]) == {"heuristic", "pimc", "dd"}  # tables/card_values.csv
    # PIMC's and perfect play's come from the studies stored with cinch_sim, and say so
    from cinch_sim.report.build import ReportSettings

    n = ReportSettings().card_hands()
    played = f"PIMC: {n['pimc']:,} hands played; perfect play: {n['dd']:,} hands played"
    assert f"heuristic: 100 hands played; {played}" in table.caption
    (note,) = [t for t in texts if "stored with this version of cinch_sim" in t]
    assert f"PIMC's card values ({n['pimc']:,} deals" in note and "--card-values-hands N" in note
    text = to_markdown(small_report)
    assert "Pedros he was not dealt" not in text and "not a controlled experiment" not in text


def _card_frame(rows):
    import pandas as pd

    frame = pd.DataFrame(rows, columns=["card", "deals", "lo", "hi"]).set_index("card")
    return frame.assign(value=(frame["lo"] + frame["hi"]) / 2)


def test_player_dependence_is_read_from_the_intervals():
    """Which values differ between players, which orderings hold for every player
    (steps down the first player's order) and which only for some, all from the
    intervals; cards with too few deals for a player are not compared."""
    from cinch_sim.report.sections import _player_dependence

    a = _card_frame([("Ace", 500, 2.5, 3.0), ("Jack", 500, 1.0, 1.5), ("Game", 10, 0.0, 1.0),
                     ("Queen", 500, 0.2, 0.6)])  # fmt: skip
    b = _card_frame([("Ace", 400, 1.0, 2.0), ("Jack", 400, 1.2, 1.8), ("Game", 400, 5.0, 6.0),
                     ("Queen", 400, 1.1, 1.9)])  # fmt: skip
    text = _player_dependence({"heuristic": a, "pimc": b})
    assert text.startswith(
        "What these cards are worth depends on the player (intervals apart): the Ace, +2.75 "
        "under the heuristic, +1.50 under PIMC; the Queen,"
    )
    for a_, b_ in (("Ace", "Jack"), ("Jack", "Queen")):
        said = f"The {a_} is worth more than the {b_} under the heuristic, not clearly under PIMC."
        assert said in text
    assert text.endswith("Fewer than 30 deals for one of the players: Game.")  # not compared
    same = _player_dependence({"heuristic": a, "dd": a})
    assert "the players' intervals overlap" in same
    assert (
        "True under the heuristic and perfect play alike: the Ace is worth more than the Jack; "
        "the Jack is worth more than the Queen." in same
    )
    few = _card_frame([("Ace", 5, 1.0, 2.0), ("Jack", 5, 1.2, 1.8), ("Game", 5, 5.0, 6.0),
                       ("Queen", 5, 1.1, 1.9)])  # fmt: skip
    short = _player_dependence({"heuristic": a, "pimc": few})
    assert short == (
        "Too few deals to compare for PIMC (fewer than 30 for most cards). "
        "Only the heuristic can be read here."
    )
    assert _player_dependence({"heuristic": a}) == "Only the heuristic player was measured here."

    # an ordering one player reverses is one sentence that says so, not two that seem
    # to disagree ("... not clearly under PIMC" beside its mirror image)
    h = _card_frame([("Ace", 500, 2.5, 3.0), ("Jack", 500, 1.0, 1.5)])
    p = _card_frame([("Ace", 500, 1.0, 1.4), ("Jack", 500, 2.0, 2.4)])
    d = _card_frame([("Ace", 500, 1.6, 2.2), ("Jack", 500, 1.5, 2.1)])
    text = _player_dependence({"heuristic": h, "pimc": p, "dd": d})
    assert (
        "The Ace is worth more than the Jack under the heuristic, the reverse under PIMC and "
        "not clearly under perfect play." in text
    )
    assert "The Jack is worth more than the Ace" not in text


def test_an_ordering_is_said_only_where_the_printed_intervals_are_apart():
    """A review read "the Right Pedro is worth more than the Dom under perfect play"
    beside [+0.01, +0.21] and [-0.16, +0.02]: apart in the numbers (lo 0.019975 above
    hi 0.014436), touching as printed (rounded outwards). The sentence follows the
    printed intervals."""
    from cinch_sim.report.sections import _player_dependence

    h = _card_frame([("Right Pedro", 500, 1.0, 1.5), ("Dom", 500, 0.2, 0.6)])
    d = _card_frame([("Right Pedro", 500, 0.019975, 0.21), ("Dom", 500, -0.16, 0.014436)])
    text = _player_dependence({"heuristic": h, "dd": d})
    assert "worth more than the Dom under the heuristic, not clearly under perfect play" in text
    apart = _card_frame([("Right Pedro", 500, 0.03, 0.21), ("Dom", 500, -0.16, 0.014436)])
    assert "under the heuristic and perfect play alike" in _player_dependence(
        {"heuristic": h, "dd": apart}
    )


def test_a_card_worth_less_than_nothing_is_said_and_explained():
    from cinch_sim.report.sections import _below_nothing

    h = _card_frame([("Left Pedro", 500, -0.9, -0.5), ("Ace", 500, 1.0, 2.0),
                     ("Game", 10, -3.0, -1.0)])  # fmt: skip
    d = _card_frame([("Left Pedro", 500, -0.7, -0.3), ("Ace", 500, 1.0, 2.0),
                     ("Game", 500, -0.2, 0.1)])  # fmt: skip
    text = _below_nothing({"heuristic": h, "dd": d}, True)
    assert text.startswith(
        "Worth less than nothing here: the Left Pedro, -0.70 [-0.90, -0.50] under the "
        "heuristic and -0.50 [-0.70, -0.30] under perfect play. The maker's side"
    )
    # the Game: too few deals for the heuristic, an interval across 0 for perfect play
    assert "Game" not in text and "Ace" not in text
    assert _below_nothing({"dd": _card_frame([("Ace", 500, 1.0, 2.0)])}, True) == ""
    alone = _below_nothing({"dd": d}, False)  # cut-throat: the maker, another player
    assert ". The maker ends with fewer points" in alone and "another player can take" in alone
    assert "side" not in alone


def test_a_pedro_that_lowers_a_hand_s_worth_is_said_and_explained():
    """A group holding a Pedro whose whole interval lies below the same trumps, ace
    and king without one is named with the widest gap; overlapping intervals, or too
    few hands, are not."""
    import pandas as pd

    from cinch_sim.report.sections import _pedros_that_cost
    from cinch_sim.rules import Rules

    def row(pedros, trumps, top, mean, lo, hi, low=False):
        return {"pedros": pedros, "trumps": trumps, "top_trumps": top, "mean_points": mean,
                "mean_points_lo": lo, "mean_points_hi": hi, "low_n": low}  # fmt: skip

    safe = pd.DataFrame([
        row("no Pedro", 3, "A K", 10.2, 10.1, 10.3),
        row("Left Pedro", 3, "A K", 9.4, 9.2, 9.6),  # below: the widest gap
        row("no Pedro", 3, "A", 8.8, 8.7, 8.9),
        row("both Pedros", 3, "A", 8.5, 8.3, 8.65),  # below by less
        row("Right Pedro", 3, "A", 8.6, 8.4, 8.75),  # overlaps: not named
        row("both Pedros", 3, "A K", 5.0, 3.0, 7.0, low=True),  # too few hands
    ])  # fmt: skip
    keys = ["pedros", "trumps", "top_trumps"]
    text = _pedros_that_cost(safe, keys, Rules())
    assert text.startswith("A Pedro can be worth less than the trump it displaces: 2 groups ")
    assert "is what the card values measure" in text  # the two questions kept apart
    assert (
        "The widest gap: 3 trumps, the ace and king of trumps: Left Pedro dealt 9.4 "
        "[9.2, 9.6] points, no Pedro 10.2 [10.1, 10.3]." in text
    )
    assert _pedros_that_cost(safe.iloc[[0, 2, 4]], keys, Rules()) == ""
    # both Pedros below one of them alone, the whole interval (a reader took "both
    # Pedros 8.1, the Right Pedro alone 9.0" for a fault): said with the widest gap
    assert "Two can do worse than one" not in text  # 8.5 [8.3, 8.65] overlaps 8.6 [8.4, 8.75]
    safe.loc[4, ["mean_points", "mean_points_lo", "mean_points_hi"]] = (9.0, 8.8, 9.1)
    both = _pedros_that_cost(safe, keys, Rules())
    assert (
        "Two can do worse than one for the same reason: in 1 group the hands dealt both "
        "Pedros average fewer points than the same hands dealt one of them alone (the "
        "widest gap: 3 trumps, the ace of trumps, not the king: both Pedros 8.5 [8.3, 8.7], "
        "the Right Pedro alone 9.0 [8.8, 9.1])" in both
    ), both


@pytest.mark.parametrize(
    "variant", ["cutthroat3", pytest.param("no_draw", marks=pytest.mark.slow)]
)  # no_draw: PIMC's card values solve nine tricks a deal (30 s)
def test_the_report_for_a_cutthroat_and_a_no_draw_preset(variant):
    """Every section is there; without a draw the robbing comparison is left out with a
    line saying why; at a cut-throat table the ladder is the cut-throat match's, read
    against the fair share; seats are named eldest ... dealer."""
    from cinch_sim import api
    from cinch_sim.report.render import to_markdown

    doc = api.report(hands=1000, games=6, seed=2, strategies=["greedy", "random"],
                     variant=variant)  # fmt: skip
    assert list(doc.table()["section"].unique()) == SECTIONS
    md = to_markdown(doc)
    seats = list(doc.table("points_by_seat")["maker's seat"])
    if variant == "no_draw":
        assert "robbing" not in doc.table_names()
        assert "Left out: no_draw has no discard and draw, so there is no stock to rob" in md
        assert seats == ["eldest", "second", "third", "dealer"]
        assert list(doc.table("matchups").columns[:3]) == ["A", "B", "games"]
    else:
        assert "robbing" in doc.table_names() and "Left out" not in md
        assert seats == ["eldest", "second", "dealer"]
        mu = doc.table("matchups")
        assert list(mu["A (alone)"]) == ["greedy", "random"]
        assert list(mu["fair share"]) == ["33.3%", "33.3%"]
        assert "wins a seat" in doc.table("ladder").columns
        assert "Luce model" in md and "over rotations" in md


def test_the_progress_meter_gives_each_study_its_share():
    """``Meter``: a study's items turn into its share of the units as they finish, a
    study that stops short is topped up at its close, and nothing is given twice."""
    from cinch_sim.report.build import Meter

    got = []
    m = Meter({"bids": 100, "cards:dd": 50}, got.append)
    part = m.part("bids", 1000)
    part(250)
    part(250)
    m.close("bids")
    m.close("bids")
    m.part("cards:dd", 10)(3)
    m.close("cards:dd")
    assert got == [25, 25, 50, 15, 35] and sum(got) == 150


def test_the_report_s_work_estimate_covers_every_study():
    from cinch_sim.report.build import SECONDS_PER, UNIT, ReportSettings, total_work

    s = ReportSettings()
    # PIMC's and perfect play's card values, and PIMC's safe bids, are stored: no work
    assert set(s.work()) == {"bids", "values", "values:dd", "ladder", "advice", "advice:dd",
                             "cards:heuristic"}  # fmt: skip
    assert 40_000 < total_work(s) < 120_000  # about 60 s of work, in milliseconds
    played = ReportSettings(card_values_hands=200)  # PIMC's card values played here
    assert total_work(played) - total_work(s) == s.work().get("cards:pimc", 0) + round(
        200 * SECONDS_PER["cards:pimc"] / UNIT
    )


def test_the_safe_bids_under_strong_play_stand_beside_the_heuristic_s(small_report):
    """The safe-bid table has a column for PIMC and for perfect play (dd at every seat),
    its CSV the numbers, and a sentence each counting the groups where it bids higher,
    lower, the same."""
    (sec,) = [s for s in small_report.sections if s.title == "The safe bid by hand type"]
    (table,) = [b for b in sec.blocks if getattr(b, "name", "") == "safe_bid_by_hand"]
    assert "safe bid, perfect play" in table.frame.columns
    assert {"hands_perfect", "bid_70_perfect"} <= set(table.data.columns)
    assert table.data["hands_perfect"].sum() == 80  # hands / 25 at 2,000 hands
    texts = [b for b in sec.blocks if isinstance(b, str)]
    said = [t for t in texts if t.startswith("'Safe bid, perfect play'")]
    assert len(said) == 1 and "80 hands" in said[0]
    # and PIMC's, from the study stored with cinch_sim (20,000 hands), before it
    from cinch_sim.report.build import ReportSettings

    stored = ReportSettings().stored_value_hands()["pimc"]
    columns = list(table.frame.columns)
    assert columns.index("safe bid, PIMC") + 1 == columns.index("safe bid, perfect play")
    assert 0.9 * stored < table.data["hands_pimc"].sum() <= stored  # groups the table has
    (pimc,) = [t for t in texts if t.startswith("'Safe bid, PIMC'")]
    assert f"{stored:,} hands" in pimc and "stored with this version" in pimc


def test_the_perfect_play_sentence_counts_the_groups():
    import pandas as pd

    from cinch_sim.report.sections import _strong_safe_bids

    class Perfect:
        hands = 40_000

    safe = pd.DataFrame({"hands": [500, 500, 500, 10], "bid_70": [7, 8, 9, 5],
                         "hands_perfect": [300, 300, 300, 300],
                         "bid_70_perfect": [8, 8, 7, 9]})  # fmt: skip
    text = _strong_safe_bids(
        safe.astype({"bid_70": "Int64", "bid_70_perfect": "Int64"}), "dd", Perfect
    )
    assert (
        "Of the 3 groups with 30 hands or more and a safe bid under both, perfect play's safe "
        "bid is higher in 1 (by 1.0 on average), lower in 1 and the same in 1. No group has "
        "500 hands under perfect play: " in text
    )
    # with two of the groups large under perfect play, those are counted apart
    big = safe.assign(hands_perfect=[300, 600, 900, 300])
    text = _strong_safe_bids(
        big.astype({"bid_70": "Int64", "bid_70_perfect": "Int64"}), "dd", Perfect
    )
    assert text.endswith(
        "Over the 2 groups with 500 hands or more under perfect play, it is higher in 0, "
        "lower in 1 and the same in 1."
    )


# ---------------------------------------------------- the sentences against the tables
SAFE_RE = re.compile(
    r"Highest safe bid at (\d+)%: (?:bid (\d+) in (\w+) \(makes it at least (\d+)%, 95% lower "
    r"bound\)|no bid is made)"
)
BID_RE = re.compile(r"\. (?:Bid (\d+) in (\w+): wins the auction (\d+)% of the time|Pass: )")
CLASS_RE = re.compile(r"safe up to (\d+|–)(?: \(made ([\d.]+)% \[([\d.]+), ([\d.]+)\]\))?")
NEGATIVE_ZERO = re.compile(r"(?<![\w.])-0(?:\.0+)?(?![\d.])")


def _advice_claims_hold(folder: Path) -> int:
    """Every example hand's advice sentence in report.md against its advice_N.csv: the
    advised bid was won as maker on enough deals ('judged'); the safe bid is the
    highest judged bid whose make rate's lower bound reaches the risk, and its lower
    bound is shown rounded down; the safe-bid table's sentences match its CSV.
    Returns how many sentences were checked."""
    import pandas as pd

    from cinch_sim.cards import SUIT_NAMES

    md = (folder / "report.md").read_text(encoding="utf-8")
    assert not NEGATIVE_ZERO.search(md), NEGATIVE_ZERO.search(md)
    section = md.split("## Advice for a few hands", 1)[1].split("\n## ", 1)[0]
    paragraphs = [  # the heuristic's advice, whose tables follow (not PIMC's, perfect play's)
        p
        for p in section.split("\n\n")
        if "Highest safe bid at" in p and not p.startswith("Under ")
    ]
    tables = sorted((folder / "tables").glob("advice_*.csv"), key=lambda p: int(p.stem[7:]))
    assert paragraphs and len(paragraphs) == len(tables)
    letter = {name: s for s, name in SUIT_NAMES.items()}
    checked = 0
    for text, path in zip(paragraphs, tables, strict=True):
        df = pd.read_csv(path)
        judged = df[df["judged"]]
        best = BID_RE.search(text)
        assert best, text
        if best.group(1):  # a bid is advised: it was judged, and its rates are the table's
            row = df[df["bid"] == int(best.group(1))].iloc[0]
            assert row["judged"] and row["as_maker"] >= 100
            assert round(100 * row["p_win_auction"]) == int(best.group(3))
            assert f"p_make_{letter[best.group(2)]}" in df
        safe = SAFE_RE.search(text)
        assert safe, text
        risk = int(safe.group(1)) / 100
        reach = judged[judged["p_make_lo"] >= risk]
        if safe.group(2):
            b = int(safe.group(2))
            assert b == reach["bid"].max()
            lo = float(df.loc[df["bid"] == b, "p_make_lo"].iloc[0])
            assert int(safe.group(4)) == int(100 * lo + 1e-9)  # rounded down, never up
        else:
            assert reach.empty
        checked += 2
    by_hand = pd.read_csv(folder / "tables" / "safe_bid_by_hand.csv")
    for bid, made, lo, hi in CLASS_RE.findall(md):
        if bid == "–":
            continue
        rows = by_hand[
            (by_hand["bid_70"] == int(bid))
            & ((by_hand["make_70"] - float(made) / 100).abs() <= 0.00051)
        ]
        assert not rows.empty, (bid, made)
        r = rows.iloc[0]
        assert r["make_70_lo"] >= 0.7
        assert float(lo) <= 100 * r["make_70_lo"] and float(hi) >= 100 * r["make_70_hi"]
        checked += 1
    return checked


def test_the_advice_sentences_agree_with_their_tables(report_dir):
    assert _advice_claims_hold(report_dir) >= 6


def test_the_committed_report_s_sentences_agree_with_its_tables():
    committed = Path(__file__).resolve().parent.parent / "results" / "report"
    assert _advice_claims_hold(committed) >= 8


def test_the_example_hands_are_advised_under_perfect_play_too(few_example_deals):
    from cinch_sim.report.build import ReportSettings, example_hands, run_example_advice
    from cinch_sim.report.render import Report
    from cinch_sim.report.sections import add_example_advice

    s = ReportSettings(hands=1_000_000, perfect_advice_precision=0.2)
    assert s.perfect_advice() and "advice:dd" in s.work()
    assert not ReportSettings(hands=100_000).perfect_advice()  # --quick leaves it out
    dd = run_example_advice(s, play="dd")
    assert set(dd) == {text for text, _ in example_hands(s.rules)}
    assert all(a.policies["play"] == ["dd"] * 4 and a.hands > 0 for a in dd.values())
    plain = run_example_advice(ReportSettings(hands=1_000_000, advice_precision=0.2))
    report = Report("t")
    add_example_advice(report, plain, 3, s.rules, {"dd": dd})
    text = "\n".join(b for sec in report.sections for b in sec.blocks if isinstance(b, str))
    assert text.count("Under perfect play (every seat double-dummy, every card seen; ") == 4


def test_a_missing_strong_safe_bid_column_is_explained():
    """PIMC's safe bids are only ever a stored study: where none answers (no_draw, or
    the standard game with an option) the report says why the column is missing,
    naming the presets that have one; perfect play's too where the solver cannot play
    whole hands (two decks). The standard game's default has both: nothing to say."""
    from cinch_sim import notation as N
    from cinch_sim.report.build import ReportSettings
    from cinch_sim.report.stored_studies import stored_presets
    from cinch_sim.rules import make_rules

    assert ReportSettings().value_players_left_out() is None
    kept = stored_presets("hand_values", "pimc")
    assert "no_draw" not in kept and {"standard", "pidro", "all_hands"} <= set(kept)
    no_draw = ReportSettings(rules=make_rules("no_draw")).value_players_left_out()
    assert no_draw.startswith("The PIMC player's safe bids are left out")
    assert f"one is stored for {N.joined(kept)}, not for no_draw" in no_draw
    for other in (ReportSettings(rules=make_rules("standard", {"target": "42"})),
                  ReportSettings(dealer=0)):  # fmt: skip
        assert "the one stored for standard was played with the report's default dealer" in (
            other.value_players_left_out()
        )
    two = ReportSettings(rules=make_rules("two_deck")).value_players_left_out()
    assert "Perfect play's safe bids are left out" in two


def test_bids_never_won_are_one_line_not_rows(report_dir):
    """An advice table starts at the lowest bid the hand won on some deal; the bids
    below it (never won: the later seats always bid more) are named under the table,
    and the CSV keeps every bid's numbers."""
    import pandas as pd

    md = (report_dir / "report.md").read_text()
    data = pd.read_csv(report_dir / "tables" / "advice_1.csv")
    never = data[data["as_maker"] == 0]["bid"].tolist()
    assert never and never == list(range(1, len(never) + 1))  # the lowest bids
    first = len(never) + 1
    lo = f"Bid {never[0]}" if len(never) == 1 else f"Bids {never[0]}–{never[-1]}"
    assert f"*{lo}: never won the auction on these deals (not shown)." in md
    table = md[md.index("| bid | P(win auction)") :].splitlines()
    assert table[2].startswith(f"| {first} |")


def test_advice_a_player_is_left_out_of_is_explained():
    """The example hands are advised under PIMC only from a stored study, and under
    perfect play only in a full-sized report of a game the solver plays quickly: where
    either is left out (a --quick report left perfect play out without a word), the
    section says why and the settings table names the players that are in."""
    from cinch_sim.report.build import PERFECT_ADVICE_HANDS, ReportSettings
    from cinch_sim.rules import make_rules

    full = ReportSettings()
    assert full.advice_players_left_out() is None
    assert ("example hands advised under",
            "heuristic, PIMC (stored with cinch_sim) and perfect play") in full.rows()  # fmt: skip
    quick = ReportSettings(hands=PERFECT_ADVICE_HANDS - 1)
    why = quick.advice_players_left_out()
    assert why.startswith("Perfect play's advice on these hands is left out: this report")
    assert "PIMC" not in why
    assert ("example hands advised under", "heuristic and PIMC (stored with cinch_sim)") in (
        quick.rows()
    )
    moved = ReportSettings(dealer=0).advice_players_left_out()
    assert moved.startswith("PIMC's advice on these hands is left out")
    assert "the one stored for standard was played with the report's default dealer" in moved
    no_draw = ReportSettings(rules=make_rules("no_draw")).advice_players_left_out()
    assert "not for no_draw" in no_draw and "times the standard game's here" in no_draw
    two = ReportSettings(rules=make_rules("two_deck")).advice_players_left_out()
    assert "the solver's search is too slow here" in two
    helped = " ".join(CliRunner().invoke(main, ["report", "--help"]).output.split())
    assert f"perfect play (only from {PERFECT_ADVICE_HANDS:,} hands on)" in helped


def test_a_small_report_says_its_advice_leaves_perfect_play_out(report_dir):
    md = (report_dir / "report.md").read_text()
    assert "Perfect play's advice on these hands is left out: this report plays 4,000" in md
    assert "Under perfect play (every seat double-dummy" not in md


def test_costlier_games_play_fewer_strong_hands():
    """A game whose hands cost more under strong play plays fewer of them, so that its
    report takes about as long as the standard game's (no_draw's quick report ran past
    20 minutes when it played the standard sizes: 36 cards in play, a dd hand about 80
    times the standard game's); the progress weights grow to match, and PIMC, left
    with too few deals, is left out with the reason."""
    from cinch_sim.report.build import QUICK, ReportSettings, search_cost
    from cinch_sim.rules import VARIANTS, Rules

    assert search_cost(Rules()) == 1.0
    assert search_cost(VARIANTS["cutthroat3"]) == 1.0  # cheaper games keep the sizes
    std = ReportSettings(**QUICK)
    nd = ReportSettings(rules=VARIANTS["no_draw"], **QUICK)
    cost = search_cost(nd.rules)
    assert 30 < cost < 200
    assert nd.strong_value_hands()["dd"] == int(std.strong_value_hands()["dd"] / cost)
    assert 0 < nd.card_hands()["dd"] < std.card_hands()["dd"] / 30
    assert "pimc" not in nd.card_hands()
    assert "36 cards in play" in nd.card_players_left_out()
    # the same estimated seconds for the strong studies, within their rounding
    for study in ("values:dd",):
        assert abs(nd.work()[study] - std.work()[study]) <= 0.02 * std.work()[study] + cost
    assert sum(nd.work().values()) < 2 * sum(std.work().values())
    # a standard-cost report too small for 20 PIMC deals says so, not that it costs more
    import dataclasses

    small = ReportSettings(rules=dataclasses.replace(Rules(), robber="dealer"), hands=50_000)
    assert "pimc" not in small.card_hands()
    assert "from a report of 50,000 hands" in small.card_players_left_out()
    assert "times the standard game's" not in small.card_players_left_out()
    # asked for, PIMC plays whatever it costs; a standard-cost game keeps its 20 deals
    assert ReportSettings(rules=nd.rules, card_values_hands=5, **QUICK).card_hands()["pimc"] == 5
    custom = dataclasses.replace(Rules(), robber="dealer")  # no preset: no stored study
    assert ReportSettings(rules=custom, **QUICK).card_hands()["pimc"] == 20
    # (auction and cutthroat3 cost no more, and have stored studies, which answer instead)
    assert ReportSettings(rules=VARIANTS["auction"], **QUICK).card_hands()["pimc"] == 5000
    assert ReportSettings(rules=VARIANTS["cutthroat3"], **QUICK).card_hands()["pimc"] == 5000


def test_variant_reports_speak_of_their_own_game():
    """What helpers reading the variants' reports as players found false: example labels
    blind to the Sancho, a deck of 52 with two decks, a robbing rule "best" on a tie;
    safe-bid groups that do not say what they leave out."""
    import pandas as pd

    from cinch_sim.analysis.card_values import stand_in_ranks
    from cinch_sim.report.build import example_hands, example_label
    from cinch_sim.report.sections import _groups_note, _robbing_verdict
    from cinch_sim.rules import VARIANTS, Rules

    # "Nothing at all" holds the 9 of spades: the Sancho, 9 points, in sancho
    nothing = example_hands(Rules())[3][0]
    assert example_label(nothing, Rules(), "S").startswith("Nothing at all")
    assert example_label(nothing, VARIANTS["sancho"], "S") == "The Sancho of spades"
    assert example_label(nothing, VARIANTS["dom_pedro"], "S") == "The Sancho and Dom of spades"
    # the label follows the suit the advisor chose
    first = example_hands(Rules())[0][0]
    assert example_label(first, Rules(), "H") == "No point card in hearts, an ace"
    # the king and queen are named beside the ace (the Sancho's 9 of spades sends the
    # label to the cards), and the cards come highest first: the ace above the Left Pedro
    kings = example_hands(Rules())[2][0]
    assert example_label(kings, VARIANTS["sancho"], "D") == "The K and Q of diamonds, an ace"
    hearts = example_hands(Rules())[1][0]
    assert example_label(hearts, Rules(), "D") == "The A and Left Pedro of diamonds"
    assert example_label(hearts, Rules(), "H") == "The Jack and Right Pedro of hearts, an ace"
    # groups that cannot see the Dom or the Bowers say so; the Sancho splits them, and
    # the standard game's add nothing
    assert _groups_note(Rules()) == "" == _groups_note(VARIANTS["sancho"])
    assert "do not split hands by the Dom (3 points)" in _groups_note(VARIANTS["dom_pedro"])
    assert "Sancho" not in _groups_note(VARIANTS["dom_pedro"])
    assert "the Right Bower and the Left Bower outrank the ace" in _groups_note(
        VARIANTS["all_hands"]
    )
    # heasly: the dealer never gets to rob, so dealer and none tie to the last digit
    data = pd.DataFrame({"robber": ["maker", "dealer", "none"], "mean_points": [3.31, 4.41, 4.41]})
    text = _robbing_verdict(data, "the maker")
    assert "most with the dealer robbing and nobody robbing alike" in text
    assert "least with the maker robbing" in text
    assert "(the dealer never robs here: the stock runs out before his turn)" in text
    tie = pd.DataFrame({"robber": ["maker", "none"], "mean_points": [2.0, 2.0]})
    assert "the same under each" in _robbing_verdict(tie, "the maker")
    # Pidro's Low is the 2 itself: it never stands in for a tested card
    assert stand_in_ranks(Rules())[0] == "2"
    assert "2" not in stand_in_ranks(VARIANTS["pidro"])


def test_the_report_deals_from_the_last_seat_of_any_table():
    """The report's dealer is the last seat, as every command's: ReportSettings left
    dealer 3 for three players, and the store script's cut-throat studies were dealt
    from a seat the table lacks (the engine now refuses that)."""
    from cinch_sim.engine.run import PolicySet, run_chunk
    from cinch_sim.report.build import ReportSettings
    from cinch_sim.rules import make_rules

    assert ReportSettings().dealer == 3
    assert ReportSettings(rules=make_rules("cutthroat3")).dealer == 2
    assert ReportSettings(rules=make_rules("cutthroat3"), dealer=0).dealer == 0
    rules = make_rules("cutthroat2")
    with pytest.raises(ValueError, match="dealer 3 is not a seat of 2 players"):
        run_chunk(rules, PolicySet.from_specs(2), 1, 0, 4, 3)


def test_safe_bids_below_where_the_auction_ends_are_said_to_be_so():
    """A Sancho review: safe bids of 7 to 9 in a game whose auctions end at 13 or more
    read as bids to make. 1,000 contracts, 5 of them below 13 (0.5%): 13 is the level
    the auction seldom ends under, and the two groups safe below it are counted."""
    import pandas as pd

    from cinch_sim.report.sections import _seldom_won

    by_bid = pd.DataFrame({"bid": [0, 9, 12, 13, 15], "hands": [40, 2, 3, 600, 395]})
    safe = pd.DataFrame({"bid_70": pd.array([7, 9, 14, None], dtype="Int64")})
    text = _seldom_won(by_bid, safe)
    assert text.startswith(
        "In this game the auction seldom ends low: 99.5% of the 1,000 contracts the "
        "heuristic bidder won were at 13 or more ('How often each bid is made'). The safe bids "
        "under 13 here (2 groups)"
    )
    assert _seldom_won(by_bid, safe.assign(bid_70=pd.array([13, 14, 15, None], "Int64"))) == ""


def test_a_strong_player_s_safe_bid_says_how_many_hands_it_rests_on():
    """PIMC's safe bid on 34 hands beside the heuristic's on 1,423 read as the same kind
    of figure: the strong players' column gives each bid its hands, ``2 (34)``."""
    import pandas as pd

    from cinch_sim.report.sections import FEW, _bids_of_enough

    bids = pd.Series([2, 7, pd.NA, 5], dtype="Int64")
    hands = pd.Series([34, 1_423, 0, FEW - 1])
    assert _bids_of_enough(bids, hands) == ["2 (34)", "7 (1,423)", "no hands", f"few ({FEW - 1})"]
