"""Charts of an ``Analysis`` as matplotlib Figures (Agg, never ``show()``).

Each figure has a title, labelled axes with units and a caption naming the
number of hands, the seed, the policies and the rules that differ from the
defaults, so a chart read on its own says what it shows. The ``draw_*`` functions
draw one panel on a given axes, so the strategy report can lay the same panels
out at its own size, with its caption in the page instead of in the image.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from cinch_sim import notation as N

MAX_LINES = 8  # hand classes drawn in the make-rate chart (the most common)
SAVED, LOST, OUT = "#2b7bba", "#e05c3a", "#b0b0b0"


def _figure(w: float = 9, h: float = 5.5):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(w, h), layout="constrained")
    return fig


def caption(analysis, note: str | None = None) -> str:
    """Two lines: hands, seed, policies and rules; then what the marks mean (``note``)."""
    s = analysis.settings
    c = analysis.counts
    extra = f", {c.thrown_in:,} thrown in" if c.thrown_in else ""
    stop = " (interrupted)" if analysis.interrupted else ""
    return f"{c.hands:,} hands{stop}{extra}, {N.seeds(s)}; {N.settings_words(s)}.\n" + (
        note or "Intervals: 95% (Wilson for rates, Student's t for means)."
    )


def _caption(fig, text: str) -> None:
    fig.get_layout_engine().set(rect=(0, 0.09, 1, 0.91))
    fig.text(0.01, 0.012, text, fontsize=7.5, color="#333333", va="bottom", ha="left")


def _class_label(row, by: tuple[str, ...], rules=None) -> str:
    parts = []
    for f in by:
        v = row[f]
        if f == "trumps":
            parts.append(f"{v} trump" + ("" if v == 1 else "s"))
        elif f == "pedros":
            parts.append(_pedros_class(v, rules))
        elif f == "high":
            parts.append(f"{v} of AKQJ10")
        elif f == "ace":
            parts.append("ace" if v else "no ace")
        elif f == "honours":
            parts.append(f"honours {v}")
        elif f == "seat":
            parts.append(f"{v}")
        else:
            parts.append(f"{f} {v}")
    return ", ".join(parts)


def _pedros_class(value: str, rules=None) -> str:
    """A ``pedros`` value in a legend: 'pedros: both'; where the left card is no Pedro
    (all_hands) the cards by name: 'Right Pedro and Left Bower', 'neither ... nor ...'."""
    from cinch_sim.analysis.counts import PEDRO_LABELS, pedro_labels

    labels = PEDRO_LABELS if rules is None else pedro_labels(rules)
    if labels == PEDRO_LABELS:
        return f"pedros: {value}"
    names = [N.label(n) for n in labels[3].split("_and_")]
    if value == labels[0]:
        return f"neither {' nor '.join(names)}"
    return " and ".join(N.label(n) for n in value.split("_and_"))


def make_rate_figure(analysis):
    """Make rate against bid level, one line per hand class, with 95% interval bands."""
    fig = _figure()
    ax = fig.add_subplot()
    note = draw_make_rate(ax, analysis)
    ax.set_title(make_rate_title(analysis) + note)
    if len(ax.get_lines()) > 1:  # a legend only when there are classes to tell apart
        ax.legend(
            fontsize=8,
            loc="upper left",
            bbox_to_anchor=(1.01, 1),
            title=f"hand class (maker's {analysis.counts.rules.cards_dealt} dealt cards)",
            title_fontsize=8,
        )
    _caption(
        fig,
        caption(
            analysis,
            (
                f"Bands: 95% Wilson intervals. Points with fewer than {analysis.min_hands} "
                "hands are not drawn (they are in the tables, flagged low_n)."
            ),
        ),
    )
    return fig


def make_rate_title(analysis) -> str:
    """The make-rate chart's title: by bid level, and by the hand classes drawn if any."""
    by = [f for f in analysis.by if f != "bid"]
    return "Make rate by bid level" + (f" and {', '.join(by)}" if by else "")


