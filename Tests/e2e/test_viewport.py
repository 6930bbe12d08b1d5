"""Issue 2: the map, its tiles and attribution, and a viewport that survives a restart."""

from __future__ import annotations

import os
import time

from harness.accessibility import AccessibleApp
from harness.geo import degrees_per_pixel
from harness.map import map_box
from harness.screenshots import crop, fraction_differing, is_blank, wait_until_screen_shows

WORLD = (20.0, 0.0, 2)  # the first start's view


def test_map_draws_tiles_from_the_configured_server_with_attribution(app, tiles, accessible, screenshot):
    requests = tiles.wait_for_tile_requests(count=4, timeout=20)
    assert all("VirtualTourist/" in request.user_agent for request in requests), requests[0].user_agent
    app.wait_until(lambda: list(app.tile_cache.rglob("*.png")), 10, "tiles were cached in the app's own folder")
    accessible.find("© OpenStreetMap contributors", "label")
    accessible.find("Zoom In", "push button")
    accessible.find("Zoom Out", "push button")
    image = screenshot("map-with-tiles")
    assert not is_blank(crop(image, map_box(accessible))), "the map area is blank: no tiles were drawn"

    accessible.click("Zoom In")
    app.wait_until(lambda: (v := app.viewport()) and v[2] == WORLD[2] + 1, 5, "Zoom In zoomed in one level")
    assert accessible.find("Zoom Out", "push button").sensitive, "Zoom Out is possible again"
    accessible.click("Zoom Out")
    app.wait_until(lambda: (v := app.viewport()) and v[2] == WORLD[2], 5, "Zoom Out zoomed back out")
    app.wait_until(lambda: not accessible.find("Zoom Out", "push button").sensitive, 5,
                   "Zoom Out is disabled at the widest zoom")


def test_missing_tiles_do_not_flood_the_terminal(make_app, screenshot):
    # Nothing listens on port 9: every tile fails, and osm-gps-map warns once per tile.
    app = make_app()
    app.environment["VIRTUAL_TOURIST_TILE_URL"] = "http://127.0.0.1:9/#Z/#X/#Y.png"
    app.environment["VIRTUAL_TOURIST_LOG"] = "warning"
    app.start()
    time.sleep(3)
    screenshot("offline-map")
    assert app.quit() == 0
    assert "OsmGpsMap" not in app.log_text() and "libsoup" not in app.log_text(), app.log_tail()


