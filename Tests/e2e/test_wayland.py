"""Issue 34 point 1: both apps on Wayland — GNOME's compositor (mutter) headless, no X server, no X tool. Each
app's main path is driven by real input from mutter's RemoteDesktop (a virtual keyboard and pointer) and read
through AT-SPI and the app's database. No screenshots: mutter's ScreenCast needs PipeWire (see harness/wayland.py).

On Wayland, AT-SPI positions are relative to the window's surface (its client-side shadow included), and mutter
centres a first window on the monitor: `Window` turns one into the other."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pyatspi
import pytest

from harness import on_the_map as otm
from harness.accessibility import AccessibleApp
from harness.app import App
from harness.geo import screen_point
from harness.map import PIN_HEAD_ABOVE_TIP, WORLD_CENTRE, WORLD_ZOOM
from harness.waiting import wait_until
from harness.wayland import (MONITOR_HEIGHT, MONITOR_WIDTH, HeadlessMutter, RemoteDesktop, mutter_available,
                             x11_and_wayland_connections)

BTN_RIGHT = 0x111
LOADING = "Photo loading"
UNPLACED = -(2**31)  # AT-SPI's position for a widget that was never allocated


@pytest.fixture
def mutter(tmp_path: Path, artifacts):
    if not mutter_available():
        pytest.skip("mutter is not installed (apt-get install mutter): the Wayland leg needs GNOME's compositor")
    compositor = HeadlessMutter(tmp_path / "mutter.log").start()
    yield compositor
    compositor.stop()
    artifacts.keep_copy(compositor.log_path)


@pytest.fixture
def seat(mutter: HeadlessMutter):
    """The virtual keyboard and pointer. Made before any app starts: without a keyboard on the seat no window
    becomes active, and nothing ever has the keyboard focus."""
    remote = RemoteDesktop()
    yield remote
    remote.stop()


class Window:
    """A toplevel as AT-SPI sees it on Wayland, placed on the monitor as mutter places a first window."""

    def __init__(self, accessible: AccessibleApp, title: str, seat: RemoteDesktop) -> None:
        self.accessible, self.seat = accessible, seat
        self.frame = accessible.find(title, "frame", timeout=30)
        # Keys sent before mutter activates the window go nowhere.
        wait_until(lambda: self.frame.getState().contains(pyatspi.STATE_ACTIVE), 10, f"{title} became the active window")
        # The window's geometry is its content without the shadow: the union of its placed children.
        boxes = wait_until(lambda: [(c.position, c.size) for c in self.frame.children
                                    if c.showing and c.position[0] != UNPLACED], 10, f"{title} has content")
        left = min(x for (x, _), _ in boxes)
        top = min(y for (_, y), _ in boxes)
        right = max(x + w for (x, _), (w, _) in boxes)
        bottom = max(y + h for (_, y), (_, h) in boxes)
        self.origin = ((MONITOR_WIDTH - (right - left)) // 2 - left, (MONITOR_HEIGHT - (bottom - top)) // 2 - top)

    def to_monitor(self, x: float, y: float) -> tuple[float, float]:
        return x + self.origin[0], y + self.origin[1]

    def centre_of(self, node) -> tuple[float, float]:
        (x, y), (width, height) = node.position, node.size
        return self.to_monitor(x + width // 2, y + height // 2)

    def click(self, node) -> None:
        self.seat.click(*self.centre_of(node))

    def map_box(self) -> tuple[int, int, int, int]:
        x, y, width, height = self.accessible.extents("Map", "drawing area")
        left, top = self.to_monitor(x, y)
        return left, top, left + width, top + height

    def pin_head(self, latitude: float, longitude: float) -> tuple[float, float]:
        """On the first start's view (zoom 2 around 20° N 0° E)."""
        x, y = screen_point(latitude, longitude, WORLD_CENTRE, WORLD_ZOOM, self.map_box())
        return x, y - PIN_HEAD_ABOVE_TIP


def assert_on_wayland_without_x(process, mutter: HeadlessMutter) -> None:
    """Not merely no DISPLAY: the process's only display connection is mutter's Wayland socket."""
    environment = dict(entry.split("=", 1) for entry in
                       Path(f"/proc/{process.pid}/environ").read_bytes().decode().split("\0") if "=" in entry)
    assert "DISPLAY" not in environment, "the app was started without X"
    assert environment.get("GDK_BACKEND") == "wayland", "GDK may use Wayland only"
    x11, on_wayland = wait_until(lambda: (found := x11_and_wayland_connections(process.pid, mutter.socket))[1] and found,
                                 10, f"the app is connected to {mutter.socket}")
    assert not x11, f"the app is connected to an X server: {x11}"


def assert_no_criticals(log: str) -> None:
    criticals = [line for line in log.splitlines() if "CRITICAL" in line or " critical " in line]
    assert not criticals, "GLib/GTK criticals:\n" + "\n".join(criticals[:20])


