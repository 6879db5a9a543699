"""A person at the web table, in a real Chromium, against the real server (issue 4)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pagedriver import CHROMIUM, Table, View, discards_in_match, person_action

from oudler.core import Match
from oudler.core.records import deal_from_record

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]


def sheet_on_page(table: Table) -> tuple[list[tuple[int, list[int]]], list[int]]:
    """The score sheet as the page shows it: (deal number, four scores) per row, and the totals."""
    sheet = table.page.locator('[data-role="score-sheet"]')
    assert sheet.count() == 1
    rows = []
    for tr in sheet.locator("tbody tr[data-deal]").all():
        cells = tr.locator("td[data-seat]").all()
        scores = [int(c.inner_text().replace("−", "-")) for c in cells]
        rows.append((int(tr.get_attribute("data-deal") or 0), scores))
    totals = [
        int(c.inner_text().replace("−", "-"))
        for c in sheet.locator('[data-role="totals"] td[data-seat]').all()
    ]
    return rows, totals


def test_a_whole_two_deal_match_played_through_the_page_scores_as_the_engine(
    open_table: Any, server: str
) -> None:
    # A seed whose match makes the person take the dog and discard at least once: the match is
    # first played through the API with the same choices (the computer players' choices depend
    # only on the match seed and the position, so the page replays it exactly).
    seed = next(s for s in range(1, 60) if discards_in_match(server, s))
    table: Table = open_table()
    table.home()
    table.new_match(deals=2, level="random", seed=seed)

    phases_done: set[str] = set()
    v = table.settle()
    while v["status"] != "match_over":
        if v["status"] == "deal_over":
            # The breakdown is shown before the next deal, with each player's mark.
            breakdown = table.page.locator('[data-role="breakdown"] li')
            assert breakdown.count() >= 3
            marks = table.page.locator('[data-role="marks"] td[data-seat]').all_inner_texts()
            result = v["observation"]["result"]
            assert [int(m.replace("−", "-")) for m in marks] == result["scores"]
            table.page.click('[data-action="next-deal"]')
            table.after(v["version"])
            v = table.settle()
            continue
        phases_done.add(v["observation"]["phase"])
        v = table.act(v, person_action(v))
    assert {"bidding", "discard", "play"} <= phases_done

    # The page's score sheet is the server's, and the engine, replaying the downloaded record,
    # gives the same scores deal by deal.
    rows, totals = sheet_on_page(table)
    assert rows == [(r["deal"], r["scores"]) for r in v["sheet"]]
    assert totals == v["totals"]
    record = table.record()
    assert [deal_from_record(d).result.scores for d in record["deals"]] == [  # type: ignore[union-attr]
        tuple(scores) for _, scores in rows
    ]
    assert [sum(col) for col in zip(*(s for _, s in rows), strict=True)] == totals
    assert len([r for r in v["sheet"] if r["void"] is None]) == 2

    # The final standing names the winners; the finished match is listed with its record.
    standing = table.page.locator('[data-role="standing"] li.winner').all()
    assert sorted(int(li.get_attribute("data-seat") or -1) for li in standing) == v["winners"]
    table.page.click('[data-action="new-match-again"]')
    row = table.page.locator(f'#match-list tr[data-match="{table.match_id}"]')
    row.wait_for()
    href = row.locator('[data-action="download-record"]').get_attribute("href")
    assert href == f"/api/matches/{table.match_id}/record"


def test_a_page_reload_mid_deal_resumes_where_the_match_was(open_table: Any) -> None:
    table: Table = open_table()
    table.home()
    table.new_match(deals=2)
    v = table.play_until(
        lambda v: (
            v["status"] == "your_turn"
            and v["observation"]["phase"] == "play"
            and len(v["observation"]["tricks"]) >= 2
        )
    )
    assert v["status"] == "your_turn", "the match ended before a third trick"

    def seen() -> tuple[list[str], str, str]:
        return table.hand(), table.page.inner_text("#center"), table.page.inner_text("#deal-info")

    before = seen()
    url = table.page.url
    assert f"#/match/{table.match_id}" in url

    table.page.reload()
    table.drawn(v["version"])
    assert table.page.url == url
    assert seen() == before
    o = v["observation"]
    assert table.disabled() == set(o["hand"]) - set(o["legal"]["cards"])

    # The game goes on from there, by keyboard: focus the first legal card and press Enter.
    card = person_action(v)
    table.page.focus(f'#hand [data-card="{card}"]')
    table.page.keyboard.press("Enter")
    after = table.after(v["version"])
    assert card not in after["observation"]["hand"]

    # Closing the tab and coming back later: the match is listed and opens where it stands.
    table.page.close()
    table.page = table.new_page()
    table.home()
    table.page.click(f'#match-list tr[data-match="{table.match_id}"] [data-action="open-match"]')
    v = table.settle()
    assert sorted(table.hand()) == sorted(v["observation"]["hand"])


def test_a_disabled_card_cannot_be_played_and_says_why(open_table: Any) -> None:
    table: Table = open_table()
    table.home()
    table.new_match(deals=2)
    v: View = table.play_until(
        lambda v: (
            v["status"] == "your_turn"
            and v["observation"]["phase"] == "play"
            and bool(v["reasons"])
        )
    )
    assert v["status"] == "your_turn", "the person never had a card they could not play"
    disabled = sorted(table.disabled())
    assert disabled == sorted(v["reasons"])
    card = disabled[0]
    element = table.page.locator(f'#hand [data-card="{card}"]')
    # Pointing at the card tells why it is refused, in words (no card codes), as a sentence.
    said = element.get_attribute("data-reason") or ""
    assert element.get_attribute("title") == said
    assert said[:1] == said[:1].upper() and said.endswith(".") and not re.search(r"\bT\d+\b", said)

    sent: list[str] = []
    table.page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    table.click_card(card, force=True)  # Playwright refuses aria-disabled elements unless forced
    reason = table.page.locator('[data-role="reason"]')
    assert reason.inner_text() == said
    element.focus()
    table.page.keyboard.press("Enter")
    table.page.wait_for_timeout(300)
    assert sent == []
    now = table.view()
    assert now["version"] == v["version"]
    assert card in now["observation"]["hand"] and card in table.hand()


def test_the_page_follows_the_browser_language_fits_a_phone_and_switches_language(
    open_table: Any,
) -> None:
    table: Table = open_table(locale="zh-CN", viewport={"width": 390, "height": 844})
    table.home()
    assert table.page.inner_text('[data-role="start"]') == "开始"
    table.new_match(deals=2)
    v = table.settle()
    page = table.page
    n = 1 + sum(1 for r in v["sheet"] if r["void"] is None and r["deal"] < v["deal_number"])
    assert page.inner_text('[data-role="deal-number"]') == f"第 {n} 手（共 2 手）"
    # Nothing wider than the phone's screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.select_option('[data-role="lang"]', "en")
    assert page.inner_text('[data-role="deal-number"]') == f"Deal {n} of 2"
    assert page.inner_text('[data-role="rules-link"]') == "Rules"
    # The rules page opens in the chosen language, one click away.
    with page.context.expect_page() as opened:
        page.click('[data-role="rules-link"]')
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.locator("article[data-langs~='en']").is_visible()
    assert not rules.locator("article[data-langs='zh']").is_visible()
    rules.close()


def test_the_person_shows_a_poignee_of_the_size_and_trumps_they_choose(open_table: Any) -> None:
    # A match seed whose first deal gives the person at least 10 trumps (the Excuse counted), found
    # with the engine; the page is then checked against the server's view of that deal.
    seed = next(
        s
        for s in range(1, 20000)
        if (m := Match(2, s)).current.void is None and m.current.poignee_cards(0).bit_count() >= 10
    )
    table: Table = open_table()
    table.home()
    table.new_match(deals=2, seed=seed)
    v = table.play_until(
        lambda v: v["observation"]["phase"] == "poignee" and v["status"] == "your_turn"
    )
    assert v["observation"]["phase"] == "poignee", "the person was never asked about a poignée"
    legal = v["observation"]["legal"]["poignee"]
    page = table.page
    sizes = [
        int(e.get_attribute("data-poignee-size") or 0)
        for e in page.query_selector_all("[data-poignee-size]")
    ]
    assert sizes == legal["sizes"]
    offered = [
        e.get_attribute("data-poignee-card") for e in page.query_selector_all("[data-poignee-card]")
    ]
    assert sorted(offered) == sorted(legal["cards"])

    def chosen() -> list[str]:
        pressed = page.query_selector_all('[data-poignee-card][aria-pressed="true"]')
        return [e.get_attribute("data-poignee-card") or "" for e in pressed]

    show = page.locator('[data-action="poignee-yes"]')
    assert len(chosen()) == sizes[0] and show.is_enabled()
    # Hide one more card than offered by default: the poignée is then one card short.
    first = chosen()[0]
    page.click(f'[data-poignee-card="{first}"]')
    assert len(chosen()) == sizes[0] - 1 and show.is_disabled()
    # Show instead a card the default hid, if there is one; else show the same card again.
    hidden = [c for c in offered if c not in chosen() and c != first and c != "EX"]
    page.click(f'[data-poignee-card="{(hidden or [first])[0]}"]')
    shown = sorted(chosen())
    assert len(shown) == sizes[0] and show.is_enabled()
    show.click()
    after = table.after(v["version"])
    assert sorted(after["observation"]["poignees"]["0"]) == shown
    table.settle()
    panel = page.locator('[data-role="poignee-shown"][data-seat="0"] [data-show]')
    assert sorted(panel.evaluate_all("els => els.map(e => e.dataset.show)")) == shown