def draw_make_rate(ax, analysis) -> str:
    """Draw the make-rate lines and bands on ``ax``, the y axis fitted to them; return a
    note for the title when only the most common hand classes are drawn."""
    by = tuple(f for f in analysis.by if f != "bid")
    mr = analysis.min_hands
    overall = analysis.make_rate(("bid",))
    overall = overall[~overall["low_n"] & (overall["bid"] > 0)]  # bid 0: no contract
    drawn = [overall]
    ax.plot(
        overall["bid"],
        100 * overall["make_rate"],
        color="black",
        lw=2.2,
        marker="o",
        ms=4,
        label="all hands",
        zorder=5,
    )
    ax.fill_between(
        overall["bid"],
        100 * overall["make_rate_lo"],
        100 * overall["make_rate_hi"],
        color="black",
        alpha=0.12,
        lw=0,
    )
    note = ""
    if by:
        t = analysis.make_rate((*by, "bid"))
        sizes = t.groupby(list(by), sort=False)["hands"].sum().sort_values(ascending=False)
        keep = sorted(sizes.index[:MAX_LINES])
        if len(sizes) > MAX_LINES:
            note = f" (the {MAX_LINES} most common of {len(sizes)} classes)"
        cmap = _cmap(len(keep))
        for i, key in enumerate(keep):
            key = key if isinstance(key, tuple) else (key,)
            sel = np.logical_and.reduce([t[f] == k for f, k in zip(by, key, strict=True)])
            d = t[sel & (t["hands"] >= mr)]
            if d.empty:
                continue
            drawn.append(d)
            label = _class_label(dict(zip(by, key, strict=True)), by, analysis.counts.rules)
            ax.plot(
                d["bid"],
                100 * d["make_rate"],
                marker="o",
                ms=3,
                lw=1.4,
                color=cmap[i],
                label=f"{label} (n={int(sizes[key if len(by) > 1 else key[0]]):,})",
            )
            ax.fill_between(
                d["bid"],
                100 * d["make_rate_lo"],
                100 * d["make_rate_hi"],
                color=cmap[i],
                alpha=0.15,
                lw=0,
            )
    ax.set_xlabel("bid (points contracted)")
    ax.set_ylabel("contracts made (%)")
    lows = [100 * v for d in drawn for v in d["make_rate_lo"]]
    highs = [100 * v for d in drawn for v in d["make_rate_hi"]]
    ax.set_ylim(*rate_limits(lows, highs))
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.grid(alpha=0.3)
    return note


def rate_limits(lows, highs, margin: float = 2.0) -> tuple[float, float]:
    """Y limits (percent) that hold every band with a margin, on multiples of 5, so the
    differences between bid levels fill the chart instead of a 0-100% axis."""
    lows, highs = np.asarray(lows, float), np.asarray(highs, float)
    if not np.isfinite(lows).any() or not np.isfinite(highs).any():
        return 0.0, 102.0
    bottom = max(0.0, 5 * np.floor((np.nanmin(lows) - margin) / 5))
    top = 5 * np.ceil((np.nanmax(highs) + margin) / 5)
    return float(bottom), float(min(top, 100.0) + (1.5 if top >= 100 else 0.0))


def _cmap(n: int):
    import matplotlib

    cm = matplotlib.colormaps["tab10"]
    return [cm(i % 10) for i in range(max(n, 1))]


def heatmap_figure(analysis):
    """Make rate by trumps held (rows) and bid (columns); starred cells have few hands."""
    t = analysis.make_rate(("trumps", "bid"))
    fig = _figure(9, 6)
    ax = fig.add_subplot()
    if t.empty:
        ax.text(0.5, 0.5, "no hands", ha="center", va="center", transform=ax.transAxes)
        _caption(fig, caption(analysis))
        return fig
    trumps = np.arange(t["trumps"].min(), t["trumps"].max() + 1)
    bids = np.arange(t["bid"].min(), t["bid"].max() + 1)
    grid = np.full((len(trumps), len(bids)), np.nan)
    n = np.zeros_like(grid)
    for r in t.itertuples():
        grid[r.trumps - trumps[0], r.bid - bids[0]] = 100 * r.make_rate
        n[r.trumps - trumps[0], r.bid - bids[0]] = r.hands
    shown = np.where(n >= analysis.min_hands, grid, np.nan)
    im = ax.imshow(
        shown,
        origin="lower",
        aspect="auto",
        cmap="RdYlBu",
        vmin=0,
        vmax=100,
        extent=(bids[0] - 0.5, bids[-1] + 0.5, trumps[0] - 0.5, trumps[-1] + 0.5),
    )
    for i, tr in enumerate(trumps):
        for j, b in enumerate(bids):
            if n[i, j] == 0:
                continue
            low = n[i, j] < analysis.min_hands
            ax.text(
                b,
                tr,
                f"{grid[i, j]:.0f}" + ("*" if low else ""),
                ha="center",
                va="center",
                fontsize=7,
                color="#777777" if low else "black",
            )
    fig.colorbar(im, ax=ax, label="contracts made (%)")
    ax.set_title("Make rate (%) by trumps held and bid")
    ax.set_xlabel("bid (points contracted)")
    ax.set_ylabel(f"trumps in the maker's {analysis.counts.rules.cards_dealt} dealt cards")
    ax.set_xticks(bids)
    ax.set_yticks(trumps)
    _caption(
        fig,
        caption(
            analysis,
            (
                f"Cells with fewer than {analysis.min_hands} hands are left uncoloured, their rate "
                "in grey with a star; empty cells: no hands."
            ),
        ),
    )
    return fig


