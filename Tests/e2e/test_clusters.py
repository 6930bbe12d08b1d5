"""Issue 11, item 1: 2,000 pins at world zoom are a few cluster markers with counts, not a red carpet;
clicking a cluster zooms in; zoomed in far enough the pins are single again and still open their albums."""

from __future__ import annotations

import math
import random
import re
import sqlite3
import time

from harness.geo import screen_point
from harness.map import PIN_HEAD_ABOVE_TIP, WORLD_CENTRE, WORLD_ZOOM, map_box

PINS = 2000
# Twenty pins around Paris, 0.25° apart: one cluster at world zoom, single pins from zoom 9 on.
GRID = [(48.5 + 0.25 * row, 2.0 + 0.25 * column) for row in range(4) for column in range(5)]
SHOWN = re.compile(r"clusters shown at zoom (\d+): (\d+) markers for (\d+) pins, (\d+) single pins")
ZOOMED = re.compile(r"zooming into a cluster of (\d+) pins: zoom (\d+) → (\d+) at (-?[0-9.]+), (-?[0-9.]+)")


def is_marker_red(pixel: tuple[int, int, int]) -> bool:
    red, green, blue = pixel
    return red > 170 and green < 90 and blue < 90


def red_blobs(image, box) -> list[tuple[int, float, float, int, int]]:
    """Connected areas of the pins' red inside `box`: (pixels, centre x, centre y, width, height)."""
    left, top, right, bottom = box
    pixels = image.load()
    red = {(x, y) for y in range(top, bottom) for x in range(left, right) if is_marker_red(pixels[x, y])}
    blobs = []
    while red:
        stack = [red.pop()]
        members = []
        while stack:
            x, y = stack.pop()
            members.append((x, y))
            for neighbour in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if neighbour in red:
                    red.remove(neighbour)
                    stack.append(neighbour)
        xs, ys = [m[0] for m in members], [m[1] for m in members]
        blobs.append((len(members), sum(xs) / len(xs), sum(ys) / len(ys),
                      max(xs) - min(xs) + 1, max(ys) - min(ys) + 1))
    return blobs


def seed_pins(app) -> list[tuple[float, float]]:
    generator = random.Random(11)
    pins = list(GRID)
    while len(pins) < PINS:
        latitude, longitude = generator.uniform(-55, 70), generator.uniform(-180, 180)
        if abs(latitude - 48.8) < 8 and abs(longitude - 2.5) < 12:
            continue  # keep the grid's surroundings clear, so zooming into it is quick
        pins.append((latitude, longitude))
    with sqlite3.connect(app.database_path) as database:
        database.executemany("INSERT INTO pin(latitude, longitude, created_at) VALUES (?, ?, ?)",
                             [(latitude, longitude, 800_000_000.0) for latitude, longitude in pins])
    return pins


def last_shown(app, after: int = 0):
    matches = [m for m in SHOWN.finditer(app.log_text()) if m.start() >= after]
    return matches[-1] if matches else None


