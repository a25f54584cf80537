"""Numba plumbing shared by the kernel and the built-in policies: raw memory views,
branch hints and the disk cache's source stamp. Holds no rule of the game."""