def close_window(window: Window, process, title: str) -> int:
    """A real click on the header bar's close button; returns the exit status."""
    close = wait_until(lambda: next((n for n in window.frame.findChildren(
        lambda n: n.roleName == "push button" and n.name == "Close", showingOnly=False) if n.showing), None),
        5, f"{title}'s close button")
    window.click(close)
    return process.wait(timeout=15)


# MARK: - Virtual Tourist


def rows(accessible: AccessibleApp) -> list[str]:
    return [n.name for n in accessible.node.findChildren(lambda n: n.roleName == "list item", showingOnly=False)
            if n.showing]


def photo_tiles(accessible: AccessibleApp) -> list:
    return [n for n in accessible.node.findChildren(lambda n: n.roleName == "list item", showingOnly=False)
            if n.showing and not n.name.endswith(" photos") and not n.name.endswith(" photo")]


def complete_album(app: App, accessible: AccessibleApp, pin_id: int) -> list[tuple] | None:
    """The album's photos once every one arrived and is shown and New Collection is enabled, else None."""
    photos = app.photos(pin_id)
    names = [n.name for n in photo_tiles(accessible)]
    done = (photos and all(path for _, _, path in photos) and len(names) == len(photos) and LOADING not in names
            and accessible.find("New Collection", "push button").sensitive)
    return photos if done else None


def test_virtual_tourist_on_wayland(mutter, seat, tiles, flickr, tmp_path, artifacts):
    app = App(tmp_path / "home", None, tiles.url_template, flickr_url=flickr.rest_url,
              extra_environment=mutter.environment_for_apps())
    try:
        app.start(wait_for_window=False)
        accessible = AccessibleApp()
        window = Window(accessible, "Virtual Tourist", seat)
        assert_on_wayland_without_x(app.process, mutter)

        # Search: suggestions show only while the entry has the keyboard, which needs an active window.
        seat.key("ctrl+f")
        entry = accessible.find("Search for a place", "text")
        app.wait_until(lambda: entry.focused, 5, "Ctrl+F put the keyboard in the search entry")
        seat.type("Paris")
        found = app.wait_until(lambda: (r := rows(accessible)) and r, 10, "cities are suggested while typing")
        assert found[0].startswith("Paris, ") and found[0].endswith(", France"), found
        seat.key("Escape")
        app.wait_until(lambda: not rows(accessible), 5, "Escape closed the suggestions")
        seat.key("Escape")
        app.wait_until(lambda: not entry.focused, 5, "a second Escape left the search")

        # Press and hold drops a pin; still held, it follows the pointer, and is stored where the button is let go.
        left, top, _, _ = window.map_box()
        seat.move_to(left + 450, top + 300)
        seat.button(True)
        dropped = app.wait_until(lambda: len(app.pins()) == 1 and app.pins()[0], 5, "the held press dropped a pin")
        for step in range(1, 9):
            seat.move_to(left + 450 + 15 * step, top + 300 + 10 * step)
        seat.button(False)
        pin = app.wait_until(lambda: (now := app.pins()[0]) != dropped and now, 5, "the dragged pin was stored anew")
        tip = screen_point(pin[1], pin[2], WORLD_CENTRE, WORLD_ZOOM, window.map_box())
        # Within the map box's own uncertainty here (found from the window's content, not from X).
        assert abs(tip[0] - (left + 570)) <= 12 and abs(tip[1] - (top + 380)) <= 12, \
            f"the pin was stored at {tip}, not where it was dragged to ({left + 570}, {top + 380})"

        # A click on the pin opens its album, filled from the Flickr test server.
        seat.click(*window.pin_head(pin[1], pin[2]))
        accessible.find("Back", "push button")
        photos = app.wait_until(lambda: complete_album(app, accessible, pin[0]), 30, "the album is complete")

        # A click on a photo deletes it.
        window.click(photo_tiles(accessible)[0])
        app.wait_until(lambda: len(app.photos(pin[0])) == len(photos) - 1, 5, "the clicked photo was deleted")
        assert photos[0][0] not in [row[0] for row in app.photos(pin[0])]

        # New Collection replaces the album with a fresh search.
        searches = len(flickr.requests("search"))
        window.click(accessible.find("New Collection", "push button"))
        app.wait_until(lambda: len(flickr.requests("search")) == searches + 1, 10, "New Collection searched again")
        app.wait_until(lambda: (now := complete_album(app, accessible, pin[0]))
                       and {p[1] for p in now}.isdisjoint({p[1] for p in photos}), 30,
                       "the album holds a new collection, complete")

        # The viewer, from the photo's menu (a right click); Escape closes it.
        (x, y) = window.centre_of(photo_tiles(accessible)[0])
        seat.move_to(x, y)
        seat.button(True, BTN_RIGHT)
        seat.button(False, BTN_RIGHT)
        accessible.click("View Larger", "menu item")
        viewer = app.wait_until(lambda: next((n for n in accessible.node.children if n.roleName == "frame"
                                              and n.name != "Virtual Tourist" and n.showing), None),
                                10, "the photo viewer opened")
        title = viewer.name
        seat.key("Escape")
        app.wait_until(lambda: not accessible.exists(title, "frame"), 5, "Escape closed the viewer")

        assert close_window(window, app.process, "Virtual Tourist") == 0, app.log_tail()
        app.process = None
        assert_no_criticals(app.log_text())
    finally:
        app.stop()
        artifacts.keep_copy(app.log_path)


