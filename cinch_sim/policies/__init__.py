"""Built-in policies, each a small jitted function with the policy signature, and the
registry, loader and strategies that name them (the registry imports no numba)."""
