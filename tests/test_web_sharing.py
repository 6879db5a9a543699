"""Invitation links a friend on another machine can open (issue 28): a real ``oudler serve`` on
all addresses prints the machine's network addresses, ``--public-url`` (or ``OUDLER_PUBLIC_URL``)
builds the links on the site's public address, and a link made on ``localhost`` says so and
carries the same link on the machine's network addresses."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import httpx2
import pytest

from oudler.web.addresses import shared_addresses
from redis_support import OUDLER
from test_web_socket_limits import server

FRIENDS = {"deals": 2, "level": "random", "seats": ["me", "person", "computer", "computer"]}


def invites(base: str, host: str | None = None) -> list[dict[str, Any]]:
    """A new table with a friend's seat, made at ``base`` (``host``: the address the page was
    loaded from); its invitations."""
    headers = {} if host is None else {"Host": host}
    with httpx2.Client(base_url=base, timeout=30, headers=headers) as c:
        r = c.post("/api/matches", json=FRIENDS)
        assert r.status_code == 201, r.text
        found: list[dict[str, Any]] = r.json()["invites"]
        return found


def test_served_on_all_addresses_it_prints_the_addresses_friends_open(tmp_path: Path) -> None:
    if not shared_addresses("0.0.0.0"):
        pytest.skip("this machine has no network address")
    with server(tmp_path, "--host", "0.0.0.0") as (base, _, _):
        printed = (tmp_path / "stdout.txt").read_text()
        port = base.rsplit(":", 1)[1]
        assert "0.0.0.0" not in printed
        shared = re.findall(rf"http://[\d.]+:{port}/", printed.split("other machines open:")[1])
        assert shared and all("127.0.0.1" not in url for url in shared), printed
        for url in shared:  # each opens: the server listens there
            r = httpx2.get(url + "healthz", timeout=30)
            assert r.status_code == 200
            # Over plain HTTP at a network address browsers ignore COOP and log an error.
            assert "cross-origin-opener-policy" not in r.headers
        assert "cross-origin-opener-policy" in httpx2.get(base + "/healthz").headers

        # A table made on localhost: its link says so, and carries the shared ones.
        (invite,) = invites(base, host=f"localhost:{port}")
        assert invite["url"].startswith("/join/") and invite["local"] is True
        assert invite["instead"] == [url + invite["url"][1:] for url in shared]
        for url in invite["instead"]:
            assert httpx2.get(url, timeout=30).status_code == 200  # the invitation page
        # Made at a network address, the link is good as it is.
        (invite,) = invites(shared[0].rstrip("/"))
        assert "local" not in invite and "instead" not in invite


def test_on_this_machine_only_the_link_says_so_with_no_other_address(tmp_path: Path) -> None:
    with server(tmp_path) as (base, _, _):  # --host 127.0.0.1, the default
        printed = (tmp_path / "stdout.txt").read_text()
        assert "listens on this machine only" in printed and "--host 0.0.0.0" in printed
        (invite,) = invites(base)
        assert invite["local"] is True and invite["instead"] == []


@pytest.mark.parametrize("how", ["option", "environment"])
def test_a_public_url_builds_the_invitation_links(tmp_path: Path, how: str) -> None:
    given = "https://Tarot.example/"
    option = ("--public-url", given) if how == "option" else ()
    saved = os.environ.get("OUDLER_PUBLIC_URL")
    if how == "environment":
        os.environ["OUDLER_PUBLIC_URL"] = given
    try:
        with server(tmp_path, *option) as (base, _, _):
            assert "Oudler is at https://tarot.example/" in (tmp_path / "stdout.txt").read_text()
            (invite,) = invites(base)
            assert re.fullmatch(r"https://tarot\.example/join/[\w-]+", invite["url"]), invite
            assert "local" not in invite
    finally:
        if saved is None:
            os.environ.pop("OUDLER_PUBLIC_URL", None)
        else:
            os.environ["OUDLER_PUBLIC_URL"] = saved


@pytest.mark.parametrize(
    "bad", ["ftp://tarot.example", "tarot.example", "https://tarot.example/oudler", "https://"]
)
def test_a_public_url_that_is_not_a_sites_address_is_refused(bad: str) -> None:
    done = subprocess.run(
        [OUDLER, "serve", "--public-url", bad, "--database-url", "sqlite://"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "public URL" in done.stderr and "Traceback" not in done.stderr, done.stderr
