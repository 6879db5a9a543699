"""Passkeys in a real Chromium (issue 29), through its virtual authenticator (the DevTools WebAuthn
domain): a guest plays and keeps their games, adds a passkey from the account menu and signs out;
a second browser context holding the same passkey signs in with it, finds the match and removes
the passkey, which then opens nothing (the page says so). On a page that is
not a secure context the passkey buttons are absent and a sentence says why.

The server is reached as ``localhost``: browsers refuse an IP address as a passkey's site."""

from __future__ import annotations

from typing import Any

import pytest
from pagedriver import CHROMIUM, CHROMIUM_ARGS, Table, person_action

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not CHROMIUM.exists(), reason=f"{CHROMIUM} is absent (apt-get install chromium)"
    ),
]

NAME, PASSWORD = "Sacha", "a long enough secret"
AUTHENTICATOR = {
    "protocol": "ctap2",
    "transport": "internal",
    "hasResidentKey": True,
    "hasUserVerification": True,
    "isUserVerified": True,
    "automaticPresenceSimulation": True,
}


def at_localhost(table: Table) -> Table:
    table.base = table.base.replace("127.0.0.1", "localhost")
    return table


def authenticator(table: Table) -> tuple[Any, str]:
    cdp = table.context.new_cdp_session(table.page)
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, made["authenticatorId"]


def keep_games(table: Table) -> None:
    """From the home page: keep my games (an account named NAME); the page reloads signed in."""
    table.home()
    menu = table.account_menu()
    keep = menu.locator('[data-role="keep-form"]')
    keep.locator('input[name="name"]').fill(NAME)
    keep.locator('input[name="password"]').fill(PASSWORD)
    with table.page.expect_navigation():
        keep.locator('[type="submit"]').click()
    table.page.wait_for_selector('[data-role="account-summary"][data-signed-in="true"]')


def keep_with_passkey(table: Table) -> Any:
    """Keep my games, then add the passkey "Laptop" from the menu. The open menu, its passkey
    listed."""
    keep_games(table)
    menu = table.account_menu()
    panel = menu.locator('[data-role="passkeys-panel"]')
    panel.locator('[data-role="passkeys-none"]').wait_for()
    panel.locator('[data-role="passkey-name-input"]').fill("Laptop")
    panel.locator('[data-action="passkey-add"]').click()
    panel.locator('[data-role="passkeys"] li').wait_for()
    return menu


def test_a_person_adds_a_passkey_and_another_browser_signs_in_with_it(open_table: Any) -> None:
    first = at_localhost(open_table())
    cdp, auth = authenticator(first)
    first.home()
    mid = first.new_match(seed=7)
    v = first.settle()
    if v["status"] == "your_turn":
        first.act(v, person_action(v))

    # Keep my games, then add a passkey from the menu.
    menu = keep_with_passkey(first)
    row = menu.locator('[data-role="passkeys-panel"] [data-role="passkeys"] li')
    assert row.locator('[data-role="passkey-name"]').inner_text() == "Laptop"
    assert "never used" in row.inner_text()
    (kept,) = cdp.send("WebAuthn.getCredentials", {"authenticatorId": auth})["credentials"]
    assert kept["isResidentCredential"] and kept["rpId"] == "localhost"
    with first.page.expect_navigation():
        menu.locator('[data-action="sign-out"]').click()
    first.page.wait_for_selector('[data-role="account-summary"][data-signed-in="false"]')

    # A second browser holding that passkey (as a synced one would be): no name to type.
    second = at_localhost(open_table())
    cdp2, auth2 = authenticator(second)
    cdp2.send("WebAuthn.addCredential", {"authenticatorId": auth2, "credential": kept})
    second.home()
    assert second.page.locator(f'tr[data-match="{mid}"]').count() == 0
    menu = second.account_menu()
    with second.page.expect_navigation():
        menu.locator('[data-action="passkey-sign-in"]').click()
    second.page.wait_for_selector('[data-role="account-summary"][data-signed-in="true"]')
    assert second.page.inner_text('[data-role="account-summary"]') == NAME
    assert second.me()["account"] == {"name": NAME}
    second.page.locator(f'tr[data-match="{mid}"]').wait_for()

    # Its list says when the passkey was last used; it can be removed, and then opens nothing.
    second.home()
    menu = second.account_menu()
    row = menu.locator('[data-role="passkeys"] li')
    row.wait_for()
    assert "last used" in row.inner_text()
    row.locator('[data-action="passkey-remove"]').click()
    menu.locator('[data-role="passkeys-none"]').wait_for()
    menu = first.account_menu()
    menu.locator('[data-action="passkey-sign-in"]').click()
    error = menu.locator('[data-role="passkey-error"]')
    error.wait_for()
    assert error.inner_text() == "This passkey belongs to no account here."
    assert first.me()["account"] is None


