"""A report as data, written out as self-contained HTML and as Markdown.

Both outputs are rendered from the same formatted strings, so they carry the
same numbers. Every string from outside (strategy and file names, rule
values) is escaped for the output it goes to, so it cannot inject markup.
"""

from __future__ import annotations

import base64
import html
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from cinch_sim import notation as N
from cinch_sim.outputs import atomic_write_bytes, atomic_write_text
from cinch_sim.report import charts
from cinch_sim.views import Tables

FIGURES = "figures"  # the PNG charts' folder, beside report.md
TABLES = "tables"  # the CSV tables' folder


@dataclass
class Table:
    """A table already formatted as text (what both outputs print) and, beside it, the
    same table as numbers (``data``: rates as fractions, counts as integers) for its
    CSV, so the display formatting stays on the page."""

    name: str
    frame: pd.DataFrame
    caption: str = ""
    data: pd.DataFrame | None = None
    labels: int = 1  # the leading columns that say what a row is (rank and strategy: 2)

    def csv_frame(self) -> pd.DataFrame:
        """What ``tables/<name>.csv`` holds: the numbers, or the text where a section
        gave none."""
        return self.frame if self.data is None else self.data


@dataclass
class Chart:
    """A matplotlib figure, saved once as PNG and shown by both outputs."""

    name: str
    figure: object
    caption: str = ""
    alt: str = ""
    png: bytes = b""

    def render_png(self) -> bytes:
        """The PNG, drawn at twice the page's pixel density so it stays sharp on phones'
        and other dense screens."""
        if not self.png:
            buf = io.BytesIO()
            with charts.style():
                self.figure.savefig(
                    buf, format="png", dpi=2 * charts.PX_PER_INCH, bbox_inches="tight"
                )
            self.png = buf.getvalue()
            import matplotlib.pyplot as plt

            plt.close(self.figure)
        return self.png

    def size(self) -> tuple[int, int]:
        """Width and height on the page in CSS px: half the PNG's pixels."""
        png = self.render_png()
        w, h = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        return round(w / 2), round(h / 2)


@dataclass
class Section:
    """One titled part of the page: paragraphs, tables and charts in order."""

    title: str
    blocks: list = field(default_factory=list)  # str paragraphs, Table, Chart

    def text(self, s: str) -> Section:
        self.blocks.append(s)
        return self

    def table(
        self,
        name: str,
        frame: pd.DataFrame,
        caption: str = "",
        data: pd.DataFrame | None = None,
        labels: int = 1,
    ) -> Section:
        self.blocks.append(Table(name, frame, caption, data, labels))
        return self

    def chart(self, name: str, figure, caption: str = "", alt: str = "") -> Section:
        self.blocks.append(Chart(name, figure, caption, alt or caption))
        return self


@dataclass(repr=False)
class Report(Tables):
    """The whole page: a title and its sections (``.table()``: what each section
    holds; ``.table(name)``: one of its tables, as printed)."""

    title: str
    sections: list[Section] = field(default_factory=list)
    out: Path | None = None  # where write_report put it
    interrupted: bool = False  # Ctrl-C stopped it: it holds the studies that ran
    done: dict = field(default_factory=dict)  # the work each study really did

    def table_names(self) -> tuple[str, ...]:
        return ("contents", *(t.name for t in self.tables()))

    def _table(self, name: str) -> pd.DataFrame:
        if name != "contents":
            return next(t.frame for t in self.tables() if t.name == name)
        rows = []
        for sec in self.sections:
            tables = [b.name for b in sec.blocks if isinstance(b, Table)]
            charts = [b.name for b in sec.blocks if isinstance(b, Chart)]
            rows.append(
                {"section": sec.title, "tables": ", ".join(tables), "charts": ", ".join(charts)}
            )
        return pd.DataFrame(rows)

    def headline(self) -> str:
        where = f"; written to {self.out}" if self.out is not None else ""
        return (
            f"Report {self.title!r}: {len(self.sections)} sections, {len(self.tables())} "
            f"tables, {len(self.charts())} charts{where}"
        )

    def section(self, title: str) -> Section:
        s = Section(title)
        self.sections.append(s)
        return s

    def tables(self) -> list[Table]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Table)]

    def charts(self) -> list[Chart]:
        return [b for s in self.sections for b in s.blocks if isinstance(b, Chart)]


def format_frame(df: pd.DataFrame) -> pd.DataFrame:
    """Every cell as text: floats to 3 decimals, NaN as a dash, integers with commas."""
    out = pd.DataFrame(index=df.index)
    for col in df.columns:
        vals = []
        for v in df[col]:
            if isinstance(v, bool):
                vals.append("yes" if v else "")
            elif isinstance(v, int) or (hasattr(v, "dtype") and v.dtype.kind in "iu"):
                vals.append(f"{int(v):,}")
            elif isinstance(v, float):
                vals.append(N.number(v, 3))
            else:
                vals.append(str(v))
        out[str(col)] = vals
    return out


