"""Checks of the e2e harness itself: if these fail, the app tests' verdicts mean nothing."""

from __future__ import annotations

import io
import os
import shutil
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

from harness.app import App
from harness.artifacts import ArtifactFolder
from harness.processes import stop_process
from harness.screenshots import capture_screen, fraction_differing, is_blank
from harness.tile_server import TileServer
from harness.user_input import UserInput
from harness.virtual_display import VirtualDisplay
from harness.waiting import wait_until
from harness.xdotool import xdotool


def _get(url: str, user_agent: str = "harness-check/1") -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers={"User-Agent": user_agent})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, b""


def test_tile_server_serves_distinct_png_tiles_and_records_requests(tiles: TileServer) -> None:
    status, body = _get(f"{tiles.base_url}/3/5/2.png", user_agent="VirtualTourist/0.1 probe")
    _, neighbour = _get(f"{tiles.base_url}/3/6/2.png")
    assert status == 200
    with Image.open(io.BytesIO(body)) as image:
        assert (image.format, image.size) == ("PNG", (256, 256))
        assert not is_blank(image.convert("RGB")), "a tile must not be one flat colour"
    assert body != neighbour, "neighbouring tiles must look different"
    (tile, request), _ = tiles.tile_requests()
    assert str(tile) == "3/5/2"
    assert request.user_agent == "VirtualTourist/0.1 probe"


@pytest.mark.parametrize("path", ["/3/8/0.png", "/3/0/8.png", "/x/1/1.png", "/1/0/0.jpg", "/", "/1/0.png"])
def test_tile_server_answers_404_outside_the_tile_grid(tiles: TileServer, path: str) -> None:
    assert _get(tiles.base_url + path)[0] == 404
    assert tiles.log.snapshot()[0].status == 404


def test_tile_server_injects_latency(tiles: TileServer) -> None:
    tiles.latency = 0.4
    started = time.monotonic()
    _get(f"{tiles.base_url}/0/0/0.png")
    assert time.monotonic() - started >= 0.4


def test_display_starts_empty_and_can_be_captured(display: str, artifacts: ArtifactFolder) -> None:
    screen = capture_screen(display, artifacts.path("empty-screen.png"))
    assert screen.size == (1280, 800)
    assert is_blank(screen)


def test_fraction_differing_counts_changed_pixels_and_forgives_a_one_pixel_shift() -> None:
    image = Image.new("RGB", (100, 100), (80, 120, 200))
    ImageDraw.Draw(image).rectangle((20, 20, 60, 60), outline=(0, 0, 0), width=2)
    shifted = Image.new("RGB", (100, 100), (80, 120, 200))
    ImageDraw.Draw(shifted).rectangle((21, 20, 61, 60), outline=(0, 0, 0), width=2)
    assert fraction_differing(image, image) == 0
    assert fraction_differing(image, shifted) > 0.01
    assert fraction_differing(image, shifted, max_shift=1) == 0


def test_the_database_is_readable_while_the_app_holds_it_open_in_wal_mode(tmp_path: Path) -> None:
    app = App(tmp_path / "home", ":0", "http://127.0.0.1:9/#Z/#X/#Y.png")  # never started
    app.database_path.parent.mkdir(parents=True)
    writer = sqlite3.connect(app.database_path)  # stands in for the running app's GRDB pool
    try:
        writer.execute("PRAGMA journal_mode=WAL")
        writer.execute("CREATE TABLE viewport (id INTEGER PRIMARY KEY, latitude REAL, longitude REAL, zoom INTEGER)")
        writer.execute("INSERT INTO viewport VALUES (1, 48.85, 2.35, 12)")
        writer.commit()
        assert app.viewport() == (48.85, 2.35, 12)
    finally:
        writer.close()


GTK_DEMO = shutil.which("gtk3-widget-factory")  # apt package gtk-3-examples


def start_widget_factory(display: str) -> tuple[subprocess.Popen, str, tuple[str, str]]:
    """gtk3-widget-factory on `display`, once its window shows: the process (stop it), its window, and where
    that window is on the screen."""
    environment = {**os.environ, "DISPLAY": display, "GDK_BACKEND": "x11", "GSETTINGS_BACKEND": "memory"}
    environment.pop("NO_AT_BRIDGE", None)
    demo = subprocess.Popen([GTK_DEMO], env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        window = wait_until(
            lambda: xdotool(display, "search", "--onlyvisible", "--pid", demo.pid, check=False).stdout.split(),
            20, "gtk3-widget-factory shows a window",
        )[0]
        fields = dict(line.split("=", 1) for line in xdotool(display, "getwindowgeometry", "--shell", window).stdout.split())
    except BaseException:
        stop_process(demo)
        raise
    return demo, window, (fields["X"], fields["Y"])


@pytest.mark.skipif(GTK_DEMO is None, reason="gtk3-widget-factory (apt package gtk-3-examples) is not installed")
def test_real_input_reaches_a_gtk_app_without_a_window_manager(
    display: str, user: UserInput, artifacts: ArtifactFolder
) -> None:
    demo, window, position = start_widget_factory(display)
    try:
        assert position == ("0", "0"), "without a window manager a window opens at 0,0"
        xdotool(display, "windowsize", "--sync", window, 900, 650)
        # The resized window repaints a moment later (longer on a loaded machine): wait for it.
        wait_until(lambda: not is_blank(capture_screen(display, artifacts.path("widget-factory.png"))
                                        .crop((0, 60, 900, 650))), 10, "the demo's window is painted")
        user.park_pointer()
        assert user.pointer_position() == (1279, 799)
        xdotool(display, "windowfocus", "--sync", window)
        user.key("ctrl+q")  # a real key press reaches the focused window: the demo quits
        assert demo.wait(timeout=10) == 0
    finally:
        stop_process(demo)


@pytest.mark.skipif(GTK_DEMO is None or shutil.which("openbox") is None,
                    reason="needs gtk3-widget-factory and openbox (apt packages gtk-3-examples, openbox)")
def test_a_display_with_a_window_manager_announces_it_and_still_opens_windows_at_0_0(tmp_path: Path) -> None:
    """The benchmarks' display (bench/benchlib.start_display): the window manager is up, as GTK sees it, before
    anything is measured; the benchmarks' clicks still land where they aim; it goes with the display."""
    from Xlib import display as xdisplay  # python3-xlib, as the benchmarks

    screen = VirtualDisplay(tmp_path / "xvfb.log", window_manager="openbox")
    name = screen.start()
    demo = None
    try:
        connection = xdisplay.Display(name)
        try:
            check = connection.screen().root.get_full_property(connection.intern_atom("_NET_SUPPORTING_WM_CHECK"), 0)
            assert check is not None, "the window manager announced itself on the root window"
        finally:
            connection.close()
        demo, _, position = start_widget_factory(name)
        assert position == ("0", "0"), "the first window opens at 0,0 under the window manager too"
        manager = screen._window_manager
        assert manager is not None and manager.poll() is None
    finally:
        if demo is not None:
            stop_process(demo)
        screen.stop()
    assert manager.poll() is not None, "the window manager went with the display"
