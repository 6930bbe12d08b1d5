"""Issue 11 item 6: never blank, even offline. The built-in world basemap stands in where no tile can be had,
a quiet note says the map is offline until tiles come back, and tiles older than a week are fetched again."""

from __future__ import annotations

import os
import time
from pathlib import Path

from harness.accessibility import AccessibleApp
from harness.map import map_box
from harness.screenshots import crop, is_blank, wait_until_screen_shows
from harness.tile_server import render_tile

OFFLINE_NOTE = "Offline — showing saved map"
BASEMAP_SEA = (170, 211, 223)
BASEMAP_LAND = (242, 239, 233)
WORLD_TILES = {(2, x, y) for x in range(4) for y in range(4)}  # the first start's zoom 2 shows the whole world
EIGHT_DAYS = 8 * 24 * 3600


def fnv1a(text: str) -> str:
    """TileSource.stableHash: the custom server's cache folder is "custom-<this>"."""
    value = 0xCBF29CE484222325
    for byte in text.encode():
        value = ((value ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return format(value, "x")


def cache_folder(app) -> Path:
    return app.tile_cache / f"custom-{fnv1a(app.environment['VIRTUAL_TOURIST_TILE_URL'])}"


def fraction_near(image, colour: tuple[int, int, int], tolerance: int = 10) -> float:
    pixels = image.getdata()
    close = sum(1 for pixel in pixels if all(abs(a - b) <= tolerance for a, b in zip(pixel, colour)))
    return close / len(pixels)


def zoom_two_files(app) -> dict[tuple[int, int, int], Path]:
    folder = cache_folder(app)
    return {(2, x, y): folder / "2" / str(x) / f"{y}.png" for (_, x, y) in WORLD_TILES}


def test_offline_first_start_shows_the_world_and_says_so_until_tiles_come_back(make_app, tiles, screenshot):
    app = make_app()
    port = tiles.port
    tiles.stop()  # the tile server is unreachable and the cache is empty: a first start on a plane
    app.start()
    accessible = AccessibleApp()
    accessible.find(OFFLINE_NOTE, "label", timeout=15)
    app.wait_until(lambda: all(p.exists() for p in zoom_two_files(app).values()), 10,
                   "the basemap stood in for every tile of the world view")
    box = map_box(accessible)
    wait_until_screen_shows(app, lambda image: fraction_near(crop(image, box), BASEMAP_SEA) > 0.2
                            and fraction_near(crop(image, box), BASEMAP_LAND) > 0.05, "the basemap was drawn")
    offline = crop(screenshot("offline-first-start"), map_box(accessible))
    assert not is_blank(offline), "the map is blank offline"
    assert fraction_near(offline, BASEMAP_SEA) > 0.2, "the basemap's sea is drawn"
    assert fraction_near(offline, BASEMAP_LAND) > 0.05, "the basemap's land is drawn"
    assert all(p.stat().st_mtime == 0 for p in zoom_two_files(app).values()), "stand-ins are marked stale (epoch)"
    assert "basemap" not in app.log_text().lower() or "cannot be read" not in app.log_text(), app.log_tail()

    # The network comes back, with nobody touching the map.
    tiles.restart_on(port)
    tiles.wait_for_tile_requests(count=len(WORLD_TILES), zoom=2, timeout=40)
    app.wait_until(lambda: not accessible.exists(OFFLINE_NOTE, "label"), 15, "the offline note went away")
    files = zoom_two_files(app)
    app.wait_until(lambda: all(p.read_bytes() == render_tile(*tile) for tile, p in files.items()), 15,
                   "every stand-in in view was replaced by the server's tile")
    wait_until_screen_shows(app, lambda image: fraction_near(crop(image, box), BASEMAP_SEA) < 0.02,
                            "the map reloaded the replaced tiles from disk")
    online = crop(screenshot("online-again"), map_box(accessible))
    assert fraction_near(online, BASEMAP_SEA) < 0.02, "the stand-ins the map had drawn are gone from the screen"
    assert not is_blank(online)
    assert app.quit() == 0


def test_tiles_older_than_a_week_are_fetched_again_and_fresh_ones_are_not(make_app, tiles):
    app = make_app()
    files = zoom_two_files(app)
    stale = (2, 1, 1)
    for tile, path in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(render_tile(*tile))
    old = time.time() - EIGHT_DAYS
    os.utime(files[stale], (old, old))
    app.start()
    tiles.wait_for_tile_requests(count=1, zoom=2, timeout=20)
    time.sleep(2)  # anything else the app would fetch, it would have by now
    requested = {(t.z, t.x, t.y) for t, _ in tiles.tile_requests()}
    assert requested == {stale}, f"only the stale tile is fetched again, not {sorted(requested - {stale})}"
    app.wait_until(lambda: files[stale].stat().st_mtime > time.time() - 60, 10, "the stale tile was replaced")
    assert app.quit() == 0


def test_a_broken_basemap_is_logged_and_the_map_still_runs(make_app, tmp_path, screenshot):
    broken = tmp_path / "broken.mbtiles"
    broken.write_bytes(b"not a database" * 100)
    app = make_app(extra_environment={"VIRTUAL_TOURIST_BASEMAP": str(broken),
                                      "VIRTUAL_TOURIST_TILE_URL": "http://127.0.0.1:9/#Z/#X/#Y.png"})
    app.start()
    accessible = AccessibleApp()
    accessible.find(OFFLINE_NOTE, "label", timeout=15)
    app.wait_until(lambda: "cannot be read" in app.log_text(), 10, "the broken basemap was logged")
    screenshot("broken-basemap")
    assert app.process.poll() is None, "the app is still running"
    assert app.quit() == 0
