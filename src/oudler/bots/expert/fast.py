"""The expert's search on the compiled kernel (``oudler.kernel``): its ``PlayState`` and
``Table`` as kernel positions, and batches of policy playouts. The kernel plays the same policy
as ``playout.playout`` and scores as ``PlayState.score`` (tests/test_kernel_*.py), so a search
gets the same values from either, only many more of them in the same time."""

from __future__ import annotations

from oudler import kernel as K

from .playout import PlayState, Table


def position_of(st: PlayState) -> K.Position:
    return K.position(
        st.hands,
        leader=st.leader,
        cards=st.cards,
        n=st.n,
        pile=st.pile,
        extra=st.extra,
        dtricks=st.dtricks,
        ex_trick=st.ex_trick,
        ex_owner_decl=st.ex_owner_decl,
        ex_winner_decl=st.ex_winner_decl,
        petit17=st.petit17,
        pab=st.pab,
    )


def scoring_of(t: Table) -> K.Scoring:
    return K.Scoring(t.declarer, t.multiplier, t.announced, t.poignee_bonus)


def playout_all(
    states: list[PlayState], table: Table, net: K.PlayoutNet | None = None
) -> list[PlayState]:
    """Every state played to the end by the policy (the learned one with ``net``); the finished
    states (hands empty), in order.
    The states share the tally of the first one (tricks so far, trick in progress): only their
    hands and the discard or dog that counts differ."""
    if not states:
        return []
    base = position_of(states[0])
    rows = K.world_rows([(st.hands, st.extra) for st in states])
    out: list[PlayState] = []
    for st, f in zip(states, K.playouts_final(base, rows, scoring_of(table), net), strict=True):
        end = st.copy()
        end.hands = [0, 0, 0, 0]
        end.cards = []
        end.n = 18
        end.pile = f.pile
        end.dtricks = f.dtricks
        end.ex_trick = f.ex_trick
        end.ex_owner_decl = f.ex_owner_decl
        end.ex_winner_decl = f.ex_winner_decl
        end.petit17 = f.petit17
        end.pab = f.pab
        out.append(end)
    return out


def tail_scores(states: list[PlayState], table: Table, tail: int) -> list[int]:
    """``PlayState.score`` of each state played to the end by the policy, its last ``tail``
    tricks solved exactly (the states share their tally, as in ``playout_all``)."""
    if not states:
        return []
    rows = K.world_rows([(st.hands, st.extra) for st in states])
    ds = K.tail_playouts(position_of(states[0]), rows, scoring_of(table), tail)
    return [int(d) for d in ds]
