"""Checks of On the Map's e2e harness (no app needed): the real server and its seeded class, the fake
browser as GIO and GTK launch it, and the Nominatim stub. If these fail, test_on_the_map.py's
verdicts mean nothing."""

from __future__ import annotations

import os
import subprocess
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from harness.browser import FakeBrowser
from harness.on_the_map import Account, OnTheMapServer, SeededClass, http
from harness.processes import stop_process
from harness.waiting import wait_until


def test_the_seeded_class_is_listed_newest_first_with_every_kind_of_link(on_the_map_class: SeededClass,
                                                                         on_the_map_server: OnTheMapServer) -> None:
    listed = on_the_map_server.locations()
    assert len(listed) == len(on_the_map_class.students) == 100
    assert [(s["firstName"], s["lastName"]) for s in listed] == \
        [(s.first_name, s.last_name) for s in on_the_map_class.students]
    times = [s["updatedAt"] for s in listed]
    assert times == sorted(times, reverse=True) and len(set(times)) == len(times)
    assert any(s["createdAt"] != s["updatedAt"] for s in listed), "some were updated after they were created"
    links = [s["mediaURL"] for s in listed]
    assert listed[2]["mediaURL"] == "ftp://files.example.org/notes.txt"
    assert {"not a link", "javascript:alert(1)"} <= set(links)
    assert sum(link.startswith("https://") for link in links) > 50 and any(l.startswith("http://") for l in links)
    assert len({s["mapString"] for s in listed}) > 30, "places all over the world"
    assert len({(s["firstName"], s["lastName"]) for s in listed}) == 100, "full names are unique"
    assert on_the_map_server.locations(on_the_map_class.me.key) == [], "I have not posted yet"


def test_seeded_accounts_log_in_and_post_only_their_own_location(on_the_map_class: SeededClass,
                                                                  on_the_map_server: OnTheMapServer) -> None:
    me = on_the_map_class.me
    assert on_the_map_server.log_in(me.email, "wrong password")[0] == 403
    assert on_the_map_server.sessions_of(me) == 0
    session = on_the_map_server.session_id(me)
    assert on_the_map_server.sessions_of(me) == 1
    posting = {"uniqueKey": me.key, "firstName": me.first_name, "lastName": me.last_name, "mapString": "Houston",
               "mediaURL": "https://example.org/mae", "latitude": 29.76, "longitude": -95.37}
    assert on_the_map_server.post_location(posting, session)[0] == 200
    someone_else = dict(posting, uniqueKey=on_the_map_class.with_accounts[0].key)
    assert on_the_map_server.post_location(someone_else, session)[0] == 403
    assert on_the_map_server.post_location(posting)[0] == 401, "writes need a session"
    assert [s["mapString"] for s in on_the_map_server.locations(me.key)] == ["Houston"]
    assert on_the_map_server.locations()[0]["uniqueKey"] == me.key, "a new post is the newest"

    status, _ = http("DELETE", on_the_map_server.base_url + "/v1/session", headers={"X-Session-Id": session})
    assert status == 200 and on_the_map_server.sessions_of(me) == 0
    assert on_the_map_server.post_location(posting, session)[0] == 401, "an ended session writes nothing"


def test_the_server_stops_and_comes_back_on_the_same_port_with_its_data(on_the_map_server: OnTheMapServer) -> None:
    port, count = on_the_map_server.port, len(on_the_map_server.locations())
    on_the_map_server.stop()
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen(on_the_map_server.base_url + "/v1/StudentLocation", timeout=5)
    on_the_map_server.start()
    assert on_the_map_server.port == port
    assert len(on_the_map_server.locations()) == count
    signup = urllib.request.urlopen(on_the_map_server.base_url + "/signup", timeout=10)
    assert signup.status == 200 and b"<form" in signup.read().lower()


def test_user_add_reads_the_password_from_stdin(tmp_path: Path, on_the_map_class: SeededClass) -> None:
    server = OnTheMapServer(tmp_path / "fresh.sqlite", tmp_path / "server.log")
    account = server.add_user(Account("new@example.org", "a password with spaces", "New", "Student"))
    assert account.key
    server.start()
    try:
        status, body = server.log_in("NEW@example.org", "a password with spaces")
        assert status == 200 and body["account"]["key"] == account.key
    finally:
        server.stop()


def browser_environment(browser: FakeBrowser, home: Path) -> dict[str, str]:
    environment = {"PATH": "/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", **browser.environment}
    if "DBUS_SESSION_BUS_ADDRESS" in os.environ:
        environment["DBUS_SESSION_BUS_ADDRESS"] = os.environ["DBUS_SESSION_BUS_ADDRESS"]
    return environment


def test_gio_opens_web_links_with_the_fake_browser(tmp_path: Path) -> None:
    browser = FakeBrowser(tmp_path / "data", tmp_path / "config", tmp_path / "browser")
    url = "https://example.org/a path?b=c&d='e'"
    for link in (url, "http://127.0.0.1:1234/signup"):
        result = subprocess.run(["gio", "open", link], env=browser_environment(browser, tmp_path),
                                capture_output=True, text=True, timeout=30)
        assert result.returncode == 0, result.stderr
    browser.wait_for_url(count=2)
    assert browser.opened() == [url, "http://127.0.0.1:1234/signup"]


GTK_SHOW_URI = """
import sys
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk
Gtk.init_check(sys.argv)
window = Gtk.Window(title="opener")
window.show()
Gtk.show_uri_on_window(window, sys.argv[1], 0)
GLib.timeout_add(1500, Gtk.main_quit)  # in case the launch finishes in the main loop
Gtk.main()
"""


def test_gtk_show_uri_on_window_reaches_the_fake_browser(tmp_path: Path, display: str) -> None:
    """What the app calls (gtk_show_uri_on_window), with a window on the virtual display."""
    browser = FakeBrowser(tmp_path / "data", tmp_path / "config", tmp_path / "browser")
    environment = {**browser_environment(browser, tmp_path), "DISPLAY": display, "GSETTINGS_BACKEND": "memory"}
    process = subprocess.Popen(["/usr/bin/python3", "-c", GTK_SHOW_URI, "https://github.com/leilani-k"],
                               env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        output, _ = process.communicate(timeout=30)
    finally:
        stop_process(process)
    assert process.returncode == 0, output.decode(errors="replace")
    assert browser.wait_for_url() == "https://github.com/leilani-k"


def test_the_nominatim_stub_finds_an_address_the_offline_cities_do_not_know(nominatim) -> None:
    status, found = http("GET", nominatim.url + "search?q=1600%20Amphitheatre%20Parkway,%20Mountain%20View"
                         "&format=jsonv2&limit=5")
    assert status == 200 and found
    assert (round(float(found[0]["lat"]), 2), round(float(found[0]["lon"]), 2)) == (37.42, -122.08)
    assert http("GET", nominatim.url + "search?q=Nowhere%20At%20All&format=jsonv2")[1] == []
    assert [request["q"] for request in nominatim.requests()] == \
        ["1600 Amphitheatre Parkway, Mountain View", "Nowhere At All"]
    wait_until(lambda: nominatim.process.poll() is None, 1, "the stub keeps running")
