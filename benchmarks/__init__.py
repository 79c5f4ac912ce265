"""Benchmarks of the helpers against reference libraries (run from the repository root: ``python -m benchmarks.run_all``)."""
