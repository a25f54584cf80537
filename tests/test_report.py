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
    "What each card, trump length and seat is worth",
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
    assert ">=" in md and "&gt;" not in md and "&amp;" not in md  # no entities for people
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


def test_refuses_to_overwrite_without_force(report_dir):
    res = CliRunner().invoke(
        main, ["report", "--hands", "2000", "--games", "4", "--out", str(report_dir)]
    )
    assert res.exit_code != 0
    assert "--force" in res.output and "Traceback" not in res.output


def test_same_seed_same_report(tmp_path):
    from cinch_sim.report.build import ReportSettings, build_report
    from cinch_sim.report.render import to_markdown

    s = ReportSettings(
        hands=2000, games=8, seed=3, strategies=("heuristic", "simple"), advice_precision=0.05
    )
    a = build_report(s)
    b = build_report(s)
    assert to_markdown(a) == to_markdown(b)
