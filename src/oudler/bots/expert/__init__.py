"""The expert level: search over the hidden cards (perfect-information Monte Carlo).

- ``sampler``: worlds consistent with everything the seat has seen, weighted by the calls;
- ``playout``: a heuristic policy, fast playouts and an exact endgame solver;
- ``scoring``: the deal's score at a leaf, fast;
- ``search``: the choice of a card; ``contract``: bids, discard, chelem and poignée.
"""

from oudler.bots.expert.bot import ExpertBot
from oudler.bots.expert.search import SearchCancelled

__all__ = ["ExpertBot", "SearchCancelled"]