def pedro_titles(rules) -> tuple[str, str, str]:
    """The Pedro chart's two titles and its caption's note, in the rules' words (as the
    report words them): the Left Bower by its name, no 'after the draw' without a draw,
    the holder himself in cut-throat, and with two decks the copy played first."""
    from cinch_sim.analysis.tables import (
        after_the_draw,
        capture_each,
        capture_noun,
        capture_phrase,
        copies_note,
        only_pedros_captured,
    )

    cards = capture_phrase(rules)
    one = len(rules.key_cards) == 1
    each = capture_each(rules)
    took = "it" if only_pedros_captured(rules) or one else "each"
    keeper = "the holder's side" if rules.partnerships else "the holder himself"
    first = f"Who held {each}, and who took {took}"
    second = f"When {cards} fall{'s' if one else ''}: saved by {keeper} or lost"
    if len(first) > 45:  # two lines rather than past the panel
        first = first.replace(", and who", ",\nand who", 1)
    if len(second) > 70:
        second = second.replace(": ", ":\n", 1)
    who = "the side of the player" if rules.partnerships else "the player"
    noun = capture_noun(rules)
    note = (
        f"Bar heights: share of all played hands; 'saved': taken by {who} "
        f"who held the {noun}{after_the_draw(rules)}."
    )
    copies = copies_note(rules, "bar")
    if copies:
        note += f" {copies[0].upper()}{copies[1:]}."
    return first, second, note


def pedro_figure(analysis):
    """Pedro capture as stacked bars: by holder, and by the trick the Pedro fell in."""
    fig = _figure(11, 6)
    ax1, ax2 = fig.subplots(1, 2, width_ratios=(1, 1.4))
    draw_pedro_holders(ax1, analysis)
    draw_pedro_tricks(ax2, analysis)
    first, second, note = pedro_titles(analysis.counts.rules)
    ax1.set_title(first)
    ax2.set_title(second)
    # one legend for both panels, above them, so it covers no bar; its swatches show
    # which Pedro is hatched
    fig.legend(*ax1.get_legend_handles_labels(), loc="outside upper center", ncols=5, fontsize=8)
    _caption(fig, caption(analysis, note))
    return fig


