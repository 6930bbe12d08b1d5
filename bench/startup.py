"""Start-up, and whether it grows with the library. Each start is timed from the moment the process
is spawned to the first tile request reaching the tile server (the map is on screen asking for
tiles), with an empty tile cache every time:

- floor: a bare C GTK 3 window with osm-gps-map (bench/floors/bare_map.c), same size, view and server;
- the app on an empty library;
- the app on a big library (10,000 pins, 300,000 photos with files; bench/make_library.py), and how
  long after the map its pins are drawn.

Every program is started the same way (directly, on the session bus bench/run starts), alternating,
ROUNDS times; medians are reported.

    bench/run startup.py [--rounds 7] [--pins 10000]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from benchlib import (REPO, App, StampedLog, TileServer, app_binary, record, session_bus, start_display,
                      stop_process)
from make_library import make_library

FLOOR_BINARY = REPO / ".build" / "bench-floors" / "bare_map"


def first_tile_after(tiles: TileServer, started: float, agent: str, timeout: float = 30) -> float:
    """When the first tile request from a program whose User-Agent contains `agent` arrived."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stamps = [request.received_at for _, request in tiles.tile_requests()
                  if request.received_at >= started and agent in request.user_agent]
        if stamps:
            return min(stamps)
        time.sleep(0.002)
    raise TimeoutError("no tile was requested")


def time_floor(display: str, tiles: TileServer) -> float:
    cache = Path(tempfile.mkdtemp(prefix="vt-bench-floor-cache-"))
    environment = {"DISPLAY": display, "PATH": "/usr/bin:/bin", "HOME": str(cache), "NO_AT_BRIDGE": "1",
                   **session_bus()}
    started = time.monotonic()
    process = subprocess.Popen([str(FLOOR_BINARY), tiles.url_template, str(cache)],
                               env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        return (first_tile_after(tiles, started, "bench-floor") - started) * 1000
    finally:
        stop_process(process)
        shutil.rmtree(cache, ignore_errors=True)


def time_app(app: App, tiles: TileServer, pins: int) -> tuple[float, float | None]:
    """(ms to the first tile request, ms from then to the pins drawn, if there are any)."""
    shutil.rmtree(Path(app.environment["XDG_CACHE_HOME"]) / "virtual-tourist", ignore_errors=True)
    environment = {**app.environment, "NO_AT_BRIDGE": "1", **session_bus()}
    path = Path(tempfile.mkdtemp(prefix="vt-bench-startup-log-")) / "app.log"
    started = time.monotonic()
    with open(path, "wb") as written:
        process = subprocess.Popen([app_binary()], env=environment,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=written)
    log = StampedLog(path)
    try:
        first_tile = first_tile_after(tiles, started, "VirtualTourist")
        pins_after = None
        if pins:
            shown, _ = log.wait_for(rf"pins shown: {pins}\b", timeout=30)
            pins_after = (shown - first_tile) * 1000
        log.wait_for(r"frame [0-9.]+ ms", timeout=30)  # settled before it is stopped
        return (first_tile - started) * 1000, pins_after
    finally:
        stop_process(process)
        log.close()
        shutil.rmtree(path.parent, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--pins", type=int, default=10_000)
    parser.add_argument("--photos-per-pin", type=int, default=30)
    arguments = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="vt-bench-startup-"))
    print(f"startup: making a library of {arguments.pins} pins × {arguments.photos_per_pin} photos …", flush=True)
    big_home, empty_home = root / "big", root / "empty"
    make_library(big_home, arguments.pins, arguments.photos_per_pin)
    display = start_display(root)
    tiles = TileServer().start()
    try:
        empty = App(display.name, tiles, None, empty_home)
        big = App(display.name, tiles, None, big_home)
        time_app(empty, tiles, 0)  # creates the empty database: later starts open an existing one
        floor, on_empty, on_big, pins_after = [], [], [], []
        for _ in range(arguments.rounds):
            floor.append(time_floor(display.name, tiles))
            on_empty.append(time_app(empty, tiles, 0)[0])
            first_tile, after = time_app(big, tiles, arguments.pins)
            on_big.append(first_tile)
            pins_after.append(after)
    finally:
        tiles.stop()
        display.stop()
        shutil.rmtree(root, ignore_errors=True)

    floor_ms, empty_ms, big_ms = (statistics.median(v) for v in (floor, on_empty, on_big))
    photos = arguments.pins * arguments.photos_per_pin
    record("startup.empty_library", empty_ms, "ms", floor=floor_ms, floor_name="bare C GTK window + osm-gps-map",
           goal_ratio=1.5)
    record(f"startup.library_{arguments.pins}_pins_{photos}_photos", big_ms, "ms", floor=empty_ms,
           floor_name="the app on an empty library", goal_ratio=1.2)
    record(f"startup.pins_drawn_after_map_{arguments.pins}_pins", statistics.median(pins_after), "ms", goal=100)


if __name__ == "__main__":
    main()
