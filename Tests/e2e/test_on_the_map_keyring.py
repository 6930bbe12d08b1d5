"""On the Map's "Stay logged in" (issue 34 point 4) end to end: a real gnome-keyring-daemon, unlocked for the test on
the test's D-Bus session, the real app and the real server. The keyring is read back with secret-tool, as a user
would inspect it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

from harness.accessibility import AccessibleApp
from harness.on_the_map import APP_NAME, OnTheMapApp, OnTheMapServer, SeededClass
from harness.user_input import UserInput
from harness.waiting import wait_until
from test_on_the_map import UI, ui  # noqa: F401 (ui: the fixture)

CHECK_BOX = ("check box",)
SESSION_ENDED = "Your session ended; please log in again."


class Keyring:
    """gnome-keyring-daemon's secrets component with a login keyring unlocked by a throw-away password."""

    def __init__(self, home: Path) -> None:
        home.mkdir(parents=True, exist_ok=True)
        environment = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
        # --replace: an earlier test's app may have had D-Bus start a locked daemon on this bus.
        self.process = subprocess.Popen(
            ["gnome-keyring-daemon", "--replace", "--foreground", "--unlock", "--components=secrets"],
            env=environment, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.process.stdin.write("keyring-test-password")
        self.process.stdin.close()
        # What it prints (GNOME_KEYRING_CONTROL=…) is exported to the app.
        line = self.process.stdout.readline().strip()
        name, _, value = line.partition("=")
        self.environment = {name: value} if name else {}
        wait_until(lambda: subprocess.run(["secret-tool", "search", "--all", "kind", "session"],
                                          capture_output=True, timeout=5).returncode in (0, 1), 10, "the keyring answers")

    def kept(self) -> dict | None:
        """The app's kept session, decoded, or None."""
        found = subprocess.run(["secret-tool", "lookup", "kind", "session"], capture_output=True, text=True, timeout=10)
        return json.loads(found.stdout) if found.returncode == 0 and found.stdout else None

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(10)


@pytest.fixture
def keyring(tmp_path: Path):
    keeper = Keyring(tmp_path / "keyring-home")
    yield keeper
    keeper.stop()


def start(app: OnTheMapApp, user: UserInput) -> UI:
    app.start()
    return UI(app, AccessibleApp(APP_NAME), user)


def close_by_the_close_button(ui: UI) -> None:
    ui.find_any("Close", ("push button",)).doActionNamed("click")
    wait_until(lambda: ui.app.process.poll() is not None, 20, "the app ended with its window")


def end_sessions_on_the_server(server: OnTheMapServer, account_key: str) -> None:
    """What a server does when an administrator or the expiry ends a session: its row goes."""
    with sqlite3.connect(server.database, timeout=10) as connection:
        connection.execute("DELETE FROM session WHERE account_key = ?", (account_key,))


def test_a_kept_session_skips_the_login_page_until_the_server_ends_it(
        make_on_the_map_app, keyring: Keyring, on_the_map_class: SeededClass, on_the_map_server: OnTheMapServer,
        user: UserInput, screenshot):
    me = on_the_map_class.me
    app = make_on_the_map_app(extra_environment=keyring.environment)
    ui = start(app, user)
    box = ui.find_any("Stay logged in", CHECK_BOX)
    wait_until(lambda: box.sensitive, 10, "Stay logged in is offered where a keyring answers")
    assert not box.checked
    box.doActionNamed("click")
    wait_until(lambda: box.checked, 5, "the box is ticked")
    ui.log_in(me)
    ui.wait_for_classmates()
    kept = wait_until(keyring.kept, 10, "the session is in the keyring")
    assert set(kept) == {"server", "accountKey", "sessionId", "expiration"}, kept
    assert kept["accountKey"] == me.key and kept["server"] == on_the_map_server.api_url
    assert me.password not in json.dumps(kept), "the keyring holds the password"
    close_by_the_close_button(ui)

    # Started again: straight to the class.
    ui = start(app, user)
    ui.wait_for_classmates()
    screenshot("resumed")
    assert not any(n.showing for n in ui.accessible.node.findChildren(
        lambda n: n.name == "Log In" and n.roleName == "push button", showingOnly=False)), "the login page shows"
    assert "Resumed a kept session" in app.log_text()
    assert kept["sessionId"] not in app.log_text(), "the session id reached the log"
    close_by_the_close_button(ui)

    # The server ends the session: the next start says so on the login page, and the keyring forgets it.
    end_sessions_on_the_server(on_the_map_server, me.key)
    ui = start(app, user)
    ui.find_any(SESSION_ENDED, ("label",), timeout=20)
    screenshot("session-ended")
    wait_until(lambda: keyring.kept() is None, 10, "the ended session left the keyring")
    assert ui.find_any("Stay logged in", CHECK_BOX).checked, "the box stays ticked for the next login"

    # Log Out removes a kept session too.
    ui.log_in(me)
    ui.wait_for_classmates()
    wait_until(keyring.kept, 10, "the new session is in the keyring")
    assert not any(n.showing for n in ui.accessible.node.findChildren(
        lambda n: n.name == SESSION_ENDED, showingOnly=False)), "the notice outlived the login"
    ui.find_any("Log Out", ("push button",)).doActionNamed("click")
    ui.find_any("Log In", ("push button",))
    wait_until(lambda: keyring.kept() is None, 10, "Log Out left the keyring")


def test_without_a_keyring_stay_logged_in_is_not_offered(ui: UI, on_the_map_class: SeededClass, screenshot):
    box = ui.find_any("Stay logged in", CHECK_BOX, timeout=20)
    wait_until(lambda: ui.find_any("Log In", ("push button",)) is not None, 5, "the login page")
    assert not box.sensitive, "offered without a keyring"
    assert not box.checked
