"""The report's charts, drawn to be read on a phone as well as on a wide screen.

A chart scaled down to a phone's width keeps its proportions, so what decides
whether its labels can be read there is the size of the text against the width
of the figure. The report's charts are one panel each, ``WIDTH`` inches wide, with
text of at least ``MIN_POINTS``: shown at their natural size on a wide screen
(about 700 px) and shrunk to a phone's ~390 px, their smallest label is still
about 9 px tall. Where the charts came from (hands, seed) is said once, in the
caption under each chart on the page, not in the image.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

WIDTH = 6.4  # inches, at PX_PER_INCH: about 700 CSS px on a wide screen
PX_PER_INCH = 110  # CSS px per inch of figure (the PNG is drawn at twice that)
MIN_POINTS = 11  # the smallest text in a chart
STYLE = {
    "font.size": 12,
    "axes.titlesize": 13,
    "axes.labelsize": 12,
    "xtick.labelsize": MIN_POINTS,
    "ytick.labelsize": MIN_POINTS,
    "legend.fontsize": MIN_POINTS,
    "legend.title_fontsize": MIN_POINTS,
    "figure.titlesize": 13,
}


@contextmanager
def style() -> Iterator[None]:
    """The report's chart text sizes, for drawing a chart and for saving it (matplotlib
    makes some labels, such as tick labels, only when the figure is saved)."""
    import matplotlib

    with matplotlib.rc_context(STYLE):
        yield


def _floor_text(fig) -> None:
    """Raise any text drawn smaller than ``MIN_POINTS`` (bar labels, say) to it."""
    from matplotlib.text import Text

    for t in fig.findobj(Text):
        if t.get_fontsize() < MIN_POINTS:
            t.set_fontsize(MIN_POINTS)


def _figure(height: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(WIDTH, height), layout="constrained")


def make_rate_chart(analysis):
    """Make rate by bid level with its 95% band; the y axis is fitted to the data."""
    from cinch_sim.analysis.plots import draw_make_rate, make_rate_title

    with style():
        fig = _figure(4.4)
        ax = fig.add_subplot()
        note = draw_make_rate(ax, analysis)
        ax.set_title(make_rate_title(analysis) + note)
        if len(ax.get_lines()) > 1:  # a legend only when there are classes to tell apart
            fig.legend(loc="outside lower center", ncols=2)
        _floor_text(fig)
    return fig


def pedro_holder_chart(analysis):
    """Who held each Pedro after the draw, and whether that side kept it."""
    from cinch_sim.analysis.plots import draw_pedro_holders, pedro_titles

    with style():
        fig = _figure(5.0)
        ax = fig.add_subplot()
        draw_pedro_holders(ax, analysis)
        ax.set_title(pedro_titles(analysis.counts.rules)[0])
        _legend_below(fig, ax)
        _floor_text(fig)
    return fig


def pedro_trick_chart(analysis):
    """The trick each Pedro fell in, saved by the holder's side or lost."""
    from cinch_sim.analysis.plots import draw_pedro_tricks
    from cinch_sim.analysis.words import capture_each

    each = capture_each(analysis.counts.rules)
    with style():
        fig = _figure(5.0)
        ax = fig.add_subplot()
        draw_pedro_tricks(ax, analysis)
        ax.set_title(f"The trick {each} fell in")
        _legend_below(fig, ax)
        _floor_text(fig)
    return fig


def _legend_below(fig, ax) -> None:
    """The legend under the chart, where it covers no bar."""
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=2)


def ladder_chart(ratings):
    """The strategies' ratings with their intervals, best at the top."""
    from cinch_sim.matches.plots import ladder_figure

    with style():
        fig = ladder_figure(ratings)
        fig.set_size_inches(WIDTH, fig.get_figheight() + 0.4)
        fig.set_layout_engine("tight")  # laid out again at the new size when saved
        ax = fig.axes[0]
        ax.set_title("Strategy ratings")
        ax.set_xlabel("rating, Elo scale (95% bootstrap interval)")
        _floor_text(fig)
    return fig
