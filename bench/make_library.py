"""Fills an app home with a big library: PINS pins, each with an album of PHOTOS_PER_PIN downloaded
photos whose files exist (hard links to one small JPEG, so 300,000 files cost inodes, not gigabytes).

    /usr/bin/python3 bench/make_library.py HOME [--pins 10000] [--photos-per-pin 30]

HOME gets the app's XDG folders (data/, cache/, …) as the test harness lays them out. The schema
is the app's own: the real binary creates the database on a first start, then this script adds rows
in one transaction, as if the user had dropped the pins and downloaded their albums.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sqlite3
import time
from pathlib import Path

from benchlib import REPO, App, TileServer, start_display

TINY_JPEG = REPO / "Tests" / "FlickrTestSupport" / "Server" / "tiny.jpg"
LINKS_PER_SOURCE = 50_000  # ext4 allows 65,000 hard links to one file


def create_schema(home: Path) -> Path:
    """Starts the real app once on an empty home (it creates and migrates the database), then quits."""
    home.mkdir(parents=True, exist_ok=True)
    display = start_display(home)
    tiles = TileServer().start()
    app = App(display.name, tiles, None, home)
    try:
        app.start()
        app.stop()
    finally:
        tiles.stop()
        display.stop()
    return app.database


def fill(database: Path, pins: int, photos_per_pin: int, seed: int = 1) -> None:
    data_folder = database.parent
    rng = random.Random(seed)
    now = time.time()
    connection = sqlite3.connect(database)
    links = 0
    source = None
    try:
        with connection:
            for pin_index in range(pins):
                # Over land and sea alike, not too near the poles (Mercator).
                latitude, longitude = rng.uniform(-70, 75), rng.uniform(-179.9, 179.9)
                created = now - (pins - pin_index) * 60
                pin_id = connection.execute("INSERT INTO pin(latitude, longitude, created_at) VALUES (?, ?, ?)",
                                            (latitude, longitude, created)).lastrowid
                connection.execute("INSERT INTO album(pin_id, page, pages, total, per_page, fetched_at) "
                                   "VALUES (?, 1, 4, 95, ?, ?)", (pin_id, photos_per_pin, created))
                folder = data_folder / "photos" / str(pin_id)
                folder.mkdir(parents=True, exist_ok=True)
                for position in range(photos_per_pin):
                    flickr_id = f"{pin_id}{position:03d}"
                    photo_id = connection.execute(
                        "INSERT INTO photo(pin_id, flickr_id, remote_url, file_path, position, created_at) "
                        "VALUES (?, ?, ?, NULL, ?, ?)",
                        (pin_id, flickr_id, f"http://127.0.0.1:9/{flickr_id}.jpg", position, created)).lastrowid
                    relative = f"photos/{pin_id}/{photo_id}.jpg"
                    if links % LINKS_PER_SOURCE == 0:  # a file system allows only so many links to one file
                        source = data_folder.parent / f"library-source-{links // LINKS_PER_SOURCE}.jpg"
                        shutil.copyfile(TINY_JPEG, source)
                    os.link(source, data_folder / relative)
                    links += 1
                    connection.execute("UPDATE photo SET file_path = ? WHERE id = ?", (relative, photo_id))
                    connection.execute("INSERT OR IGNORE INTO seen_photo(pin_id, flickr_id) VALUES (?, ?)",
                                       (pin_id, flickr_id))
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()


def make_library(home: Path, pins: int, photos_per_pin: int) -> Path:
    database = create_schema(home)
    fill(database, pins, photos_per_pin)
    return database


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("home", type=Path)
    parser.add_argument("--pins", type=int, default=10_000)
    parser.add_argument("--photos-per-pin", type=int, default=30)
    arguments = parser.parse_args()
    arguments.home.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    database = make_library(arguments.home, arguments.pins, arguments.photos_per_pin)
    print(f"{arguments.pins} pins, {arguments.pins * arguments.photos_per_pin} photos with files in "
          f"{database.parent} ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