def test_a_passkey_name_being_typed_survives_the_sessions_list_arriving(open_table: Any) -> None:
    # The menu asks for the sessions when it opens; their answer used to redraw the whole menu
    # and put the default name back under the person's fingers.
    table = at_localhost(open_table())
    authenticator(table)
    keep_games(table)
    held: list[Any] = []
    table.page.route("**/api/sessions", lambda route: held.append(route))
    menu = table.account_menu()
    panel = menu.locator('[data-role="passkeys-panel"]')
    panel.locator('[data-role="passkeys-none"]').wait_for()
    panel.locator('[data-role="passkey-name-input"]').fill("Laptop")
    table.wait_until(lambda: held)  # Playwright hands the handler the request
    assert len(held) == 1
    held[0].continue_()
    menu.locator('[data-role="sessions"] li').wait_for()
    assert panel.locator('[data-role="passkey-name-input"]').input_value() == "Laptop"
    panel.locator('[data-action="passkey-add"]').click()
    row = panel.locator('[data-role="passkeys"] li')
    row.wait_for()
    assert row.locator('[data-role="passkey-name"]').inner_text() == "Laptop"


def test_a_page_that_is_not_a_secure_context_offers_no_passkey(browser: Any, server: str) -> None:
    """Over plain HTTP on a name that is not localhost (a home network's), the page shows the
    sentence instead of the buttons."""
    port = server.rsplit(":", 1)[1]
    # A browser of its own, where the name tarot.home leads to this machine.
    other = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, "--host-resolver-rules=MAP tarot.home 127.0.0.1"],
    )
    try:
        page = other.new_context(locale="en-US").new_page()
        page.goto(f"http://tarot.home:{port}/")
        page.wait_for_selector("#home:not([hidden])")
        assert page.evaluate("window.isSecureContext") is False
        page.locator('[data-role="account-summary"]').click()
        menu = page.locator('[data-role="account-menu"]')
        sentence = menu.locator('[data-role="passkey-unavailable"]')
        sentence.wait_for()
        assert "HTTPS" in sentence.inner_text() and "link a device" in sentence.inner_text()
        assert menu.locator('[data-action="passkey-sign-in"]').count() == 0
    finally:
        other.close()


def test_a_person_deletes_their_account_with_a_passkey_instead_of_the_password(
    open_table: Any,
) -> None:
    person = at_localhost(open_table())
    authenticator(person)
    menu = keep_with_passkey(person)

    menu.locator('[data-action="delete-account"]').click()
    dialog = person.page.locator('[data-role="delete-dialog"]')
    with_passkey = dialog.locator('[data-action="delete-with-passkey"]')
    with_passkey.wait_for()  # offered: this account has a passkey and the page may use it
    with person.page.expect_navigation():
        with_passkey.click()
    person.page.wait_for_selector('[data-role="account-summary"][data-signed-in="false"]')
    assert person.me()["account"] is None
    # The name is free again: nobody signs in with it.
    r = person.context.request.post(
        f"{person.base}/api/session", data={"name": NAME, "password": PASSWORD}
    )
    assert r.status == 401
