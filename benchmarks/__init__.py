"""Speed figures beside the alternatives, measured in the same run: ``python -m benchmarks`` (README, Speed)."""