def test_pan_and_zoom_are_restored_after_a_restart(app, tiles, user, accessible, screenshot):
    tiles.wait_for_tile_requests(count=4)
    left, top, right, bottom = map_box(accessible)
    centre = ((left + right) // 2, (top + bottom) // 2)
    assert app.viewport() is None, "nothing is saved before the user moves the map"

    user.drag(centre[0], centre[1], centre[0] - 300, centre[1] - 150, steps=15)
    user.scroll(centre[0], centre[1], clicks=2)
    saved = app.wait_until(lambda: (v := app.viewport()) and v[2] == WORLD[2] + 2 and v, 10,
                           "the moved viewport was saved while the app runs (debounced)")
    tiles.wait_for_tile_requests(count=1, zoom=WORLD[2] + 2)
    time.sleep(1.5)  # tiles at the new zoom arrive and are drawn
    before = screenshot("before-quit")

    assert app.quit() == 0
    latitude, longitude, zoom = app.viewport()
    assert zoom == WORLD[2] + 2
    assert longitude > WORLD[1] + 10, "dragging the map left moved the view east"
    assert latitude < WORLD[0] - 5, "dragging the map up moved the view south"
    assert list(app.tile_cache.rglob("*.png")), "tiles are cached"

    app.start()
    accessible = AccessibleApp()
    left, top, right, bottom = map_box(accessible)
    box = (left, top + 80, right, bottom)  # below where in-app notifications slide in
    wait_until_screen_shows(app, lambda image: fraction_differing(crop(before, box), crop(image, box), max_shift=1)
                            < 0.02, "the tiles from the cache were drawn where they were")
    after = screenshot("after-restart")
    difference = fraction_differing(crop(before, box), crop(after, box), max_shift=1)
    assert difference < 0.02, f"the map looks different after the restart ({difference:.1%} of pixels differ)"

    assert app.quit() == 0
    restored = app.viewport()
    tolerance = degrees_per_pixel(zoom) * 1.5
    assert restored[2] == zoom
    assert abs(restored[0] - latitude) < tolerance and abs(restored[1] - longitude) < tolerance, (saved, restored)


def test_window_size_is_remembered(app, display):
    from harness.xdotool import xdotool

    xdotool(display, "windowsize", "--sync", app.window_id, 820, 560)
    time.sleep(0.5)
    assert app.quit() == 0
    rows = app.query("SELECT width, height, is_maximized FROM window_state")
    assert rows, "the window size was saved"
    width, height, maximized = rows[0]
    assert maximized == 0
    assert abs(width - 820) <= 60 and abs(height - 560) <= 60, rows

    app.start()
    _, _, restored_width, restored_height = app.window_geometry()
    assert abs(restored_width - width) <= 60 and abs(restored_height - height) <= 60


def _move_the_map(app, tiles, user, accessible):
    tiles.wait_for_tile_requests(count=4)
    left, top, right, bottom = map_box(accessible)
    centre = ((left + right) // 2, (top + bottom) // 2)
    user.drag(centre[0], centre[1], centre[0] - 200, centre[1] - 100, steps=12)
    user.scroll(centre[0], centre[1], clicks=1)
    time.sleep(0.1)  # well before the debounced save: only the close itself can save it
    return left, top, right, bottom


def test_the_window_close_button_keeps_the_view(app, tiles, user, accessible):
    _move_the_map(app, tiles, user, accessible)
    accessible.click("Close")  # the header bar's own close button, through accessibility
    assert app.wait_for_exit(15) == 0
    viewport = app.viewport()
    assert viewport is not None and viewport[2] == WORLD[2] + 1, viewport
    assert viewport[1] > WORLD[1] + 5 and viewport[0] < WORLD[0] - 2, f"the panned centre was kept: {viewport}"
    assert "G_IS_OBJECT" not in app.log_text() and "CRITICAL" not in app.log_text(), app.log_tail()


def test_clicking_the_close_button_with_the_mouse_keeps_the_view_and_window_size(app, tiles, user, accessible,
                                                                                 display):
    from harness.xdotool import xdotool

    xdotool(display, "windowsize", "--sync", app.window_id, 900, 620)
    _move_the_map(app, tiles, user, accessible)
    x, y, width, height = accessible.extents("Close", "push button")
    user.click(x + width // 2, y + height // 2)
    assert app.wait_for_exit(15) == 0
    viewport = app.viewport()
    assert viewport is not None and viewport[2] == WORLD[2] + 1, viewport
    width, height, _ = app.query("SELECT width, height, is_maximized FROM window_state")[0]
    assert abs(width - 900) <= 60 and abs(height - 620) <= 60, (width, height)


def test_sigterm_saves_the_view_and_exits_cleanly(app, tiles, user, accessible):
    tiles.wait_for_tile_requests(count=4)
    left, top, right, bottom = map_box(accessible)
    user.scroll((left + right) // 2, (top + bottom) // 2, clicks=1)
    time.sleep(0.1)  # well before the debounced save
    assert app.terminate() == 0
    viewport = app.viewport()
    assert viewport is not None and viewport[2] == WORLD[2] + 1


def test_a_second_launch_brings_up_the_first_window_and_leaves_its_downloads_alone(app, make_app):
    # A download the first instance is in the middle of staging.
    staged = app.data_folder / "staging" / "in-progress.jpg"
    staged.write_bytes(b"\xff\xd8\xff half a photo")
    second = make_app()
    second.environment.update({key: app.environment[key] for key in ("XDG_DATA_HOME", "XDG_CACHE_HOME",
                                                                       "XDG_CONFIG_HOME")})
    second.start(wait_for_window=False)
    assert second.wait_for_exit(15) == 0, "the second launch hands over to the first and exits"
    assert len(app.windows()) == 1
    assert app.process.poll() is None
    assert staged.exists(), "only the running instance empties the staging folder, when it starts"


def test_ctrl_question_mark_shows_the_keyboard_shortcuts(app, accessible, user, screenshot):
    app.key("ctrl+question")
    accessible.find("Zoom in", "label")
    screenshot("shortcuts")
    user.key("Escape")  # to the shortcuts window, which has the focus
    app.wait_until(lambda: not accessible.exists("Zoom in", "label"), 5, "Escape closed the shortcuts window")
    app.key("ctrl+question")
    accessible.find("Zoom in", "label")  # built once, shown again