def draw_pedro_holders(ax, analysis) -> list[str]:
    """Stacked bars on ``ax``: who held each Pedro after the draw, and whether that side
    kept it; each bar is labelled with a legend entry. Returns the Pedros in drawing order
    (the second one's bars are hatched)."""
    from cinch_sim.analysis.tables import (
        after_the_draw,
        capture_noun,
        only_pedros_captured,
        pedro_capture,
    )

    rules = analysis.counts.rules
    pc = pedro_capture(analysis.counts, analysis.min_hands)
    pedros = [name for name, _ in analysis.counts.key_cards]
    holders = [h for h in dict.fromkeys(pc["holder"]) if h != "none"]
    width = 0.8 / max(len(pedros), 1)
    total = max(analysis.counts.played, 1)
    for k, pedro in enumerate(pedros):
        d = pc[pc["pedro"] == pedro]
        x = np.arange(len(holders)) + (k - (len(pedros) - 1) / 2) * width
        saved = np.array([_get(d, h, "saved") for h in holders]) / total * 100
        lost = np.array([_get(d, h, "lost") for h in holders]) / total * 100
        _saved_lost_bars(ax, x, saved, lost, width, k, _nice(pedro))
        for xi, s, lo in zip(x, saved, lost, strict=True):
            if s + lo > 0:
                ax.annotate(
                    _nice(pedro).split()[0],
                    (xi, s + lo),
                    xytext=(0, 2),
                    textcoords="offset points",
                    ha="center",
                    va="bottom",
                    fontsize="small",
                )
    out = [_get(pc[pc["pedro"] == p], "none", "out_of_play") for p in pedros]
    if any(out):
        mean = (
            ""
            if len(pedros) == 1
            else " (mean of the Pedros)"
            if only_pedros_captured(rules)
            else f" (mean of the {len(pedros)} cards)"
        )
        ax.bar(
            len(holders),
            sum(out) / total / len(pedros) * 100,
            0.5,
            color=OUT,
            label=f"not in play{mean}",
        )
        holders = [*holders, "not in play"]
    ax.set_xticks(np.arange(len(holders)), [_holder_label(h, rules.partnerships) for h in holders])
    ax.set_ylabel("share of hands (%)")
    ax.set_xlabel(f"who held the {capture_noun(rules)}{after_the_draw(rules)}")
    ax.margins(y=0.08)  # room for the labels over the tallest bars
    ax.grid(axis="y", alpha=0.3)
    return pedros


def draw_pedro_tricks(ax, analysis) -> None:
    """Stacked bars on ``ax``: the trick each Pedro fell in, saved or lost."""
    from cinch_sim.analysis.tables import capture_noun, pedro_by_trick

    pt = pedro_by_trick(analysis.counts, analysis.min_hands)
    played = pt[pt["holder"] != "none"]
    pedros = [name for name, _ in analysis.counts.key_cards]
    width = 0.8 / max(len(pedros), 1)
    total = max(analysis.counts.played, 1)
    tricks = np.arange(1, analysis.counts.hand_size + 1)
    for k, pedro in enumerate(pedros):
        d = played[played["pedro"] == pedro].groupby("trick")[["saved", "lost"]].sum()
        d = d.reindex(tricks, fill_value=0)
        x = tricks + (k - (len(pedros) - 1) / 2) * width
        saved = d["saved"].to_numpy() / total * 100
        lost = d["lost"].to_numpy() / total * 100
        _saved_lost_bars(ax, x, saved, lost, width, k, _nice(pedro))
    ax.set_xticks(tricks)
    ax.set_xlabel(f"trick the {capture_noun(analysis.counts.rules)} fell in (1 = first)")
    ax.set_ylabel("share of hands (%)")
    ax.grid(axis="y", alpha=0.3)


HATCHES = (None, "//", "..", "xx")  # the key cards' bars, in the rules' order


def _saved_lost_bars(ax, x, saved, lost, width: float, k: int, name: str) -> None:
    """One card's bars: saved (blue) with lost (red) stacked on top; the second card's
    hatched, and each later one (Sancho, Dom) its own way."""
    hatch = HATCHES[k % len(HATCHES)]
    ax.bar(
        x, saved, width * 0.95, color=SAVED, hatch=hatch, edgecolor="white", label=f"{name} saved"
    )
    ax.bar(
        x,
        lost,
        width * 0.95,
        bottom=saved,
        color=LOST,
        hatch=hatch,
        edgecolor="white",
        label=f"{name} lost",
    )


def _get(d, holder: str, fate: str) -> int:
    s = d[(d["holder"] == holder) & (d["fate"] == fate)]["hands"]
    return int(s.sum())


def _nice(name: str) -> str:
    """``right_pedro`` as a player writes it: Right Pedro."""
    return name.replace("_", " ").title()


def _holder_label(h: str, partnerships: bool = True) -> str:
    """A holder role on the axis: in cut-throat every other player is 'another player'."""
    other = "a defender" if partnerships else "another player"
    return {"maker": "maker", "partner": "maker's partner", "defender": other}.get(h, h)


def points_ticks(top: int, most: int = 16) -> np.ndarray:
    """The points axis' ticks, 0 to ``top``: every point (the standard game's 0-14), or
    every second, fifth... where that many would run together (two decks' 0-28)."""
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100) if top // s + 1 <= most or s == 100)
    return np.arange(0, top + 1, step)


