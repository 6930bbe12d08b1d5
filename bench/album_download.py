"""A 30-photo album from the local Flickr server with 50 ms added to every request:
- from the moment the pin appears (press-and-hold fires) to the last photo painted, against the
  network floor measured in the same run: the same search and the same 30 images fetched by
  `curl --parallel --parallel-immediate --parallel-max 6` from the same server;
- the same over HTTP/2, from a CDN in front of the server (nginx, TLS), as Flickr's images are: against
  `curl --http2 --parallel` fetching the same images over its one multiplexed connection;
- opening the album again from disk: click to all photos painted (no request; the grid-sized pictures
  kept when the photos arrived are read back, so the photos are not decoded again), the click sent over a
  connection to the X server opened beforehand (TimedClicks); once after the pointer rested on the pin,
  as a hand does, and once with the pointer arriving and clicking in the same instant; the latter also beside
  the decode floor plus a bare GTK page of as many tiles shown from a click (bench/floors/album_page.c), where the
  time goes;
- the first opening, after a restart, of an album fetched at its drop and never opened (the pointer resting on the
  pin): click to all photos painted beside the decode floor, and how many photos it decoded from their files;
- the opening of an album whose kept pictures are gone (past the picture cache's budget, as most albums of a big
  library are), after a restart, so that its photos are decoded from their files: click to all photos painted beside
  the decode floor, the pointer resting on the pin first, then arriving and clicking in the same instant;
- the longest main-loop stall during the download (the app's own watchdog, trace log);
- the longest main-loop stall while five albums download at once (five pins dropped in a row, 1 s
  per image) and the user pans the map.
The server has drawn every photo before the measured app asks for it (`warm_server`), so the app and curl
are both served photos from memory.

    bench/run album_download.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from contextlib import contextmanager
from typing import Callable, Iterator

from album_measures import (DECODE_FLOOR_NAME, HTTP1_SIX, MAP_POINT, curl_floor, decode_floor, decode_floor_and_cpu,
                            decodes_from_file, page_floor, thumbnails_read, wait_all_painted)
from benchlib import (App, FlickrServer, Stall, TimedClicks, TileServer, UserInput, longest_stall, record, stall_note,
                      start_display, temporary_home)
from harness.photo_cdn import PhotoCDN

DELAY = 0.05
# What a person can see: a display shows a new picture once a frame (60 Hz). An album on disk is whole in the first
# frame after the click; one whose kept pictures are gone (its photos decoded) within three.
FIRST_FRAME = 17
THREE_FRAMES = 50
ARRIVALS = 3  # openings per round of each kind (pointer rested; arriving and clicking at once), each after a restart


def http2_one_connection(cdn: PhotoCDN, count: int) -> list[str]:
    """curl waits for its connection and multiplexes every request on it."""
    return ["--http2", "--cacert", str(cdn.ca_file), "--parallel", "--parallel-max", str(count)]


def warm_server(display: str, tiles: TileServer, flickr: FlickrServer, user: UserInput,
                points: list[tuple[int, int]], cdn: PhotoCDN | None = None) -> None:
    """Has the server draw the photos the measured app will ask for, by a first app on a library of its own
    dropping pins at the same points (the same map, so the same searches). The test server draws a photo
    the first time it is asked for (Pillow, holding Python's lock for milliseconds each) and keeps it:
    without this the app's album waited for the drawing and the floor's curl, asking second, did not.
    Now both are served from memory, as a CDN serves stored files."""
    app = App(display, tiles, flickr, temporary_home())
    if cdn is not None:
        app.environment["SSL_CERT_FILE"] = str(cdn.ca_file)
    try:
        app.start()
        time.sleep(1.0)
        for pin, (x, y) in enumerate(points, start=1):
            user.press_and_hold(x, y, 0.7)
            app.log.wait_for(rf"Pin {pin}: 30 of 30 photos done", timeout=30)
    finally:
        app.stop()


def http2_round(display: str, tiles: TileServer, user: UserInput) -> tuple[float, float, float, float, int]:
    """Two albums downloaded from the CDN over HTTP/2, each timed from the drop to its last photo done
    (downloaded, checked, stored: over HTTP/2 that is before a user can release the button and open it),
    each beside curl's floor for the same images; and how many connections the app's image requests came on.
    The first album opens the connection (TLS) while its requests wait; the second goes on the open one."""
    home = temporary_home()
    flickr = FlickrServer()
    cdn = PhotoCDN(flickr.port, home / "cdn")
    flickr.control({"all_usable": True, "image_delay": DELAY, "image_base_url": cdn.base_url,
                    "faults": [{"target": "search", "kind": "delay", "seconds": DELAY}]})
    app = App(display, tiles, flickr, home)
    app.environment["SSL_CERT_FILE"] = str(cdn.ca_file)
    figures: list[float] = []
    connections: set[int] = set()
    points = [MAP_POINT, (MAP_POINT[0] + 200, MAP_POINT[1])]
    try:
        warm_server(display, tiles, flickr, user, points, cdn)
        app.start()
        time.sleep(1.0)
        for pin, (x, y) in enumerate(points, start=1):
            seen, pressed = len(cdn.requests()), time.monotonic()
            user.press_and_hold(x, y, 0.7)
            dropped, _ = app.log.wait_for(r"Dropping a pin", timeout=10, after=pressed)
            done, _ = app.log.wait_for(rf"Pin {pin}: 30 of 30 photos done", timeout=30, after=dropped)
            served = [request for request in cdn.requests()[seen:] if request.path.startswith("/images/")]
            connections |= {request.connection for request in served}
            images = [request.path for request in served]
            search = flickr.requests("search")[-1]["query"]
            floor = curl_floor(flickr, search, [f"{cdn.base_url}{path}" for path in images],
                               http2_one_connection(cdn, len(images)))
            figures += [(done - dropped) * 1000, floor]
        return (*figures, len(connections))
    finally:
        app.stop()
        cdn.stop()
        flickr.stop()


def one_round(display: str, tiles: TileServer, user: UserInput) -> tuple[float, ...]:
    home = temporary_home()
    flickr = FlickrServer()
    flickr.control({"all_usable": True, "image_delay": DELAY,
                    "faults": [{"target": "search", "kind": "delay", "seconds": DELAY}]})
    app = App(display, tiles, flickr, home)
    try:
        warm_server(display, tiles, flickr, user, [MAP_POINT])
        served_before = len(flickr.requests("image"))
        app.start()
        time.sleep(1.0)
        x, y = MAP_POINT
        user.press_and_hold(x, y, 0.7)
        dropped, _ = app.log.wait_for(r"Dropping a pin", timeout=10)
        user.click(x, y - 12)  # open the album while it downloads
        painted, count = wait_all_painted(app, after=dropped)
        fill_ms = (painted - dropped) * 1000
        stall = longest_stall(app, dropped, painted)
        decoded_twice = decodes_from_file(app, dropped, painted)
        search = flickr.requests("search")[-1]["query"]
        images = [entry["path"] for entry in flickr.requests("image")[served_before:]]
        floor_ms = curl_floor(flickr, search, [f"{flickr.base_url}{path}" for path in images], HTTP1_SIX)
        app.stop()

        requests_before = len(flickr.requests())
        clicks = TimedClicks(display)
        try:
            # As a hand does: the pointer comes to rest on the pin (50 ms), then clicks. As many openings as
            # arrivals: one swings by a few milliseconds, and a median of three rounds caught it.
            reopens, kept = [], []
            for _ in range(ARRIVALS):
                restarted = time.monotonic()
                opened, reopened, _ = restart_and_click(app, user, clicks, x, y)
                kept.append(thumbnails_read(app, restarted, reopened))  # read as the pointer came, or after the click
                reopens.append((reopened - opened) * 1000)
                app.stop()
            # The pointer, on the map already, arrives on the pin and clicks in the same instant: nothing of the
            # click is foreseen.
            arrivals = restart_and_arrive(app, user, clicks, x, y)
            page = page_floor(display, user, clicks, count)
        finally:
            clicks.close()
        reopen_requests = len(flickr.requests()) - requests_before
        return (fill_ms, floor_ms, stall, count, reopens, reopen_requests, decode_floor(app),
                decoded_twice, min(kept), arrivals, page)
    finally:
        app.stop()
        flickr.stop()


def restart_and_click(app: App, user: UserInput, clicks: TimedClicks, x: int, y: int) -> tuple[float, float, int]:
    """Starts the app again; a second later the pointer comes to rest on the pin at (x, y), as a hand does, and
    clicks. Returns the click's time, when the album's photos were all painted, and how many it has (the app is left
    running)."""
    app.start()
    time.sleep(1.0)
    user.mousemove(x, y - 12)
    opened = clicks.click()
    painted, count = wait_all_painted(app, after=opened)
    return opened, painted, count


def restart_and_arrive(app: App, user: UserInput, clicks: TimedClicks, x: int, y: int,
                       before: Callable[[], None] = lambda: None,
                       then: Callable[[float, float], None] = lambda arrived, painted: None) -> list[float]:
    """`ARRIVALS` times (one opening swings by a few milliseconds on this machine): `before`, the app started again,
    and a second later the pointer, on the map, arrives on the pin at (x, y) and clicks in the same instant; `then`
    is told the click's time and when all its photos were painted, before the app stops. Click to all painted, ms."""
    figures = []
    for _ in range(ARRIVALS):
        before()
        app.start()
        time.sleep(1.0)
        user.mousemove(x + 150, y + 100)
        arrived = clicks.arrive_and_click(x, y - 12)
        painted, _ = wait_all_painted(app, after=arrived)
        then(arrived, painted)
        figures.append((painted - arrived) * 1000)
        app.stop()
    return figures


@contextmanager
def fetched_album(display: str, tiles: TileServer,
                  user: UserInput) -> Iterator[tuple[App, TimedClicks, tuple[int, int]]]:
    """The app, on a Flickr server of its own, started with a pin dropped at MAP_POINT whose album has downloaded;
    clicks, and the pin's point. Everything is stopped after."""
    flickr = FlickrServer()
    flickr.control({"all_usable": True})
    app = App(display, tiles, flickr, temporary_home())
    clicks = TimedClicks(display)
    try:
        app.start()
        time.sleep(1.0)
        x, y = MAP_POINT
        user.press_and_hold(x, y, 0.7)
        app.log.wait_for(r"Pin 1: ([0-9]+) of \1 photos done", timeout=30)
        yield app, clicks, (x, y)
    finally:
        clicks.close()
        app.stop()
        flickr.stop()


def unopened_round(display: str, tiles: TileServer, user: UserInput) -> tuple[float, float, int, int]:
    """An album fetched at its drop and never opened, the app quit, then started again and the album opened (the
    pointer rests on the pin 50 ms, then clicks): click to all photos painted, the decode floor for its files, how many
    photos were decoded from their file on opening, and how many the album has."""
    with fetched_album(display, tiles, user) as (app, clicks, (x, y)):
        user.mousemove(x + 150, y + 100)  # off the pin: its album is not made ready either
        time.sleep(1.0)
        app.stop()
        opened, painted, count = restart_and_click(app, user, clicks, x, y)
        return (painted - opened) * 1000, decode_floor(app), decodes_from_file(app, opened, painted), count


def forget_kept_pictures(app: App) -> None:
    """Deletes the album grid's kept pictures, as the cache's trim does for albums past its budget."""
    for picture in (Path(app.environment["XDG_CACHE_HOME"]) / "virtual-tourist" / "thumbnails").rglob("*.kept"):
        picture.unlink()


def gone_round(display: str, tiles: TileServer,
               user: UserInput) -> tuple[float, list[float], tuple[float, float], int, int]:
    """An album whose kept pictures are gone (past the picture cache's budget, as most albums of a big library are),
    opened after a restart: its photos are decoded from their files. Click to all photos painted, the pointer resting
    on the pin 50 ms first, then arriving and clicking in the same instant (`ARRIVALS` times; the pictures deleted again
    before each), the decode floor for its files and the CPU time of its decodes, the fewest photos decoded from their
    files in an opening, and how many the album has."""
    with fetched_album(display, tiles, user) as (app, clicks, (x, y)):
        time.sleep(1.0)  # its pictures kept
        app.stop()
        forget_kept_pictures(app)
        opened, rested, count = restart_and_click(app, user, clicks, x, y)
        decoded = [decodes_from_file(app, opened - 1, rested)]  # from the moment the pointer came
        app.stop()
        arrivals = restart_and_arrive(app, user, clicks, x, y, before=lambda: forget_kept_pictures(app),
                                      then=lambda arrived, painted: decoded.append(
                                          decodes_from_file(app, arrived, painted)))
        return (rested - opened) * 1000, arrivals, decode_floor_and_cpu(app), min(decoded), count


def five_albums_while_panning(display: str, tiles: TileServer, user: UserInput) -> tuple[Stall, int]:
    """Drops five pins in a row (each album starts downloading at its drop, 1 s per image), then pans
    the map while they download. Returns the longest main-loop stall from the first drop until every album
    was served or the pan ended, whichever is later, and how many images were still to come when the pan
    ended (the overlap: 0 would mean the pan came too late to measure anything)."""
    home = temporary_home()
    flickr = FlickrServer()
    flickr.control({"all_usable": True, "image_delay": 1.0,
                    "faults": [{"target": "search", "kind": "delay", "seconds": 0.2}]})
    app = App(display, tiles, flickr, home)

    def images_to_come() -> int:
        searches = len(flickr.requests("search"))
        return 30 * max(searches, 5) - len(flickr.requests("image"))

    try:
        app.start()
        time.sleep(1.0)
        started = time.monotonic()
        for x in (250, 400, 550, 700, 850):
            user.press_and_hold(x, 250, 0.7)
        user.drag(700, 600, 300, 450, steps=120, step_delay=0.016)
        panned = time.monotonic()
        still_to_come = images_to_come()
        deadline = panned + 60
        while images_to_come() > 0 and time.monotonic() < deadline:
            time.sleep(0.05)
        return longest_stall(app, started, max(panned, time.monotonic())), still_to_come
    finally:
        app.stop()
        flickr.stop()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", choices=("http1", "http2", "busy"), action="append",
                        help="measure only these parts (repeatable): the HTTP/1.1 album and its reopening, the "
                             "HTTP/2 albums, five albums while panning")
    arguments = parser.parse_args()
    parts = set(arguments.only or ("http1", "http2", "busy"))
    home = temporary_home()
    display = start_display(home)
    tiles = TileServer().start()
    user = UserInput(display.name)
    try:
        rounds = [one_round(display.name, tiles, user) for _ in range(arguments.rounds)] if "http1" in parts else []
        unopened = [unopened_round(display.name, tiles, user)
                    for _ in range(arguments.rounds)] if "http1" in parts else []
        gone = [gone_round(display.name, tiles, user) for _ in range(arguments.rounds)] if "http1" in parts else []
        http2 = [http2_round(display.name, tiles, user) for _ in range(arguments.rounds)] if "http2" in parts else []
        busy = [five_albums_while_panning(display.name, tiles, user)
                for _ in range(arguments.rounds)] if "busy" in parts else []
    finally:
        tiles.stop()
        display.stop()
    pages = [r[-1] for r in rounds]  # the bare page's floor, measured in the HTTP/1.1 rounds
    if rounds:
        record_http1(rounds)
    if unopened:
        opened, floor, decoded, count = (list(column) for column in zip(*unopened))
        record("album.first_open_after_restart_of_an_album_never_opened_all_painted", statistics.median(opened), "ms",
               floor=statistics.median(floor), floor_name=DECODE_FLOOR_NAME, goal=FIRST_FRAME,
               note=f"the album was fetched at its drop and never opened before the app quit; the pointer rests on "
                    f"the pin 50 ms, then clicks; photos decoded from their file on opening: {max(decoded)} of "
                    f"{count[0]}; median of {len(unopened)}")
    if gone:
        rested, arrivals, decoding, decoded, count = (list(column) for column in zip(*gone))
        floor, decode_cpu = [d[0] for d in decoding], [d[1] for d in decoding]
        arrived = [figure for each in arrivals for figure in each]
        # A click that comes with the pointer gives decoding no head start: an opening takes at least its CPU time and
        # the frame that draws the page (which, unlike building it, cannot be done ahead) over the machine's cores.
        least = ""
        if pages:
            cpu, frame = statistics.median(decode_cpu), statistics.median(p[2] for p in pages)
            bound = (cpu + frame) / os.cpu_count()
            least = (f"; the decodes' CPU time ({cpu:.1f} ms) and the bare page's frame ({frame:.1f} ms) alone take "
                     f"{bound:.1f} ms of {os.cpu_count()} cores ({bound / statistics.median(floor):.2f}× the floor)")
        for name, figures, how, bounded in (("", rested, "the pointer rests on the pin 50 ms, then clicks", ""),
                                            (".pointer_arrives_and_clicks", arrived,
                                             "the pointer arrives on the pin and clicks in the same instant", least)):
            record(f"album.open_with_its_kept_pictures_gone_all_painted{name}", statistics.median(figures), "ms",
                   floor=statistics.median(floor), floor_name=DECODE_FLOOR_NAME, goal=THREE_FRAMES,
                   note=f"its grid pictures deleted, as the cache's trim does past its budget; {how}; photos decoded "
                        f"from their file on opening: {min(decoded)} of {count[0]}; median of {len(figures)}{bounded}")
        if pages:
            # No goal of its own: at the click its photos are decoded, then its page is built and drawn.
            page = statistics.median(p[0] for p in pages)
            record("album.open_with_its_kept_pictures_gone_all_painted.pointer_arrives_and_clicks.beside_decode_and_page",
                   statistics.median(arrived), "ms", floor=statistics.median(floor) + page,
                   floor_name=f"the decode floor + the bare GTK 3 page (bench/floors/album_page.c): {page:.1f} ms",
                   note="no goal: the decode floor alone has no window in it")
    if http2:
        record_http2(http2)
    if busy:
        worst = max(b[0] for b in busy)
        record("album.five_albums_downloading_while_panning.longest_main_loop_stall", worst[0], "ms",
               goal=8, note=f"150 photos, 1 s per image; images still to come when the pan ended: "
                            f"{', '.join(str(b[1]) for b in busy)}; stalls under 5 ms are not reported; "
                            f"worst of {len(busy)}; {stall_note(worst)}")


