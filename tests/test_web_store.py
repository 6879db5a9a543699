"""The action log's appends (``Store.append_actions``) under concurrent writers: on SQLite the
appends of one process's request threads are committed together, each still all-or-nothing, and
an append whose match moved on is refused without failing the others."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event

from oudler.tables.store import DuplicateActionError, Store


@pytest.fixture
def store(db: str) -> Iterator[Store]:
    s = Store(db)
    s.create_schema()
    try:
        yield s
    finally:
        s.close()


def new_matches(store: Store, count: int) -> list[str]:
    ids = [f"m{i:03d}" for i in range(count)]
    for mid in ids:
        store.create_match(match_id=mid, owner="p" * 24, length=2, level="random", seed=1)
    return ids


def card(n: int) -> tuple[int, str, Any]:
    return (n % 4, "card", f"T{n % 21 + 1}")


def run_together(calls: list[Any]) -> list[BaseException | None]:
    """Run the calls in threads started at once; each one's exception or None."""
    errors: list[BaseException | None] = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i: int) -> None:
        start.wait()
        try:
            calls[i]()
        except BaseException as e:
            errors[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return errors


def test_concurrent_appends_to_many_matches_are_all_stored_in_order(db: str, store: Store) -> None:
    ids = new_matches(store, 12)

    def play(mid: str) -> None:
        for n in range(15):
            store.append_actions(
                mid, n, [card(n)], finished_totals=[1, 2, 3, -6] if n == 14 else None
            )

    assert run_together([lambda mid=mid: play(mid) for mid in ids]) == [None] * len(ids)
    other = Store(db)  # what another process reads: everything was committed
    try:
        for mid in ids:
            assert [(a.seq, a.seat, a.kind, a.action) for a in other.actions(mid)] == [
                (n, *card(n)) for n in range(15)
            ]
            info = other.get_match(mid)
            assert info is not None and info.totals == [1, 2, 3, -6] and info.finished is not None
    finally:
        other.close()


def test_of_two_appends_at_the_same_place_one_is_stored_the_other_refused(store: Store) -> None:
    (mid,) = new_matches(store, 1)
    store.append_actions(mid, 0, [card(0)])
    for _ in range(5):
        seq = store.action_count(mid)
        first, second = (0, "card", "T1"), (0, "card", "T2")
        errors = run_together(
            [
                lambda seq=seq, first=first: store.append_actions(mid, seq, [first]),
                lambda seq=seq, second=second: store.append_actions(mid, seq, [second, card(9)]),
            ]
        )
        assert sorted(type(e).__name__ for e in errors) == ["DuplicateActionError", "NoneType"]
        stored = store.actions(mid, seq)
        expected = [first] if errors[0] is None else [second, card(9)]
        assert [(a.seat, a.kind, a.action) for a in stored] == expected


def sqlite_only(db: str) -> None:
    if not db.startswith("sqlite"):
        pytest.skip("SQLite's batched commits")


def test_a_stale_append_in_a_batch_is_refused_and_the_others_are_stored(
    db: str, store: Store
) -> None:
    """Appends queued while another thread writes are committed together by the next writer; one
    of them at a place already taken, and one past the log's end, fail alone."""
    sqlite_only(db)
    a, b, c, d = new_matches(store, 4)
    for mid in (a, b, c, d):
        store.append_actions(mid, 0, [card(0)])
    lock = store._write_lock
    assert lock is not None
    results: dict[str, BaseException | None] = {}
    calls = {
        a: lambda: store.append_actions(a, 1, [card(1), card(2)]),
        b: lambda: store.append_actions(b, 0, [card(5)]),  # action 0 is stored already
        c: lambda: store.append_actions(c, 3, [card(3)]),  # a gap: the log holds 1 action
        d: lambda: store.append_actions(d, 1, [card(1)], finished_totals=[0, 0, 0, 0]),
    }
    batches = []
    real = store._commit_appends

    def counted(batch: list[Any]) -> None:
        batches.append(len(batch))
        real(batch)

    store._commit_appends = counted  # type: ignore[method-assign]
    with lock:  # another thread's write in progress: the four queue up meanwhile
        threads = []
        for mid, call in calls.items():

            def run(mid: str = mid, call: Any = call) -> None:
                try:
                    call()
                    results[mid] = None
                except BaseException as e:
                    results[mid] = e

            threads.append(threading.Thread(target=run))
            threads[-1].start()
        while len(store._pending) < 4:
            threading.Event().wait(0.01)
    for t in threads:
        t.join(30)
    assert batches == [4]  # one transaction for the four
    assert results[a] is None and results[d] is None
    assert isinstance(results[b], DuplicateActionError)
    assert isinstance(results[c], DuplicateActionError)
    assert [x.action for x in store.actions(a)] == [card(n)[2] for n in range(3)]
    assert [x.action for x in store.actions(b)] == [card(0)[2]]
    assert [x.action for x in store.actions(c)] == [card(0)[2]]
    info = store.get_match(d)
    assert info is not None and info.totals == [0, 0, 0, 0]


def test_a_batch_that_cannot_be_written_fails_each_append_and_stores_nothing(
    db: str, store: Store
) -> None:
    """SQLite refusing writes (``PRAGMA query_only``, as a full disk would): every append of the
    batch fails with the database's error, nothing is stored, and once writes are allowed again
    the same appends succeed."""
    sqlite_only(db)
    ids = new_matches(store, 3)
    refuse = [True]

    @event.listens_for(store.engine, "checkout")
    def _read_only(dbapi_conn: Any, _record: Any, _proxy: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute(f"PRAGMA query_only = {'ON' if refuse[0] else 'OFF'}")
        cur.close()

    lock = store._write_lock
    assert lock is not None
    with lock:
        errors_holder: list[list[BaseException | None]] = []
        runner = threading.Thread(
            target=lambda: errors_holder.append(
                run_together(
                    [lambda mid=mid: store.append_actions(mid, 0, [card(0)]) for mid in ids]
                )
            )
        )
        runner.start()
        while len(store._pending) < 3:
            threading.Event().wait(0.01)
    runner.join(30)
    (errors,) = errors_holder
    assert all(e is not None and "readonly" in str(e).replace("-", "").lower() for e in errors)
    assert all(store.action_count(mid) == 0 for mid in ids)
    refuse[0] = False
    for mid in ids:
        store.append_actions(mid, 0, [card(0)])
    assert all(store.action_count(mid) == 1 for mid in ids)


def test_a_matchs_state_is_its_row_and_the_end_of_its_log(store: Store) -> None:
    (mid,) = new_matches(store, 1)
    info, stored = store.match_state(mid)
    assert info is not None and (info.id, info.level, info.learning, stored) == (
        mid,
        "random",
        False,
        0,
    )
    store.append_actions(mid, 0, [card(0), card(1)])
    store.set_learning(mid, True)
    info, stored = store.match_state(mid)
    assert info is not None and info.learning and stored == 2 == store.action_count(mid)
    assert store.match_state("nope") == (None, 0)


def test_a_learning_switch_turned_by_another_process_shows_in_the_next_answer(db: str) -> None:
    """Every request reads the match's row with the end of its log, so a switch turned through
    another server process on the database is seen at once (the cached match is not stale)."""
    from test_web_support import new_match, web_client

    with web_client(db) as c:
        view = new_match(c, seed=3)
        assert view["learning"] is False and view["undo"] is False
        other = Store(db)
        try:
            other.set_learning(view["id"], True)
        finally:
            other.close()
        assert c.get(f"/api/matches/{view['id']}").json()["learning"] is True
