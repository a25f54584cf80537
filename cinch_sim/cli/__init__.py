"""The click command line: parses options and calls the Python API; no simulation here."""