_DIGIT = re.compile(r"\d")
_LETTER = re.compile(r"[^\W\d_]")


def numeric_columns(frame: pd.DataFrame) -> list[bool]:
    """For each column: does it hold numbers (right-aligned, so digits line up) rather
    than text (left-aligned, as text is read)? A number is a cell with a digit and no
    letter but the ``to`` of an interval (``12.3%``, ``+0.26``, ``1.13 to 1.21``,
    ``70.4% (57.2–80.9%)``); blanks and dashes say nothing; one text cell makes the
    column text (``seat 3``, ``0.1.0`` beside ``maker``)."""
    out = []
    for col in frame.columns:
        kinds = set()
        for v in frame[col]:
            cell = str(v).replace(" to ", " ")
            if _DIGIT.search(cell):
                kinds.add("text" if _LETTER.search(cell) else "number")
            elif _LETTER.search(cell):
                kinds.add("text")
        out.append(kinds == {"number"})
    return out


# ------------------------------------------------------------------ Markdown
def _md_cell(s: str) -> str:
    return _md_text(str(s)).replace("|", "\\|").replace("\n", " ")


def _md_text(s: str) -> str:
    """Text as Markdown shows it: only ``<`` is escaped, so no markup can start, and a
    reader of the raw file sees ``>= 0.50``, not ``&gt;= 0.50``."""
    return s.replace("<", "&lt;")


def to_markdown(report: Report) -> str:
    """The report as Markdown; charts are linked from the figures folder."""
    lines = [f"# {_md_text(report.title)}", ""]
    for sec in report.sections:
        lines += [f"## {_md_text(sec.title)}", ""]
        for b in sec.blocks:
            if isinstance(b, str):
                lines += [_md_text(b), ""]
            elif isinstance(b, Table):
                f = b.frame
                lines.append("| " + " | ".join(_md_cell(c) for c in f.columns) + " |")
                lines.append("|" + "".join("---:|" if n else "---|" for n in numeric_columns(f)))
                for row in f.itertuples(index=False):
                    lines.append("| " + " | ".join(_md_cell(v) for v in row) + " |")
                if b.caption:
                    lines += ["", f"*{_md_text(b.caption)}*"]
                lines.append("")
            elif isinstance(b, Chart):
                lines.append(f"![{_md_cell(b.alt)}]({FIGURES}/{b.name}.png)")
                if b.caption:
                    lines += ["", f"*{_md_text(b.caption)}*"]
                lines.append("")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- HTML
# Text columns are left-aligned and number columns right-aligned (``numeric_columns``).
# The text keeps a readable measure (60rem); a wider table's box grows past it, centred,
# up to the window (84rem at most), so a wide screen shows its intervals unwrapped.
# A table wider than the screen scrolls sideways inside its box, never the page, and
# shadows at the box's edges show that there is more; on a phone the tables' text and
# padding shrink a little so most fit without scrolling, and a table's first column
# stays in view as it scrolls (what each row is: where more than one column says it,
# ``Table.labels``, one column joining them takes their place on a phone, so that the
# rank's column does not stay in view while the strategy's scrolls away); a tall table
# (``TALL_ROWS``) scrolls down inside its box too, so that its header stays in view
# (50 rows down nothing said which column was which). Charts are shown at their
# natural width (about 700 px) and shrink to fit a narrower screen; ``charts`` draws
# them with text large enough for that.
JOIN = " · "  # between the labels a phone's joined column shows (``Table.labels``)
TALL_ROWS = 15  # a table of more rows scrolls inside its box on a phone, its header kept
CSS = """
body{font-family:Georgia,serif;max-width:60rem;margin:0 auto;padding:1rem;line-height:1.45;
color:#222;background:#fff}
h1{font-size:1.7rem}h2{font-size:1.3rem;border-bottom:1px solid #ccc;margin-top:2rem}
.tbl{overflow-x:auto;margin:1rem 0;width:max-content;min-width:100%;
max-width:min(100vw - 2rem,84rem);position:relative;left:50%;transform:translateX(-50%);
background:linear-gradient(to right,#fff 30%,rgba(255,255,255,0)),
linear-gradient(to left,#fff 30%,rgba(255,255,255,0)) 100% 0,
radial-gradient(farthest-side at 0 50%,rgba(0,0,0,.35),rgba(0,0,0,0)),
radial-gradient(farthest-side at 100% 50%,rgba(0,0,0,.35),rgba(0,0,0,0)) 100% 0;
background-repeat:no-repeat;background-size:2.5rem 100%,2.5rem 100%,1rem 100%,1rem 100%;
background-attachment:local,local,scroll,scroll}
table{border-collapse:collapse;font-family:Helvetica,Arial,sans-serif;font-size:.85rem}
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}
th{background:rgba(0,0,0,.06);vertical-align:bottom}
.num{text-align:right;font-variant-numeric:tabular-nums}.nb{white-space:nowrap}
figure{margin:1.5rem 0}img{display:block;max-width:100%;height:auto}
figcaption,.caption{font-size:.85rem;color:#555;font-style:italic}
code{font-size:.9em}.rowlab{display:none}
@media (max-width:36rem){body{padding:.6rem}table{font-size:.78rem}th,td{padding:.2rem .25rem}
td:first-child,th:first-child{position:sticky;left:0;z-index:1;background:#fff}
th:first-child{background:#efefef}
.tall{max-height:80vh;overflow:auto}.tall th{position:sticky;top:0;z-index:2;background:#efefef}
.tall th:first-child{z-index:3}.rowlab{display:table-cell}.lab{display:none}}
@media print{body{max-width:none}h2{page-break-after:avoid}figure,table{page-break-inside:avoid}
.tbl{background:none;transform:none;left:0;width:auto;max-width:none}}
"""


