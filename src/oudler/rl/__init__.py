"""Reinforcement-learning environments over the rules engine (``pip install oudler[rl]``).

- ``oudler.encoding``: one action space of 89 integers for every phase (bids, the discard
  picked one card at a time, the chelem question, the poignée size then its cards one at a time,
  the cards), legal-action masks, and each seat's observation as a numpy vector. It lives below
  the computer players (the ``policy`` level reads the same vectors), so that this package, whose
  Gymnasium environment plays against them, sits above them; ``oudler.rl.encoding`` is its old
  name, kept.
- ``oudler.rl.pettingzoo``: a PettingZoo AEC environment for the four seats.
- ``oudler.rl.openspiel``: the game ``oudler_french_tarot`` registered with pyspiel.
- ``oudler.rl.gymnasium``: one seat against three Oudler bots, as a Gymnasium environment.
- ``oudler.rl.text``: one seat's view as text.

Everything calls the core's ``Deal``: the rules live there only, and every observation is built
from ``Deal.observation(seat)`` so that no hidden card reaches an agent (RULES.md §11).
"""
