"""The engine: the compiled kernel that deals and plays hands and games, and the
Python runner that feeds it arrays chunk by chunk over worker threads."""