def _inline_html(text: str) -> str:
    """Escaped text with its Markdown code spans (a command, an option) as ``<code>``:
    the same sentences feed report.md, where the backticks are markup already."""
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))


def _number_html(cell: str) -> str:
    """A number cell that a narrow column may wrap only between a value and its interval:
    a browser would also break ``[57.2, 80.9]`` at its space, leaving half of it on
    each line."""
    parts = re.split(r"(\[[^\]]*\])", cell)
    return "".join(
        f'<span class="nb">{html.escape(p)}</span>' if p.startswith("[") else html.escape(p)
        for p in parts
    )


def _html_table(t: Table) -> str:
    """One table in its scrolling box, number columns marked ``num``, then its caption.
    A table whose rows are named by several columns (``labels``) gets one more, first,
    that joins them: shown on a phone in their place, where the first column stays in
    view."""
    e = html.escape
    tags = [' class="num"' if n else "" for n in numeric_columns(t.frame)]
    joined = t.labels > 1
    if joined:  # the label columns hide on a phone, the joined one shows there only
        tags = [f' class="{"num " if a else ""}lab"' if i < t.labels else a
                for i, a in enumerate(tags)]  # fmt: skip
    head = "".join(f"<th{a}>{e(str(c))}</th>" for a, c in zip(tags, t.frame.columns, strict=True))
    if joined:
        head = (
            f'<th class="rowlab">{e(JOIN.join(map(str, t.frame.columns[: t.labels])))}</th>' + head
        )

    def cells(row) -> str:
        first = (
            f'<td class="rowlab">{e(JOIN.join(map(str, row[: t.labels])))}</td>' if joined else ""
        )
        return first + "".join(
            f"<td{a}>{_number_html(str(v)) if 'num' in a else e(str(v))}</td>"
            for a, v in zip(tags, row, strict=True)
        )

    rows = "".join(f"<tr>{cells(row)}</tr>" for row in t.frame.itertuples(index=False))
    cap = f'<p class="caption">{_inline_html(t.caption)}</p>' if t.caption else ""
    kind = "tbl tall" if len(t.frame) > TALL_ROWS else "tbl"
    return (
        f'<div class="{kind}" id="table-{e(t.name)}"><table><thead><tr>{head}</tr>'
        f"</thead><tbody>{rows}</tbody></table></div>{cap}"
    )


def to_html(report: Report) -> str:
    """The report as one self-contained HTML page (charts embedded as data URIs)."""
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(report.title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{e(report.title)}</h1>",
    ]
    for i, sec in enumerate(report.sections):
        parts.append(f'<section id="s{i + 1}"><h2>{e(sec.title)}</h2>')
        for b in sec.blocks:
            if isinstance(b, str):
                parts.append(f"<p>{_inline_html(b)}</p>")
            elif isinstance(b, Table):
                parts.append(_html_table(b))
            elif isinstance(b, Chart):
                data = base64.b64encode(b.render_png()).decode("ascii")
                w, h = b.size()
                parts.append(
                    f'<figure id="chart-{e(b.name)}"><img alt="{e(b.alt)}" '
                    f'width="{w}" height="{h}" src="data:image/png;base64,{data}">'
                    f"<figcaption>{_inline_html(b.caption)}</figcaption></figure>"
                )
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def write_report(report: Report, out: Path) -> None:
    """Write report.html (self-contained), report.md with figures/*.png, and tables/*.csv
    (each table's numbers, ``Table.csv_frame``)."""
    fig_dir = out / FIGURES
    tab_dir = out / TABLES
    fig_dir.mkdir(parents=True, exist_ok=True)
    tab_dir.mkdir(parents=True, exist_ok=True)
    for chart in report.charts():
        atomic_write_bytes(fig_dir / f"{chart.name}.png", chart.render_png())
    for table in report.tables():
        atomic_write_text(tab_dir / f"{table.name}.csv", N.csv_text(table.csv_frame()))
    atomic_write_text(out / "report.md", to_markdown(report))
    atomic_write_text(out / "report.html", to_html(report))
    report.out = out
