"""Measurement-based validation of vramgui's numbers against real PyTorch / transformers models.

Run with ``make validate`` (creates .venv-validate with torch and transformers; never part of the app or of
``make test``). See docs/accuracy.md for the latest report and docs/activations.md for the accounting.
"""
