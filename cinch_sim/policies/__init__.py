"""Built-in policies, each a small jitted function with the policy signature."""
