"""Chart files are byte-reproducible: no timestamp, no random SVG ids."""

from __future__ import annotations

import pytest
from matplotlib.figure import Figure

from cinch_sim.analysis.plots import figure_bytes


def _figure() -> Figure:
    fig = Figure(figsize=(3, 2))
    ax = fig.add_subplot()
    ax.plot([5, 6, 7], [0.7, 0.8, 0.9], marker="o", label="make rate")  # markers get ids
    ax.legend()
    return fig


@pytest.mark.parametrize("fmt", ["svg", "png", "pdf"])
def test_the_same_figure_gives_the_same_bytes(fmt):
    first, second = figure_bytes(_figure(), fmt), figure_bytes(_figure(), fmt)
    assert first == second
    assert len(first) > 500


def test_svg_holds_no_date():
    svg = figure_bytes(_figure(), "svg").decode()
    assert "<dc:date>" not in svg and "<svg" in svg