def record_http1(rounds: list[tuple[float, ...]]) -> None:
    fill, floor, stall, count, reopen, requests, decoding, twice, kept, arrivals, pages = (
        list(column) for column in zip(*rounds))
    arrived = [figure for each in arrivals for figure in each]
    rested = [figure for each in reopen for figure in each]
    page, page_turn = [p[0] for p in pages], [p[1] for p in pages]
    record("album.drop_to_last_photo_painted", statistics.median(fill), "ms", floor=statistics.median(floor),
           floor_name="curl: the same search + the same images, 6 in parallel", goal_ratio=1.10,
           note=f"{count[0]} photos, {DELAY * 1000:.0f} ms per request, median of {len(rounds)}; "
                f"photos decoded a second time from their file: {max(twice)}")
    worst = max(stall)
    record("album.longest_main_loop_stall_during_download", worst[0], "ms", goal=8,
           note=f"stalls under 5 ms are not reported; worst of {len(rounds)}; {stall_note(worst)}; the album is "
                f"opened while it downloads: a bare GTK page of {count[0]} tiles (bench/floors/album_page.c) takes "
                f"{statistics.median(page_turn):.1f} ms in its longest turn of the main loop, with nothing downloading")
    record("album.reopen_from_disk_all_painted", statistics.median(rested), "ms", floor=statistics.median(decoding),
           floor_name=DECODE_FLOOR_NAME, goal=FIRST_FRAME,
           note=f"the pointer rests on the pin 50 ms, then clicks; requests on reopening: {max(requests)}; pictures "
                f"read from the thumbnail cache instead of decoding the photo: {min(kept)} of {count[0]}; "
                f"until painted on screen; median of {len(rested)}, {ARRIVALS} in each of {len(rounds)} rounds")
    record("album.reopen_from_disk_all_painted.pointer_arrives_and_clicks", statistics.median(arrived), "ms",
           floor=statistics.median(decoding), floor_name=DECODE_FLOOR_NAME, goal=FIRST_FRAME,
           note=f"the pointer arrives on the pin and clicks in the same instant; median of {len(arrived)}, "
                f"{ARRIVALS} in each of {len(rounds)} rounds")
    # No goal of its own: where the time goes. Reading the pictures and drawing the page come one after the other.
    record("album.reopen_from_disk_all_painted.pointer_arrives_and_clicks.beside_decode_and_page",
           statistics.median(arrived), "ms", floor=statistics.median(decoding) + statistics.median(page),
           floor_name=f"the decode floor + a bare GTK 3 page of {count[0]} flow-box tiles shown from a click, pictures "
                      f"in memory (bench/floors/album_page.c): {statistics.median(page):.1f} ms",
           note="no goal: the decode floor alone has no window in it")


def record_http2(http2: list[tuple[float, ...]]) -> None:
    first, first_floor, second, second_floor, connections = (list(column) for column in zip(*http2))
    for name, fill2, floor2, what in (("first", first, first_floor, "the first album of the session: all 30 at "
                                       "once, once the new connection is up"),
                                      ("second", second, second_floor, "the next album: all 30 at once, on the open connection")):
        record(f"album.http2.{name}_album_drop_to_last_photo_done", statistics.median(fill2), "ms",
               floor=statistics.median(floor2),
               floor_name="curl --http2: the same search + the same images over one new connection", goal_ratio=1.10,
               note=f"{what}; a CDN (nginx, TLS, HTTP/2) in front of the same server; the app's image requests came "
                    f"on {max(connections)} connection(s); median of {len(http2)}")


if __name__ == "__main__":
    main()
