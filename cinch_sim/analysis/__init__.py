"""Statistics over simulated hands: streaming counts, tables with intervals,
figures, per-hand data, and controlled hand-value experiments."""
