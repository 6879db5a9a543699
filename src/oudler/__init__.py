"""Oudler: French Tarot for four under the FFT free-play rules."""

__version__ = "0.10.1"
