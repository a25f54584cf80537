"""The committed results/report/report.md says what the report's code writes now.

The committed report is made by ``cinch-sim report --out results/report
--force`` (README, "Quick start"), minutes of simulation, so this test runs
none: it reads the committed page and the report's code and compares their
words, with the numbers masked on both sides (every run of digits, commas and
decimal points becomes ``#``). Other numbers (a new seed, a better heuristic)
do not fail it; other sentences do. Two checks, one for each direction:

1. **code -> page.** Every fixed piece of text in ``cinch_sim/report/sections.py``
   and ``build.py`` (a string constant, or the literal part of an f-string
   between its ``{fields}``) of three words or more that the default report
   always writes must be in the page. What "always" means is read from the
   code: a piece inside an ``if``, a conditional expression, an ``and``/``or``,
   a comprehension, a dict of alternatives (looked up by the data) or after an
   early ``return`` may rightly be missing from the default report, so it is
   not required; nor are the functions of ``NOT_IN_DEFAULT_REPORT``. A sentence
   changed in the code and not regenerated fails here.
2. **page -> code.** Every line of the page's prose (title, headings,
   paragraphs, captions, chart texts, table headers) is made of pieces of the
   code's text: removing every piece found in it (the report's modules and
   those whose words it quotes: the advice, the card values' method, the
   strategies' descriptions, the notation's labels) leaves only data, no run
   of three words or more. A sentence the code no longer writes fails here.

When either fails, regenerate the report with the command above.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import cinch_sim

PACKAGE = Path(cinch_sim.__file__).resolve().parent
REPORT = PACKAGE.parent / "results" / "report" / "report.md"
TEMPLATES = ("report/sections.py", "report/build.py")  # the report's own sentences
QUOTED = (  # modules whose words the report quotes (check 2 only)
    "advisor/estimate.py",
    "advisor/present.py",
    "analysis/card_values.py",
    "analysis/hand_worth.py",
    "analysis/words.py",
    "analysis/intervals.py",
    "policies/strategies.py",
    "notation.py",
)
# Functions whose text the default report (the standard game) never shows.
NOT_IN_DEFAULT_REPORT = {"_cutthroat_ladder": "the ladder of a cut-throat table"}
NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
CARD = re.compile(r"(?<!\w)(?:10|[2-9TJQKA])[SHDC](?!\w)")
CONDITIONAL = (ast.BoolOp, ast.comprehension, ast.Try)


def _mask(text: str) -> str:
    """Numbers and cards (``AS``, ``9S``: an example hand is data) as ``#``; ``<`` as
    the Markdown page escapes it."""
    return NUMBER.sub("#", CARD.sub("#", text.replace("<", "&lt;")))


def _docstrings(tree: ast.AST) -> set[int]:
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                out.add(id(body[0].value))
    return out


def _texts(path: Path) -> list[str]:
    """Every piece of text in a module: its string constants and the literal parts of
    its f-strings (not docstrings, not format specs such as ``.2f``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            skip |= {id(n) for n in ast.walk(node.format_spec)}
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
    ]


def _ends_early(stmt: ast.stmt) -> bool:
    """An ``if`` that may leave the block (``return``, ``raise``, ``continue``, ``break``)."""
    leaves = (ast.Return, ast.Raise, ast.Continue, ast.Break)
    return isinstance(stmt, ast.If) and any(isinstance(n, leaves) for n in ast.walk(stmt))


