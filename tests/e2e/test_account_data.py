"""A person's data in a real Chromium (issue 29; docs/accounts.md, "Your data"): "Export my data"
saves one file with every match, and "Delete my account" asks for the password in a dialog; the
friend's table stays whole and replayable, and names the person "a former player"."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pagedriver import CHROMIUM, Table, person_action
from test_accounts import fill

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]

NAME, PASSWORD = "Sacha", "a long enough secret"


def api(table: Table, method: str, path: str, body: Any = None) -> Any:
    r = table.context.request.fetch(f"{table.base}{path}", method=method, data=body)
    assert r.ok, r.text()
    return r.json()


def play_first_deal(people: list[Table], match_id: str) -> None:
    """The two people play the table's first deal to its end, through the API."""
    for _ in range(400):
        views = [api(p, "GET", f"/api/matches/{match_id}") for p in people]
        if views[0]["status"] in ("deal_over", "match_over"):
            return
        if views[0]["status"] == "computer_turn":
            path, body = "step", {"version": views[0]["version"]}
            who = 0
        else:
            who = next(i for i, v in enumerate(views) if v["status"] == "your_turn")
            v = views[who]
            path, body = "actions", {"version": v["version"], "action": person_action(v)}
        r = people[who].context.request.post(
            f"{people[who].base}/api/matches/{match_id}/{path}", data=body
        )
        assert r.status in (200, 202, 409), r.text()  # 409: the table moved on meanwhile
    raise AssertionError("the deal did not end")


def test_export_then_delete_leaves_the_friends_table_whole(open_table: Any) -> None:
    person: Table = open_table()
    friend: Table = open_table()
    person.home()
    fill(person.account_menu(), "keep-form", name=NAME, password=PASSWORD)
    person.page.wait_for_selector('[data-role="account-summary"][data-signed-in="true"]')
    friend.home()
    table = api(
        friend, "POST", "/api/matches",
        {"seats": ["me", "person", "computer", "computer"], "deals": 2, "level": "random"},
    )  # fmt: skip
    token = table["invites"][0]["url"].removeprefix("/join/")
    api(person, "POST", f"/api/join/{token}")
    friend.match_id = table["id"]
    play_first_deal([friend, person], table["id"])
    before = friend.record()
    assert len(before["deals"]) == 1

    # Export my data: the browser saves one file, with the table in it.
    menu = person.account_menu()
    with person.page.expect_download() as saved:
        menu.locator('[data-action="export"]').click()
    download = saved.value
    assert download.suggested_filename.startswith(f"oudler-{NAME}-")
    data = json.loads(Path(download.path()).read_text(encoding="utf-8"))
    assert [m["id"] for m in data["matches"]] == [table["id"]]
    assert data["matches"][0]["deals"][0]["format"] == "tarot-seat/1"

    # Delete my account: a wrong password is refused in the dialog, the right one deletes.
    menu.locator('[data-action="delete-account"]').click()
    dialog = person.page.locator('[data-role="delete-dialog"]')
    dialog.locator('input[name="password"]').fill("not the password")
    dialog.locator('[type="submit"]').click()
    error = dialog.locator('[data-role="account-error"]')
    error.wait_for()
    assert error.inner_text() == "The name or the password is wrong."
    dialog.locator('input[name="password"]').fill(PASSWORD)
    with person.page.expect_navigation():
        dialog.locator('[type="submit"]').click()
    person.page.wait_for_selector('[data-role="account-summary"][data-signed-in="false"]')
    assert api(person, "GET", "/api/me") == {"name": None, "account": None}

    # The friend's table: whole, replayable, and the person is "a former player".
    after = friend.record()
    assert [{k: v for k, v in d.items() if k != "by"} for d in after["deals"]] == [
        {k: v for k, v in d.items() if k != "by"} for d in before["deals"]
    ]
    assert after["players"][1] == {"seat": 1, "kind": "person", "name": None, "former": True}
    friend.home()
    row = friend.page.locator(f'tr[data-match="{table["id"]}"]')
    row.wait_for()
    assert "a former player" in row.inner_text()
    assert not person.errors and not friend.errors
