"""The lab: what measures and trains the computer players, apart from the players themselves.

- ``arena``: duplicate deals between bots, their strength with a confidence interval.
- ``sprt``: a sequential test on the arena's paired differences (and Student's t).
- ``selfplay``: the expert's own decisions recorded with the value of every option.
- ``policy_train`` and ``playout_train``: the networks trained on those records.
- ``cli``: ``oudler arena`` and ``oudler selfplay`` (``oudler bot`` is the levels', in bots).

The lab calls the levels (``oudler.bots``) and the rules engine; nothing below imports it.
"""
