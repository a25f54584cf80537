"""Cinch Monte Carlo strategy analyser."""

__version__ = "0.1.0"
