"""A 30-photo album from the local Flickr server with 50 ms added to every request:
- time from the pin drop to the last photo painted;
- time from opening an album already on disk to all its photos painted (and no request);
- the longest main-loop stall during the download (the app's own watchdog, trace log).

    bench/run album_download.py
"""

from __future__ import annotations

import re
import time

from benchlib import App, FlickrServer, UserInput, start_display, temporary_home, TileServer

MAP_POINT = (500, 400)  # screen point of the pin (map area, window at 0,0)


def wait_all_painted(app: App, after: float, timeout: float = 60) -> tuple[float, int]:
    """Waits for 'photo shown, N of N' after `after`; returns its time and N."""
    stamp, match = app.log.wait_for(r"photo shown, ([0-9]+) of \1\b", timeout=timeout, after=after)
    return stamp, int(match.group(1))


def longest_stall(app: App, start: float, end: float) -> float:
    stalls = [float(m.group(1)) for stamp, line in app.log.snapshot()
              if start <= stamp <= end and (m := re.search(r"main loop stall ([0-9.]+) ms", line))]
    return max(stalls, default=0.0)


def main() -> None:
    home = temporary_home()
    display = start_display(home)
    tiles = TileServer().start()
    flickr = FlickrServer()
    flickr.control({"all_usable": True, "image_delay": 0.05, "faults": [{"target": "search", "kind": "delay", "seconds": 0.05}]})
    app = App(display.name, tiles, flickr, home)
    user = UserInput(display.name)
    try:
        app.start()
        time.sleep(1.0)
        x, y = MAP_POINT
        user.press_and_hold(x, y, 0.7)
        dropped, _ = app.log.wait_for(r"Dropping a pin", timeout=10)
        user.click(x, y - 12)  # open the album while it downloads
        painted, count = wait_all_painted(app, after=dropped)
        print(f"album of {count} photos, 50 ms per request: pin drop to last photo painted "
              f"{(painted - dropped) * 1000:.0f} ms; longest main-loop stall during the download "
              f"{longest_stall(app, dropped, painted):.1f} ms (stalls under 5 ms are not reported)")
        app.stop()

        requests_before = len(flickr.requests())
        app.start()
        time.sleep(1.0)
        opened = time.monotonic()
        user.click(x, y - 12)
        painted, count = wait_all_painted(app, after=opened)
        print(f"reopening the album from disk: click to all {count} photos painted {(painted - opened) * 1000:.0f} ms; "
              f"requests to Flickr: {len(flickr.requests()) - requests_before}; longest stall "
              f"{longest_stall(app, opened, painted):.1f} ms")
    finally:
        app.stop()
        flickr.stop()
        tiles.stop()
        display.stop()


if __name__ == "__main__":
    main()