def points_figure(analysis):
    """Points taken by each side, and the expected score change by bid level (in
    cut-throat the maker's points against the other players' together, and his score
    change against the average opponent's: tables.opponent_share)."""
    from cinch_sim.analysis.tables import (
        mean_columns,
        mean_labels,
        opponent_share,
        points_distribution,
        score_by_bid,
        side_columns,
        side_labels,
    )

    counts = analysis.counts
    pd_ = points_distribution(counts, analysis.min_hands)
    sb = score_by_bid(counts, analysis.min_hands)
    others = opponent_share(counts)
    fig = _figure(11, 5.5)
    ax1, ax2 = fig.subplots(1, 2)
    x = pd_["points"].to_numpy()
    split = zip((-0.2, 0.2), side_columns(counts), (SAVED, LOST), side_labels(counts), strict=True)
    for off, col, color, label in split:
        share = 100 * pd_[f"{col}_share"].to_numpy()
        err = 100 * np.vstack(
            [pd_[f"{col}_share"] - pd_[f"{col}_lo"], pd_[f"{col}_hi"] - pd_[f"{col}_share"]]
        )
        ax1.bar(
            x + off,
            share,
            0.4,
            color=color,
            label=label,
            yerr=err,
            capsize=1.5,
            error_kw={"elinewidth": 0.6},
        )
    ax1.set_xlabel("points taken in the hand")
    ax1.set_ylabel("share of hands (%)")
    ax1.set_title("Distribution of points per hand")
    ax1.set_xticks(points_ticks(int(x.max())) if len(x) else x)
    ax1.legend(fontsize=8)
    ax1.grid(axis="y", alpha=0.3)
    d = sb[~sb["low_n"]]
    theirs = mean_columns(counts)[1]
    mine_label, theirs_label = mean_labels(counts)
    for col, color, label in (
        ("score_change", SAVED, mine_label),
        (f"{theirs}_score_change", LOST, theirs_label),
    ):
        ax2.errorbar(
            d["bid"],
            d[f"mean_{col}"],
            yerr=[d[f"mean_{col}"] - d[f"{col}_lo"], d[f"{col}_hi"] - d[f"mean_{col}"]],
            color=color,
            marker="o",
            ms=4,
            capsize=2,
            label=label,
        )
    ax2.axhline(0, color="black", lw=0.8)
    ax2.set_xlabel("bid (points contracted)")
    ax2.set_ylabel("mean score change (game points per hand)")
    ax2.set_title("Expected score change by bid level")
    ax2.legend(fontsize=8)
    ax2.grid(alpha=0.3)
    _caption(
        fig,
        caption(
            analysis,
            (
                "Error bars: 95% intervals (Wilson for shares, Student's t for means); bid "
                f"levels with fewer than {analysis.min_hands} hands are not drawn."
                + (
                    f"\nOther players: the {others} other players together; average opponent: "
                    f"their score change together, divided by {others}."
                    if others > 1
                    else ""
                )
            ),
        ),
    )
    return fig


FIGURES = {
    "make_rate_by_bid": make_rate_figure,
    "make_rate_heatmap": heatmap_figure,
    "pedro_capture": pedro_figure,
    "points": points_figure,
}


def all_figures(analysis) -> dict[str, Any]:
    """Every chart by file stem."""
    return {name: f(analysis) for name, f in FIGURES.items()}


def figure_bytes(fig, fmt: str, dpi: int = 130) -> bytes:
    """A figure as the bytes of one file format, the same bytes for the same figure.

    SVG and PDF would hold the time of writing, and SVG ids drawn from a random
    salt: both are fixed here, so a rerun with the same seed gives identical
    files (PNG holds neither).
    """
    import io

    import matplotlib

    metadata = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}.get(fmt, {})
    buf = io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": "cinch-sim"}):
        fig.savefig(buf, format=fmt, dpi=dpi, metadata=metadata)
    return buf.getvalue()


def save_figure(fig, out: Path, stem: str, formats: tuple[str, ...] = ("png", "svg")) -> list[str]:
    """Write a figure atomically in each format; return the file names."""
    from cinch_sim.outputs import atomic_write_bytes

    names = []
    for fmt in formats:
        atomic_write_bytes(Path(out) / f"{stem}.{fmt}", figure_bytes(fig, fmt))
        names.append(f"{stem}.{fmt}")
    return names
