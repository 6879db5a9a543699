"""A warm-up of the expert's compiled search held at a gate, for the tests of the table while
it is being built (no tests here).

The real warm-up takes seconds to minutes depending on the machine and on numba's cache, so a
test could not tell when it is under way. ``gated_warm_up`` runs in the real warmer process
(``oudler.tables.warming.Warmer``): it reports some progress, waits until the file named by
``$OUDLER_TEST_WARM_GATE`` exists, then does the real warm-up (``oudler.kernel.warm_up``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from oudler.core import Match

GATE_ENV = "OUDLER_TEST_WARM_GATE"
GATED = "warming_support:gated_warm_up"
HELD_PROGRESS = 0.25
GATE_LIMIT = 300.0  # seconds: a warmer whose test never opened its gate ends by itself

# A match whose first dealer is North: West bids first, then the person.
WEST_FIRST_SEED = next(s for s in range(1, 1000) if Match(2, s).first_dealer == 2)


def gated_warm_up(progress: Callable[[float], None]) -> None:
    gate = Path(os.environ[GATE_ENV])
    progress(HELD_PROGRESS)
    held = time.monotonic()
    while not gate.exists():
        if time.monotonic() - held > GATE_LIMIT:
            raise TimeoutError("the gate was never opened")
        time.sleep(0.02)
    from oudler import kernel

    kernel.warm_up(progress=lambda share: progress(max(HELD_PROGRESS, share)))
