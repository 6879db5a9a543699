"""The coach: hints and after-deal analysis, from one seat's observation only.

``advise(obs, seed=...)`` values every legal action of the seat to move by its expected deal score
over worlds sampled from what it knows, and says why the best is best; ``analyze_deal(record)``
judges every decision of a finished deal record from what its seat could see at that moment. Both
use the expert's search (``oudler.bots.expert``). See docs/analyze.md.
"""

from oudler.coach.advice import Advice, advise
from oudler.coach.analysis import analyze_deal
from oudler.coach.reasons import Reason

__all__ = ["Advice", "Reason", "advise", "analyze_deal"]