# MARK: - On the Map


def test_on_the_map_on_wayland(mutter, seat, tiles, on_the_map_class, on_the_map_server, nominatim, tmp_path,
                               artifacts):
    if not otm.app_binary().exists():
        pytest.skip(f"no on-the-map binary at {otm.app_binary()}: build it (swift build) or set ON_THE_MAP_BIN")
    app = otm.OnTheMapApp(tmp_path / "on-the-map-home", None, on_the_map_server.api_url, tiles.url_template,
                          geocoder_url=nominatim.url, extra_environment=mutter.environment_for_apps())
    me = on_the_map_class.me

    def showing(name: str, roles: tuple[str, ...], within=None, timeout: float = 10):
        scope = within or accessible.node
        return wait_until(lambda: next((n for n in scope.findChildren(
            lambda n: n.name == name and n.roleName in roles, showingOnly=False) if n.showing), None),
            timeout, f"a showing {'/'.join(roles)} named {name!r}")

    def type_into(node, text: str) -> None:
        """A real click into the entry, select all, type."""
        window.click(node)
        seat.key("ctrl+a")
        seat.type(text)
        secret = node.roleName == "password text"  # reads as bullets: only its length shows
        wait_until(lambda: len(node.text) == len(text) if secret else node.text == text, 5,
                   lambda: f"{node.name} reads {text!r} (it reads {node.text!r})")

    try:
        app.start(wait_for_window=False)
        accessible = AccessibleApp(otm.APP_NAME)
        window = Window(accessible, otm.WINDOW_TITLE, seat)
        assert_on_wayland_without_x(app.process, mutter)

        # Log in with the keyboard and the pointer.
        type_into(showing("Email", ("text",)), me.email)
        type_into(showing("Password", ("password text",)), me.password)
        window.click(showing("Log In", ("push button",)))
        showing("Log Out", ("push button",), timeout=30)
        assert on_the_map_server.sessions_of(me) == 1

        # The list shows the class.
        window.click(showing("List", ("radio button", "toggle button")))
        wait_until(lambda: len([n for n in accessible.node.findChildren(lambda n: n.roleName == "list item",
                                                                         showingOnly=False)]) >= 100,
                   15, "the list shows the class")
        window.click(showing("Map", ("radio button", "toggle button")))
        showing("Map", ("drawing area",))

        # A click on a pin shows its student in a popover.
        leilani = on_the_map_class.students[0]
        tiles.wait_for_tile_requests(count=4)
        head = window.pin_head(leilani.latitude, leilani.longitude)
        # No screenshot tells when the pin is drawn: click again until the popover shows (2 s apart, so a
        # second click never closes a popover the first opened).
        wait_until(lambda: (seat.click(*head), showing(leilani.full_name, ("label",), timeout=2))[1], 15,
                   f"a click on {leilani.full_name}'s pin showed her in a popover")
        showing(leilani.media_url, ("push button", "link"))
        seat.key("Escape")

        # Add Location: find a city offline, share a link, submit.
        window.click(showing("Add Location", ("push button",)))
        dialog = wait_until(lambda: next((n for n in accessible.node.findChildren(
            lambda n: n.roleName == "dialog" and n.name == "Add Location", showingOnly=False) if n.showing), None),
            10, "the Add Location dialog is showing")
        location = showing("Location", ("text",), within=dialog)
        wait_until(lambda: location.focused, 5, "the dialog's Location entry has the keyboard")
        seat.type("Mountain View")
        wait_until(lambda: location.text == "Mountain View", 5, lambda: f"Location reads {location.text!r}")
        showing("Find on the Map", ("push button",), within=dialog).doActionNamed("click")
        link = showing("Link to share", ("text",), within=dialog, timeout=20)
        link.text = "https://github.com/mae-jemison"
        showing("Submit", ("push button",), within=dialog).doActionNamed("click")
        mine = wait_until(lambda: on_the_map_server.locations(unique_key=me.key), 20, "my location was posted")
        assert abs(mine[0]["latitude"] - 37.39) < 0.05 and abs(mine[0]["longitude"] + 122.08) < 0.05, mine
        assert mine[0]["mediaURL"] == "https://github.com/mae-jemison"

        # Log Out ends the session on the server.
        window.click(showing("Log Out", ("push button",)))
        showing("Log In", ("push button",), timeout=15)
        wait_until(lambda: on_the_map_server.sessions_of(me) == 0, 10, "the server ended the session")

        assert close_window(window, app.process, otm.WINDOW_TITLE) == 0, app.log_tail()
        app.process = None
        assert_no_criticals(app.log_text())
    finally:
        app.stop()
        artifacts.keep_copy(app.log_path)
        artifacts.keep_copy(app.browser.record)
