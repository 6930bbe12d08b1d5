"""Memory while albums are opened: the app's resident memory (VmRSS) after each of 20 albums is
opened for the first time (their 30 photos downloaded from the local Flickr server, decoded and
shown), then over 100 more open/close cycles through the same albums. A rise over the first 20 is
the thumbnails' cost; the cycles should be flat (no leak): their slope per 100 cycles is printed.
The X server's rise over the same albums is printed beside the app's: what the app hands the display
(shared-memory images, pixmaps) would not show in the app's own figure.

    bench/run memory.py [--albums 20] [--cycles 100]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from benchlib import App, FlickrServer, TileServer, UserInput, record, start_display, temporary_home

COLUMNS, ROWS = (150, 325, 500, 675, 850), (220, 370, 520, 670)  # pin tips on screen (window at 0,0)
PIN_HEAD = 12  # pixels above the tip, where a click opens the album


def app_pid(app: App) -> int:
    """The app itself, not the dbus-run-session wrapping it."""
    children = Path(f"/proc/{app.process.pid}/task/{app.process.pid}/children").read_text().split()
    for pid in children:
        if "virtual-tourist" in Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace"):
            return int(pid)
    raise RuntimeError("the app's process was not found")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def open_and_close(app: App, user: UserInput, point: tuple[int, int], after: float) -> None:
    user.click(point[0], point[1] - PIN_HEAD)
    app.log.wait_for(r"photos? shown \([^)]*\), ([0-9]+) of \1\b", timeout=60, after=after)
    user.key("Escape")
    time.sleep(0.3)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--albums", type=int, default=20)
    parser.add_argument("--cycles", type=int, default=100)
    arguments = parser.parse_args()
    points = [(x, y) for y in ROWS for x in COLUMNS][:arguments.albums]

    home = temporary_home()
    display = start_display(home)
    tiles = TileServer().start()
    flickr = FlickrServer()
    flickr.control({"all_usable": True})
    app = App(display.name, tiles, flickr, home)
    user = UserInput(display.name)
    try:
        app.start()
        time.sleep(1.0)
        pid = app_pid(app)
        for x, y in points:  # drop every pin; their albums download in the background
            user.press_and_hold(x, y, 0.7)
            time.sleep(0.3)
        time.sleep(3.0)
        user.key("Escape")
        baseline = rss_mb(pid)
        server_baseline = rss_mb(display._process.pid)
        first_opens = []
        for point in points:
            open_and_close(app, user, point, time.monotonic())
            first_opens.append(rss_mb(pid))
        server_rise = rss_mb(display._process.pid) - server_baseline
        cycles = []
        for cycle in range(arguments.cycles):
            open_and_close(app, user, points[cycle % len(points)], time.monotonic())
            cycles.append(rss_mb(pid))
    finally:
        app.stop()
        flickr.stop()
        tiles.stop()
        display.stop()

    rise = first_opens[-1] - baseline
    tail = cycles[len(cycles) // 2:]
    slope = (tail[-1] - tail[0]) / max(1, len(tail) - 1) * 100
    record(f"memory.rss_rise_over_{len(points)}_albums", rise, "MB",
           note=f"from {baseline:.1f} MB with {len(points)} pins dropped to {first_opens[-1]:.1f} MB")
    record(f"memory.x_server_rss_rise_over_{len(points)}_albums", server_rise, "MB",
           note="the display's side of the same albums (shared-memory images, pixmaps)")
    record(f"memory.rss_slope_over_{arguments.cycles}_open_close_cycles", slope, "MB per 100 cycles",
           note=f"second half of the cycles: {tail[0]:.1f} → {tail[-1]:.1f} MB, peak {max(cycles):.1f} MB")


if __name__ == "__main__":
    main()
