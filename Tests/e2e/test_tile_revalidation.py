"""Issue 34 point 2: OpenStreetMap's tile policy (2025). The app keeps each tile's ETag and Last-Modified beside
it, asks for a stale tile only if it changed, and a 304 renews the kept tile without downloading it again; no
request ever asks the server's caches to be bypassed."""

from __future__ import annotations

import sqlite3
import time

from harness.tile_server import LAST_MODIFIED, render_tile, tile_etag
from test_offline_map import EIGHT_DAYS, WORLD_TILES, cache_folder, zoom_two_files

RECORDS_FILE = "tile-freshness.sqlite"  # TileFreshnessDatabase.fileName


def kept_records(app) -> dict[tuple[int, int, int], tuple[str, str, float]]:
    with sqlite3.connect(cache_folder(app) / RECORDS_FILE) as db:
        rows = db.execute("SELECT zoom, x, y, etag, last_modified, fresh_until FROM tile").fetchall()
    return {(z, x, y): (etag, modified, fresh_until) for z, x, y, etag, modified, fresh_until in rows}


def test_stale_tiles_are_revalidated_and_a_304_keeps_them_without_a_download(make_app, tiles):
    app = make_app()
    app.start()
    tiles.wait_for_tile_requests(count=len(WORLD_TILES), zoom=2, timeout=40)
    files = zoom_two_files(app)
    app.wait_until(lambda: all(p.exists() and p.read_bytes() == render_tile(*tile) for tile, p in files.items()), 15,
                   "the world's tiles were kept")
    time.sleep(1)  # anything else the app would fetch, it would have by now
    assert app.quit() == 0
    first_run = tiles.tile_requests()
    assert sorted((t.z, t.x, t.y) for t, _ in first_run) == sorted(WORLD_TILES), "each tile fetched once"
    assert not tiles.conditional_requests(), "nothing kept yet: nothing to be conditional on"

    records = kept_records(app)
    assert set(records) == WORLD_TILES
    for tile, (etag, modified, fresh_until) in records.items():
        assert etag == tile_etag(*tile) and modified == LAST_MODIFIED, f"{tile}: {etag!r}, {modified!r}"
        assert fresh_until > time.time() + 6 * 24 * 3600, "fresh for the week the server said"

    # Eight days pass: every tile in view is stale by what the server said.
    with sqlite3.connect(cache_folder(app) / RECORDS_FILE) as db:
        db.execute("UPDATE tile SET fresh_until = fresh_until - ?", (EIGHT_DAYS,))
    kept = {tile: (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns) for tile, p in files.items()}
    tiles.log.clear()
    app.start()
    tiles.wait_for_tile_requests(count=len(WORLD_TILES), zoom=2, timeout=40)
    app.wait_until(lambda: all(record[2] > time.time() + 6 * 24 * 3600 for record in kept_records(app).values()),
                   15, "every tile was renewed")
    time.sleep(1)
    second_run = tiles.tile_requests()
    assert sorted((t.z, t.x, t.y) for t, _ in second_run) == sorted(WORLD_TILES), "each stale tile asked once"
    for tile, request in second_run:
        assert request.headers.get("if-none-match") == tile_etag(tile.z, tile.x, tile.y), request.headers
        assert request.headers.get("if-modified-since") == LAST_MODIFIED, request.headers
    assert len(tiles.conditional_requests()) == len(tiles.not_modified_answers()) == len(WORLD_TILES)
    for tile, p in files.items():
        assert (p.read_bytes(), p.stat().st_ino, p.stat().st_mtime_ns) == kept[tile], f"{tile} was downloaded again"
    for _, request in first_run + second_run:
        assert "cache-control" not in request.headers and "pragma" not in request.headers, request.headers
    assert app.quit() == 0
