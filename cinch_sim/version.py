"""The package version: one owner, importable without the package's lazy API."""

__version__ = "0.2.0"
