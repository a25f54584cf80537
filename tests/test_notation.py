"""One notation for rates, means and intervals (cinch_sim.notation)."""

from __future__ import annotations

import math

import pandas as pd

from cinch_sim import notation as N


def test_rates_are_percentages_and_their_intervals_percentage_points():
    assert N.rate(0.7774) == "77.7%"
    assert N.rate(1.0) == "100.0%"
    assert N.rate_interval(0.769, 0.7851) == "[76.9, 78.6]"  # the upper end rounded up
    assert N.rate_with_interval(0.533, 0.528, 0.539) == "53.3% [52.8, 53.9]"


def test_means_and_differences():
    assert N.number(8.494) == "8.49"
    assert N.number(0.26, signed=True) == "+0.26"
    assert N.number_with_interval(8.49, 8.30, 8.69) == "8.49 [8.30, 8.69]"
    assert N.interval(-0.1, 0.3, signed=True) == "[-0.10, +0.30]"


def test_intervals_are_rounded_outwards():
    # a lower bound of 69.978% must not show as 70.0, beside text saying the bid is not
    # safe at 70%; a bound exactly at a decimal (0.7 * 100 = 70.00000000000001) stays
    assert N.rate_interval(0.69978, 0.74901) == "[69.9, 75.0]"
    assert N.rate_interval(0.7, 0.75) == "[70.0, 75.0]"
    assert N.interval(8.305, 8.694) == "[8.30, 8.70]"
    assert N.interval(-0.004, 0.003, signed=True) == "[-0.01, +0.01]"


def test_no_negative_zero():
    assert N.number(-0.001, 2, signed=True) == "0.00"
    assert N.number(-0.0, 1) == "0.0"
    assert N.number(0.0, 2, signed=True) == "0.00"
    assert N.rate(-0.0) == "0.0%"
    assert N.interval(-0.0, 0.0, signed=True) == "[0.00, 0.00]"
    assert N.number(-0.006, 2, signed=True) == "-0.01"


def test_missing_values_are_a_dash_and_a_missing_interval_is_left_out():
    assert N.rate(math.nan) == N.DASH
    assert N.interval(math.nan, 1.0) == N.DASH
    assert N.rate_with_interval(0.5, math.nan, math.nan) == "50.0%"
    assert N.number_with_interval(2.0, None, None) == "2.00"


def test_names_and_headings():
    assert N.label("right_pedro") == "Right Pedro"
    assert N.label("jack") == "Jack"
    assert N.heading("make_rate") == "make rate"


def test_csv_floats_are_rounded_and_ints_kept():
    df = pd.DataFrame({"n": [3, 4], "rate": [0.9999999999999999, 1 / 3]})
    text = N.csv_ready(df).to_csv(index=False)
    assert text.splitlines() == ["n,rate", "3,1.0", "4,0.333333"]
    assert df["rate"][1] == 1 / 3  # the caller's frame is not changed


def test_csv_keeps_a_tiny_value_s_digits():
    """Six decimals turned a ladder's p-value of 2.5e-19 into 0.0 in the CSV while the
    JSON said 2.5e-19; a value the rounding would zero keeps six significant digits."""
    import pandas as pd

    frame = pd.DataFrame({"p": [2.5e-19, 0.12345678, 0.0, 1 / 3 - 1e-17], "n": [1, 2, 3, 4]})
    lines = N.csv_text(frame).splitlines()
    assert lines[1:] == ["2.5e-19,1", "0.123457,2", "0.0,3", "0.333333,4"]
