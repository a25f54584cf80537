"""Whole games between strategies: duplicate matches, their statistics, the ladder."""
