"""Housekeeping scripts of the book (run from the repository root as ``python -m tools.<name>``)."""
