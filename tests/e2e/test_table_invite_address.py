"""The waiting table says when its invitation link opens on this computer only (issue 28): made
from a page on the loopback address, the link is shown with a plain warning and, for a server
listening on all addresses, the same link on the machine's network address, which a friend's
browser opens to sit; for a server listening on this machine only, the command to serve on all
addresses instead. A real server, Chromium."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pagedriver import CHROMIUM

from oudler.web.addresses import shared_addresses
from oudler.web.app import create_app
from oudler.web.background import serve_in_thread

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]


@pytest.fixture
def server(request: pytest.FixtureRequest, database_url: str) -> Iterator[str]:
    """The web table listening where the test's parameter says (``0.0.0.0``: all addresses; by
    default the loopback one), told so as ``oudler serve --host`` tells it; its loopback URL."""
    host = getattr(request, "param", "127.0.0.1")
    app = create_app(database_url, listen_host=host, computer_pause=0)
    with serve_in_thread(app, host=host) as base:
        yield base


def table_for_a_friend(me: Any) -> Any:
    """Makes a table with a friend's seat (North) from the home page; its waiting prompt."""
    me.home()
    form = me.page.locator('[data-action="new-friends-match"]')
    form.locator('select[name="level"]').select_option("random")
    form.locator('select[name="seat2"]').select_option("person")
    form.locator('[type="submit"]').click()
    me.page.wait_for_selector('[data-role="invite-link"][data-seat="2"]')
    return me.page


@pytest.mark.parametrize("server", ["0.0.0.0"], indirect=True)
@pytest.mark.parametrize("locale", ["en-US", "zh-CN", "fr-FR"])
def test_a_link_on_localhost_is_shown_with_the_address_to_send_instead(
    open_table: Any, server: str, locale: str
) -> None:
    if not shared_addresses("0.0.0.0"):
        pytest.skip("this machine has no network address")
    page = table_for_a_friend(open_table(locale=locale))
    local = page.locator('[data-role="invite-local"][data-seat="2"]')
    words = {
        "en-US": "this computer only",
        "zh-CN": "只能在本机打开",
        "fr-FR": "que sur cet ordinateur",
    }
    assert words[locale] in local.inner_text()
    link = page.locator('[data-role="invite-link"][data-seat="2"]').input_value()
    instead = local.locator('[data-role="invite-instead"]')
    urls = [instead.nth(i).input_value() for i in range(instead.count())]
    port = server.rsplit(":", 1)[1]
    path = link.split(f":{port}", 1)[1]
    assert urls == [f"http://{a}:{port}{path}" for a in shared_addresses("0.0.0.0")]
    assert local.locator('[data-role="serve-command"]').count() == 0

    # A friend opens the link at the network address, and sits.
    friend = open_table(locale=locale)
    friend.page.goto(urls[0])
    friend.page.locator('[data-action="sit"]').click()
    friend.page.wait_for_selector("#table-view[data-match]")
    assert friend.page.get_attribute("#table-view", "data-match") == page.get_attribute(
        "#table-view", "data-match"
    )


def test_a_server_on_this_machine_only_says_how_to_serve_friends(
    open_table: Any, server: str
) -> None:
    page = table_for_a_friend(open_table())
    local = page.locator('[data-role="invite-local"][data-seat="2"]')
    assert "this computer only" in local.inner_text()
    assert local.locator('[data-role="invite-instead"]').count() == 0
    command = local.locator('[data-role="serve-command"]')
    assert command.is_visible() and command.inner_text() == "oudler serve --host 0.0.0.0"
