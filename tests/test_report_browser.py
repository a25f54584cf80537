"""The report as a reader sees it: report.html laid out by headless Chromium on a wide
screen (1400 px) and on a phone (420 px).

The page is shown in an iframe of the width under test (a headless window is never
narrower than 500 px) and a script added to a copy of it measures the layout once it
has loaded and posts the numbers to the host page, which Chromium's --dump-dom
prints. Skipped where no Chromium is installed (.ci/run installs it where it can).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

CHROMIUM = next(
    (p for p in (shutil.which("chromium"), shutil.which("chromium-browser")) if p), None
)
# the slow set (CI runs both): building the report and loading it takes 5 s, and the
# default run reads the report's text and tables in test_report*.py
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        CHROMIUM is None,
        reason="Chromium is not installed: the report is not checked in a browser",
    ),
]
WIDE, PHONE = 1400, 420
MIN_SCREEN_PX = 9  # the smallest chart text a reader can read on a phone, in CSS px

MEASURE = """<script>
addEventListener('load', function () {
  function align(el) { return getComputedStyle(el).textAlign; }
  var r = {width: innerWidth, page: document.documentElement.scrollWidth, tables: [],
           charts: []};
  document.querySelectorAll('table').forEach(function (t) {
    var box = t.parentElement, cols = [], shown = [];
    t.querySelectorAll('thead th').forEach(function (th, i) {
      if (getComputedStyle(th).display === 'none') return;  // a phone's or a screen's only
      var first = t.querySelector('tbody tr');
      shown.push([th.textContent, first && first.children[i] ?
                  first.children[i].textContent : null]);
      var cells = [align(th)];
      t.querySelectorAll('tbody tr').forEach(function (tr) {
        if (tr.children[i]) cells.push(align(tr.children[i]));
      });
      cols.push(cells);
    });
    r.tables.push({id: box.id, box: box.className, overflow: getComputedStyle(box).overflowX,
                   inner: box.scrollWidth, outer: box.clientWidth,
                   right: box.getBoundingClientRect().right, align: cols, shown: shown});
  });
  document.querySelectorAll('figure img').forEach(function (img) {
    var b = img.getBoundingClientRect();
    r.charts.push({id: img.parentElement.id, width: b.width, right: b.right,
                   pixels: img.naturalWidth});
  });
  parent.postMessage(JSON.stringify(r), '*');
});
</script>"""

HOST = """<!DOCTYPE html><html><body style="margin:0"><pre id="measure"></pre>
<iframe src="{page}" style="border:0;width:{width}px;height:900px"></iframe>
<script>addEventListener('message', function (e) {{
  document.getElementById('measure').textContent = e.data; }});</script></body></html>"""


def layout(page: Path, width: int) -> dict:
    """The layout of ``page`` (a copy with MEASURE in it) in a viewport ``width`` px wide."""
    host = page.with_name(f"host{width}.html")
    host.write_text(HOST.format(page=page.name, width=width), encoding="utf-8")
    with tempfile.TemporaryDirectory() as profile:
        res = subprocess.run(
            [
                CHROMIUM,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                f"--window-size={width + 50},1000",
                "--virtual-time-budget=10000",
                "--dump-dom",
                host.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=120,
        )
    m = re.search(r'<pre id="measure">(.+?)</pre>', res.stdout, re.S)
    assert m, f"no measurements from Chromium (exit {res.returncode}): {res.stderr[-2000:]}"
    import html

    return json.loads(html.unescape(m.group(1)))


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """A small report (the real sections, few hands), its page with the measuring script,
    and its layout at both widths."""
    from cinch_sim.report.build import ReportSettings, build_report
    from cinch_sim.report.render import to_html

    report = build_report(
        ReportSettings(
            hands=2000, games=8, seed=3, strategies=("heuristic", "simple"), advice_precision=0.05
        )
    )
    page = tmp_path_factory.mktemp("browser") / "report.html"
    page.write_text(to_html(report).replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    return report, {w: layout(page, w) for w in (WIDE, PHONE)}


@pytest.mark.parametrize("width", [WIDE, PHONE])
def test_nothing_is_cut_off(built, width):
    """The page never scrolls sideways and every table is whole: it fits its box, or the
    box scrolls so the rest of it can be reached."""
    report, lay = built
    m = lay[width]
    assert m["width"] == width
    assert m["page"] <= width, "the page is wider than the screen"
    assert len(m["tables"]) == len(report.tables())
    for t in m["tables"]:
        assert t["box"] in ("tbl", "tbl tall") and t["right"] <= width + 0.5, t["id"]
        fits = t["inner"] <= t["outer"]
        assert fits or t["overflow"] in ("auto", "scroll"), f"{t['id']} is cut off"
    for c in m["charts"]:
        assert c["right"] <= width + 0.5, c["id"]


def test_a_row_named_by_several_columns_keeps_its_whole_name_in_view_on_a_phone(built):
    """On a phone a table's first column stays in view as it scrolls. The ladder's was
    its rank (the strategy scrolled away), the matchups' A (B did) and the safe bids'
    the Pedros dealt (the trumps and the ace and king did): one column joining them
    takes their place there, and only there."""
    from cinch_sim.report.render import JOIN

    report, lay = built
    joined = 0
    for table, wide, phone in zip(report.tables(), lay[WIDE]["tables"], lay[PHONE]["tables"],
                                  strict=True):  # fmt: skip
        columns = [str(c) for c in table.frame.columns]
        first = [str(v) for v in table.frame.iloc[0]] if len(table.frame) else []
        assert [h for h, _ in wide["shown"]] == columns, table.name
        if table.labels == 1:
            assert [h for h, _ in phone["shown"]] == columns, table.name
            continue
        joined += 1
        k = table.labels
        assert phone["shown"][0] == [JOIN.join(columns[:k]), JOIN.join(first[:k])], table.name
        assert [h for h, _ in phone["shown"][1:]] == columns[k:], table.name
    assert joined >= 3  # the safe bids, the ladder, its matchups


def test_charts_are_wide_on_a_wide_screen(built):
    report, lay = built
    charts = lay[WIDE]["charts"]
    assert [c["id"] for c in charts] == [f"chart-{c.name}" for c in report.charts()]
    assert len(charts) >= 4
    for c in charts:
        assert c["width"] >= 600, c


def test_chart_text_is_readable_on_a_phone(built):
    """Each chart fills the phone's column, and its smallest text, shrunk with the
    chart, is still at least MIN_SCREEN_PX tall on the screen."""
    from matplotlib.text import Text

    from cinch_sim.report.charts import PX_PER_INCH

    report, lay = built
    for chart, c in zip(report.charts(), lay[PHONE]["charts"], strict=True):
        assert c["width"] >= 380, c
        sizes = [
            t.get_fontsize()
            for t in chart.figure.findobj(Text)
            if t.get_visible() and t.get_text().strip()
        ]
        smallest = min(sizes) * 2 * PX_PER_INCH / 72 * c["width"] / c["pixels"]  # CSS px
        assert smallest >= MIN_SCREEN_PX, (chart.name, min(sizes), smallest)


WORD = re.compile(r"[A-Za-z][A-Za-z' ]*")
NUMBER = re.compile(r"[+-]?[\d,]+(\.\d+)?%?")


def test_text_columns_left_numbers_right(built):
    """Columns of words are left-aligned and columns of numbers right-aligned, headers
    with their column (the computed style of every cell)."""
    report, lay = built
    seen = set()
    for table, t in zip(report.tables(), lay[WIDE]["tables"], strict=True):
        for col, aligns in zip(table.frame.columns, t["align"], strict=True):
            cells = [str(v) for v in table.frame[col] if str(v) not in ("", "–")]
            if cells and all(WORD.fullmatch(v) for v in cells):
                want = "left"
            elif cells and all(NUMBER.fullmatch(v) for v in cells):
                want = "right"
            else:
                continue
            seen.add(want)
            assert set(aligns) == {want}, (table.name, col, aligns)
    assert seen == {"left", "right"}