def _always_written(path: Path) -> list[tuple[str, str]]:
    """(function, text) of every piece of text a function of ``path`` writes whenever
    it runs (see the module docstring): none under a condition."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _docstrings(tree)
    out: list[tuple[str, str]] = []

    def block(stmts: list[ast.stmt], fn: str | None, cond: bool) -> None:
        for stmt in stmts:
            visit(stmt, fn, cond)
            cond = cond or _ends_early(stmt)

    def visit(node: ast.AST, fn: str | None, cond: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            block(node.body, node.name, False)
        elif isinstance(node, ast.ClassDef):
            block(node.body, None, False)
        elif isinstance(node, ast.FormattedValue):
            visit(node.value, fn, cond)  # not its format spec
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, str) and fn and not cond and id(node) not in skip:
                out.append((fn, node.value))
        elif isinstance(node, ast.If):
            visit(node.test, fn, cond)
            block(node.body, fn, True)
            block(node.orelse, fn, True)
        elif isinstance(node, ast.IfExp):
            visit(node.test, fn, cond)
            visit(node.body, fn, True)
            visit(node.orelse, fn, True)
        elif isinstance(node, ast.Dict):  # keys are text; values, alternatives
            for key in node.keys:
                if key is not None:
                    visit(key, fn, cond)
            for value in node.values:
                visit(value, fn, True)
        else:
            inner = cond or isinstance(node, CONDITIONAL)
            for child in ast.iter_child_nodes(node):
                visit(child, fn, inner)

    block(tree.body, None, False)
    return out


def _prose(page: str) -> list[str]:
    """The page's lines people read as text: all but table bodies, each table's header
    cells on their own."""
    out, previous = [], ""
    for line in page.splitlines():
        if line.startswith("|"):
            if not previous.startswith("|"):  # a header row
                out += [c.strip() for c in line.strip("|").split(" | ")]
        elif line.strip():
            out.append(line)
        previous = line
    return out


@pytest.fixture(scope="module")
def page() -> str:
    return REPORT.read_text(encoding="utf-8")


def test_the_page_has_every_sentence_the_code_always_writes(page):
    masked = _mask(page)
    missing = [
        f"{name} ({fn}): {text!r}"
        for name in TEMPLATES
        for fn, text in _always_written(PACKAGE / name)
        if fn not in NOT_IN_DEFAULT_REPORT
        and len(text.split()) >= 3
        and _mask(text).strip() not in masked
    ]
    assert missing == [], (
        "results/report/report.md lacks text the code writes: regenerate it with "
        "cinch-sim report --out results/report --force"
    )


def test_every_line_of_the_page_is_the_code_s_text(page):
    pieces = {
        _mask(t).strip()
        for name in (*TEMPLATES, *QUOTED)
        for t in _texts(PACKAGE / name)
        if re.search(r"[^\W\d_]{2}", t)
    }
    patterns = [
        re.compile(
            (r"(?<!\w)" if re.match(r"\w", p) else "")
            + re.escape(p)
            + (r"(?!\w)" if re.search(r"\w$", p) else "")
        )
        for p in sorted(pieces, key=len, reverse=True)
    ]
    stale = []
    for line in _prose(page):
        rest = _mask(line)
        for pattern in patterns:
            rest = pattern.sub("\0", rest)
        words = [
            piece.split()
            for piece in rest.split("\0")
            if len([w for w in piece.split() if re.search(r"[^\W\d_]", w)]) >= 3
        ]
        if words:
            stale.append((line[:80], [" ".join(w) for w in words]))
    assert stale == [], (
        "results/report/report.md holds text the code no longer writes: regenerate it with "
        "cinch-sim report --out results/report --force"
    )


@pytest.mark.parametrize(
    "now, before, checks",
    [
        # a sentence always written: both checks see it
        ("Wilson score intervals.", "Wilson intervals.", 2),
        # words from a table of alternatives (the page this test first found): only the second
        (
            "(as the game's own rules text has it), the rule",
            "(as the game's own rules text has it, this project's default)",
            1,
        ),
    ],
)
def test_the_checks_see_a_page_older_than_the_code(page, now, before, checks):
    assert now in page
    old = page.replace(now, before)
    failed = 0
    for check in (
        test_the_page_has_every_sentence_the_code_always_writes,
        test_every_line_of_the_page_is_the_code_s_text,
    ):
        try:
            check(old)
        except AssertionError:
            failed += 1
    assert failed == checks
