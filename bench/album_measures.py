"""What the album benchmarks (album_download.py) measure with: the floors they stand beside (curl fetching the same
images, gdk-pixbuf decoding the same files, a bare GTK page of as many tiles), and what the app's trace log tells of an
album's photos."""

from __future__ import annotations

import re
import statistics
import subprocess
import time
from urllib.parse import urlencode

from benchlib import REPO, App, FlickrServer, TimedClicks, TimedLog, UserInput, session_bus, stop_process, temporary_home

DECODE_FLOOR = REPO / ".build" / "bench-floors" / "decode_loop"
PAGE_FLOOR = REPO / ".build" / "bench-floors" / "album_page"
THUMBNAIL_SIDE, DECODE_THREADS = 150, 2  # PhotoTile.side; Swift's default executor has one thread per core
DECODE_FLOOR_NAME = f"gdk-pixbuf decoding the same files at {THUMBNAIL_SIDE} px on {DECODE_THREADS} threads"
MAP_POINT = (500, 400)  # screen point of the pin (map area, window at 0,0)


def wait_all_painted(app: App, after: float, timeout: float = 60) -> tuple[float, int]:
    """Waits for 'photos painted, N of N' after `after` (the grid drawn with its last photo: the frame that
    puts it on the screen, not the moment it was handed to GTK); returns its time and N."""
    stamp, match = app.log.wait_for(r"photos painted, ([0-9]+) of \1\b", timeout=timeout, after=after)
    return stamp, int(match.group(1))


def photos_shown(app: App, start: float, end: float, source: str) -> int:
    """Photos shown in [start, end] whose pictures came from `source` (as the app's log says it)."""
    pattern = re.compile(rf"([0-9]+) photos? shown \({re.escape(source)}\)")
    return sum(int(match.group(1)) for stamp, line in app.log.snapshot()
               if start <= stamp <= end and (match := pattern.search(line)))


def decodes_from_file(app: App, start: float, end: float) -> int:
    """Photos shown in [start, end] that had to be decoded from their file (not at download)."""
    return photos_shown(app, start, end, "decoded from its file")


def thumbnails_read(app: App, start: float, end: float) -> int:
    """Photos shown in [start, end] from their kept grid-sized picture (no decode of the photo)."""
    return photos_shown(app, start, end, "read from its thumbnail")


def curl_floor(flickr: FlickrServer, search_query: dict, image_urls: list[str], how: list[str]) -> float:
    """Milliseconds for curl to make the app's search, then fetch the app's images `how` says:
    `HTTP1_SIX` (6 connections at a time) or `http2_one_connection(cdn, count)`."""
    search_url = f"{flickr.rest_url}?{urlencode(search_query)}"
    started = time.monotonic()
    subprocess.run(["curl", "-sf", "-o", "/dev/null", search_url], check=True)
    subprocess.run(["curl", "-sf", "--no-progress-meter", *how,
                    *[item for url in image_urls for item in ("-o", "/dev/null", url)]], check=True)
    return (time.monotonic() - started) * 1000


HTTP1_SIX = ["--parallel", "--parallel-immediate", "--parallel-max", "6"]


def decode_floor(app: App) -> float:
    """Milliseconds for gdk-pixbuf alone to decode the album's files at the grid's size: the median of 7 runs (each a
    new process, as the app's figure is). Runs are short: 2 or 3 in 15 take twice as long as the rest (7.1-7.9 ms,
    then 13 and 17.6), and a median of 3 caught them."""
    return decode_floor_and_cpu(app)[0]


def decode_floor_and_cpu(app: App) -> tuple[float, float]:
    """`decode_floor`, and the CPU time its decodes took on all their threads (the median of the same runs)."""
    files = sorted(str(path) for path in (app.database.parent / "photos").rglob("*") if path.is_file())
    runs = [[float(figure) for figure in subprocess.run(
                [str(DECODE_FLOOR), str(THUMBNAIL_SIDE), str(DECODE_THREADS), *files],
                check=True, capture_output=True, text=True).stdout.split()] for _ in range(7)]
    return statistics.median(run[0] for run in runs), statistics.median(run[1] for run in runs)


def page_floor(display: str, user: UserInput, clicks: TimedClicks, count: int) -> tuple[float, float, float]:
    """Milliseconds from the click to the end of the frame that drew a bare GTK page of `count` tiles (pictures
    already in memory), the longest of its two turns of the main loop (the click's, which builds the page, and the
    frame's), and the frame's turn: what the toolkit costs any page of photos. Each run is a new process, as the app's
    figure is; the pointer arrives and clicks as in the app's figure. Medians of 3."""
    x, y = MAP_POINT
    runs, turns, frames = [], [], []
    for _ in range(3):
        environment = {"DISPLAY": display, "PATH": "/usr/bin:/bin", "HOME": str(temporary_home()), **session_bus()}
        process = subprocess.Popen([str(PAGE_FLOOR), str(THUMBNAIL_SIDE), str(count)], env=environment,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        try:
            log = TimedLog(process.stdout)
            log.wait_for(r"^ready$", timeout=30)
            time.sleep(0.7)  # clicked a second after its window came up, as the app is
            user.mousemove(x + 150, y + 100)
            time.sleep(0.1)
            clicked = clicks.arrive_and_click(x, y - 12)
            _, match = log.wait_for(r"^painted ([0-9.]+) ([0-9.]+) ([0-9.]+)$", timeout=30, after=clicked)
            runs.append((float(match.group(3)) - clicked) * 1000)  # its own stamp, as the app's figure takes the app's
            turns.append(max(float(match.group(1)), float(match.group(2))))
            frames.append(float(match.group(2)))
        finally:
            stop_process(process)
    return statistics.median(runs), statistics.median(turns), statistics.median(frames)
