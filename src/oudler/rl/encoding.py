"""The environments' action ids, masks and observation vectors, by their first name.

They are ``oudler.encoding``: below the computer players, whose ``policy`` level reads the same
vectors, so that ``oudler.rl``, whose Gymnasium environment plays against those players, sits
above them. This module keeps ``oudler.rl.encoding`` working for code written against it.
"""

from oudler.encoding import *  # noqa: F403
from oudler.encoding import __all__ as __all__