def test_clusters_at_world_zoom_zoom_in_on_click_and_fall_apart_into_pins(make_app, tiles, user, screenshot):
    app = make_app()
    app.start()
    tiles.wait_for_tile_requests(count=4)
    assert app.terminate() == 0  # the first start creates the database
    seed_pins(app)
    app.start()
    from harness.accessibility import AccessibleApp
    accessible = AccessibleApp()
    tiles.wait_for_tile_requests(count=4)
    box = map_box(accessible)

    # World zoom: the index is built off the main thread, then markers are drawn.
    app.wait_until(lambda: f"cluster index built: {PINS} pins" in app.log_text(), 20, "the cluster index was built")
    shown = app.wait_until(lambda: (m := last_shown(app)) and int(m.group(1)) == WORLD_ZOOM and int(m.group(2)) > 0
                           and m, 10, "cluster markers were drawn at world zoom")
    markers, clustered, singles = int(shown.group(2)), int(shown.group(3)), int(shown.group(4))
    assert markers + singles < PINS / 5, f"{markers} markers and {singles} pins drawn for {PINS} pins"
    assert clustered + singles >= PINS * 0.9, "the markers stand for (nearly) all the pins in view"
    time.sleep(0.5)
    world = screenshot("world-clusters")
    blobs = red_blobs(world, box)
    assert len(blobs) >= 20, f"separate red markers, not a carpet: {len(blobs)} red areas"
    largest = max(blobs)
    assert largest[3] <= 60 and largest[4] <= 60, f"no red area bigger than a marker: {largest}"

    # The cluster over the Paris grid: click it, the map zooms in; again until its pins are single.
    centre, zoom = WORLD_CENTRE, WORLD_ZOOM
    for attempt in range(8):
        grid = [screen_point(lat, lon, centre, zoom, box) for lat, lon in GRID]
        if min(math.dist(a, b) for i, a in enumerate(grid) for b in grid[i + 1:]) > 60:
            break
        gx, gy = sum(p[0] for p in grid) / len(grid), sum(p[1] for p in grid) / len(grid)
        image = world if attempt == 0 else screenshot(f"zoomed-{attempt}")
        blobs = [b for b in red_blobs(image, box) if b[0] > 200]  # markers, not pins' slivers
        target = min(blobs, key=lambda b: math.hypot(b[1] - gx, b[2] - gy))
        assert math.hypot(target[1] - gx, target[2] - gy) < 60, f"a marker over the grid at {gx:.0f},{gy:.0f}"
        mark = len(app.log_text())
        user.click(round(target[1]), round(target[2]))
        zoomed = app.wait_until(lambda: (m := ZOOMED.search(app.log_text(), mark)) and m, 5,
                                f"click {attempt + 1} on the cluster zoomed in")
        assert int(zoomed.group(2)) == zoom and int(zoomed.group(3)) > zoom, zoomed.group(0)
        centre, zoom = (float(zoomed.group(4)), float(zoomed.group(5))), int(zoomed.group(3))
        app.wait_until(lambda: (m := last_shown(app, mark)) and int(m.group(1)) == zoom, 5, "the new zoom drawn")
        time.sleep(0.8)  # tiles of the new zoom
        assert not accessible.exists("Back", "push button"), "a click on a cluster opens no album"
    else:
        raise AssertionError(f"still clustered at zoom {zoom}")
    assert zoom > WORLD_ZOOM + 3

    # Single pins: each grid pin in view is drawn as a pin, and a click on one opens its album.
    close = screenshot("single-pins")
    left, top, right, bottom = box
    visible = [(lat, lon, x, y) for (lat, lon), (x, y) in zip(GRID, grid)
               if left + 20 < x < right - 20 and top + 50 < y < bottom - 10]
    assert len(visible) >= 10, f"the grid is in view at zoom {zoom}: {visible}"
    for _, _, x, y in visible:
        assert is_marker_red(close.getpixel((round(x) - 7, round(y) - PIN_HEAD_ABOVE_TIP))), \
            f"a red pin head above {x:.0f},{y:.0f}"
    latitude, _, x, y = visible[0]
    user.click(round(x), round(y) - PIN_HEAD_ABOVE_TIP)
    accessible.find("Back", "push button")
    screenshot("album-of-a-single-pin")
    assert any(f"{latitude:.4f}" in label for label in accessible.labels()) or \
        any("Paris" in label or "France" in label for label in accessible.labels()), accessible.labels()
    accessible.click("Back")
    app.wait_until(lambda: not accessible.exists("Back", "push button"), 5, "back on the map")

    # The window's close button saves the zoomed-in view.
    accessible.click("Close")
    assert app.wait_for_exit(15) == 0
    saved = app.viewport()
    assert saved is not None and saved[2] == zoom, f"the saved view is the zoomed-in one: {saved}"
