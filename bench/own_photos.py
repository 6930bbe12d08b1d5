"""The user's own photos (issue 35 point 1): a library of 20,000 geotagged JPEGs indexed in the background, from the
app's own log ("Own photos indexed in X s: …", "Own photos scanned … read=N unchanged=N", "main loop stall N ms"):

- floor: exiv2 reading the same files' GPS position and DateTimeOriginal in a bare loop (command lines of 500 files,
  one process at a time), page cache warm;
- first open, with an empty index: time from the app's start to "Own photos indexed" (its stamp), × the floor; the
  longest main-loop stall from the first frame to then, and from 0.5 s after it (start-up's own work done) to then
  (bar ≤ 8 ms), each beside the same app with own photos off over the same span (what start-up and the machine cost);
- re-open on the same index: files read again (bar: none), files found unchanged, the re-scan's time and longest stall.

The app is quit with Ctrl+Q as a user quits, and has exited before it starts again. The photos (tiny JPEGs, each with
its own position and time, over a few cities, in nested folders, plus untagged and broken files) are made once with
Pillow and kept in /tmp between runs.

    bench/run own_photos.py [--photos 20000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from benchlib import App, TileServer, longest_stall, record, stall_note, start_display, temporary_home

from harness.xdotool import xdotool

PER_FOLDER = 100
UNTAGGED = 300
BROKEN = 50
# A city and how far its photos scatter (degrees): southern and western ones too, so each reference is read.
CITIES = [("sydney", -33.87, 151.21), ("lisbon", 38.72, -9.14), ("kyoto", 35.01, 135.77),
          ("new_york", 40.71, -74.01), ("cape_town", -33.92, 18.42), ("reykjavik", 64.15, -21.94)]
SCATTER = 0.05
LAYOUT = "own-photos-bench v1"  # bump when the files made change, so an old cache is made again
INDEXED = re.compile(r"Own photos indexed in ([0-9.]+) s: ([0-9]+) photos, read ([0-9]+), unchanged ([0-9]+), "
                     r"removed ([0-9]+), ([0-9]+) without a position, ([0-9]+) unreadable")
SCANNED = re.compile(r"photos=([0-9]+) .*read=([0-9]+) .*unchanged=([0-9]+).*Own photos scanned")
STALL_OVER = 8.0


def photo_library(count: int) -> Path:
    """The photos' folder, made on the first run for this count and kept: writing 20,000 files takes a while."""
    root = Path(f"/tmp/vt-bench-own-photos-{count}")
    marker = root / ".complete"
    if marker.exists() and marker.read_text() == LAYOUT:
        return root / "Pictures"
    shutil.rmtree(root, ignore_errors=True)
    print(f"own_photos: making {count} geotagged photos, {UNTAGGED} untagged, {BROKEN} broken in {root} …", flush=True)
    started = time.monotonic()
    from PIL import Image, TiffImagePlugin
    rational = TiffImagePlugin.IFDRational
    generator = random.Random(35)
    # A few noisy pictures (a few KB each, as JPEG) shared round-robin: the pixels are not what is measured.
    pictures = []
    for _ in range(8):
        picture = Image.effect_noise((64, 48), 60).convert("RGB")
        pictures.append(picture)

    def degrees(value: float) -> tuple:
        value = abs(value)
        whole = int(value)
        minutes = int((value - whole) * 60)
        seconds = round(((value - whole) * 60 - minutes) * 60 * 100)
        return rational(whole, 1), rational(minutes, 1), rational(seconds, 100)

    def exif(latitude: float | None, longitude: float | None, taken: str) -> bytes:
        tags = Image.Exif()
        tags[0x010F] = "Benchmark"  # Make
        tags[0x8769] = {0x9003: taken}  # DateTimeOriginal in the Exif IFD
        if latitude is not None:
            tags[0x8825] = {0: b"\x02\x03\x00\x00", 1: "N" if latitude >= 0 else "S", 2: degrees(latitude),
                            3: "E" if longitude >= 0 else "W", 4: degrees(longitude)}
        return tags.tobytes()

    def taken_at() -> str:
        return (f"{generator.randint(2005, 2025)}:{generator.randint(1, 12):02d}:{generator.randint(1, 28):02d} "
                f"{generator.randint(0, 23):02d}:{generator.randint(0, 59):02d}:{generator.randint(0, 59):02d}")

    pictures_folder = root / "Pictures"
    for number in range(count):
        city, latitude, longitude = CITIES[(number // PER_FOLDER) % len(CITIES)]
        folder = pictures_folder / city / f"{2005 + number // (PER_FOLDER * len(CITIES)) % 20}" / f"roll-{number // PER_FOLDER:04d}"
        if number % PER_FOLDER == 0:
            folder.mkdir(parents=True, exist_ok=True)
        pictures[number % len(pictures)].save(
            folder / f"IMG_{number:05d}.jpg", "JPEG", quality=90,
            exif=exif(latitude + generator.uniform(-SCATTER, SCATTER), longitude + generator.uniform(-SCATTER, SCATTER),
                      taken_at()))
    untagged = pictures_folder / "scans"
    untagged.mkdir(parents=True)
    for number in range(UNTAGGED):
        pictures[number % len(pictures)].save(untagged / f"scan_{number:04d}.jpg", "JPEG", quality=90,
                                              exif=exif(None, None, taken_at()))
    broken = pictures_folder / "broken"
    broken.mkdir(parents=True)
    whole = io.BytesIO()
    pictures[0].save(whole, "JPEG", quality=90, exif=exif(10.0, 10.0, taken_at()))
    for number in range(BROKEN):
        kind = number % 3
        content = (b"" if kind == 0 else whole.getvalue()[:20] if kind == 1
                   else generator.randbytes(2000))  # empty, cut before its EXIF, not a JPEG at all
        (broken / f"broken_{number:03d}.jpg").write_bytes(content)
    check = subprocess.run(["exiv2", "-g", "Exif.GPSInfo.GPSLatitude", "-Pv",
                            str(next(pictures_folder.glob("sydney/*/*/IMG_00000.jpg")))],
                           capture_output=True, text=True)
    if "33/1" not in check.stdout:
        raise SystemExit(f"own_photos: exiv2 does not read back the GPS latitude written: {check.stdout!r} "
                         f"{check.stderr!r}")
    marker.write_text(LAYOUT)
    print(f"own_photos: made in {time.monotonic() - started:.1f} s", flush=True)
    return pictures_folder


def all_files(folder: Path) -> list[str]:
    return sorted(str(path) for path in folder.rglob("*") if path.is_file() and not path.name.startswith("."))


def exiv2_floor(files: list[str]) -> float:
    """Seconds exiv2 takes to read every file's position and time, 500 files a command line, one at a time, the
    page cache warm (every file read once before)."""
    for path in files:
        Path(path).read_bytes()
    listing = "\0".join(files).encode()
    command = ["xargs", "-0", "-n", "500", "-P", "1", "exiv2", "-q", "-g", "Exif.GPSInfo.GPSLatitude",
               "-g", "Exif.GPSInfo.GPSLongitude", "-g", "Exif.Photo.DateTimeOriginal", "-Pv"]
    timings = []
    for _ in range(2):  # the quicker of two: the floor is the least it takes
        started = time.monotonic()
        subprocess.run(command, input=listing, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        timings.append(time.monotonic() - started)
    return min(timings)


def turn_on_own_photos(app: App, folder: Path) -> None:
    config = Path(app.environment["XDG_CONFIG_HOME"]) / "virtual-tourist"
    config.mkdir(parents=True, exist_ok=True)
    (config / "own-photos.json").write_text(json.dumps({"enabled": True, "folders": [str(folder)]}))


def quit_as_user(app: App, display: str) -> None:
    """Ctrl+Q into the app's window, and back once the app (and its dbus-run-session) has exited."""
    pids = app._app_pids()
    window = None
    deadline = time.monotonic() + 10
    while window is None and time.monotonic() < deadline:
        for pid in pids:
            found = xdotool(display, "search", "--onlyvisible", "--pid", pid, "--name", "Virtual Tourist",
                            check=False).stdout.split()
            if found:
                window = found[0]
                break
        else:
            time.sleep(0.1)
    if window is None:
        raise SystemExit("own_photos: the app's window was not found to quit it")
    xdotool(display, "windowfocus", "--sync", window)
    xdotool(display, "key", "ctrl+q")
    app.process.wait(timeout=30)
    app.process = None
    app.log.close()


def report_stalls_over(app: App, start: float, end: float, label: str) -> None:
    """Each stall over the bar in [start, end], with the log lines before it (what the main thread did), each line
    printed once."""
    lines = app.log.snapshot()
    printed = -1
    for index, (stamp, line) in enumerate(lines):
        match = re.search(r"main loop stall ([0-9.]+) ms", line)
        if start <= stamp <= end and match and float(match.group(1)) > STALL_OVER:
            print(f"  {label}: stall over {STALL_OVER:g} ms at +{stamp - start:.3f} s; the log before it:")
            for before in range(max(printed + 1, index - 6), index + 1):
                print(f"    {lines[before][1][:220]}")
            printed = index


@dataclass
class Opening:
    """One start of the app, timed by its log's stamps (monotonic seconds)."""
    started: float
    first_frame: float  # the map drawn once
    indexed: float
    indexed_line: re.Match
    scanned_line: re.Match

    @property
    def seconds(self) -> float:
        return self.indexed - self.started


def open_and_index(app: App) -> Opening:
    started = time.monotonic()
    app.start()
    first_frame, _ = app.log.wait_for(r"frame [0-9.]+ ms", timeout=5, after=started)
    indexed, indexed_line = app.log.wait_for(INDEXED.pattern, timeout=600, after=started)
    _, scanned_line = app.log.wait_for(SCANNED.pattern, timeout=5, after=started)
    report_stalls_over(app, first_frame, indexed, "while indexing")
    return Opening(started, first_frame, indexed, indexed_line, scanned_line)


SETTLED = 0.5  # seconds after the first frame by which start-up's own work (icons, decoders, a11y) is done


@dataclass
class Round:
    first: Opening
    again: Opening
    stalls: dict[str, float]  # the longest stall of each span, ms


def one_round(display: str, tiles: TileServer, folder: Path) -> Round:
    """A first open on an empty index, a re-open on it, and the same app with own photos off, each quit as a user
    quits before the next starts."""
    home = temporary_home()
    app = App(display, tiles, None, home / "own-photos-on")
    plain = App(display, tiles, None, home / "own-photos-off")
    turn_on_own_photos(app, folder)
    stalls: dict[str, float] = {}
    try:
        first = open_and_index(app)
        stalls["first.startup"] = longest_stall(app, first.started, first.first_frame)[0]
        stalls["first.indexing"] = longest_stall(app, first.first_frame, first.indexed)[0]
        stalls["first.indexing_settled"] = longest_stall(app, first.first_frame + SETTLED, first.indexed)[0]
        quit_as_user(app, display)

        again = open_and_index(app)
        stalls["again.startup"] = longest_stall(app, again.started, again.first_frame)[0]
        stalls["again.indexing"] = longest_stall(app, again.first_frame, again.indexed)[0]
        quit_as_user(app, display)

        started = time.monotonic()
        plain.start()
        first_frame, _ = plain.log.wait_for(r"frame [0-9.]+ ms", timeout=5, after=started)
        end = first_frame + max(0.0, first.indexed - first.first_frame)
        time.sleep(max(0.0, end - time.monotonic()) + 0.1)
        stalls["off.startup"] = longest_stall(plain, started, first_frame)[0]
        stalls["off.indexing"] = longest_stall(plain, first_frame, end)[0]
        stalls["off.indexing_settled"] = longest_stall(plain, first_frame + SETTLED, end)[0]
        quit_as_user(plain, display)
    finally:
        app.stop()
        plain.stop()
        shutil.rmtree(home, ignore_errors=True)
    return Round(first, again, stalls)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--photos", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=3)
    arguments = parser.parse_args()

    folder = photo_library(arguments.photos)
    files = all_files(folder)
    floor = exiv2_floor(files)
    print(f"own_photos: exiv2 read {len(files)} files in {floor:.2f} s", flush=True)

    home = temporary_home()
    display = start_display(home)
    tiles = TileServer().start()
    rounds = []
    try:
        for number in range(arguments.rounds):
            print(f"own_photos: round {number + 1} (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} "
                  f"cores)", flush=True)
            rounds.append(one_round(display.name, tiles, folder))
    finally:
        tiles.stop()
        display.stop()
        shutil.rmtree(home, ignore_errors=True)

    def worst(span: str) -> tuple[float, str]:
        values = [one.stalls[span] for one in rounds]
        return max(values), " / ".join(f"{value:.1f}" for value in values)

    name = f"own_photos.{arguments.photos}"
    last = rounds[-1]
    print(f"first open: {last.first.indexed_line.group(0)}")
    print(f"re-open:    {last.again.indexed_line.group(0)}")
    photos, read, unchanged = (int(last.first.scanned_line.group(i)) for i in (1, 2, 3))
    # The scan starts a second after the window (OwnPhotoLibrary.start): its own time is the figure beside exiv2's.
    record(f"{name}.first_open_scan", statistics.median(float(one.first.indexed_line.group(1)) for one in rounds) * 1000,
           "ms", floor=floor * 1000, floor_name=f"exiv2 reading the same {len(files)} files' GPS and time, 500 a process",
           note=f"median of {len(rounds)}, the app's own figure from the scan's start; "
                f"photos={photos} read={read} unchanged={unchanged}")
    record(f"{name}.first_open_start_to_indexed", statistics.median(one.first.seconds for one in rounds) * 1000, "ms",
           note=f"median of {len(rounds)}; from the process's start, with the second the scan waits for the window")
    value, each = worst("first.indexing")
    off, off_each = worst("off.indexing")
    record(f"{name}.first_open_longest_main_loop_stall_while_indexing", value, "ms", goal=STALL_OVER,
           note=f"first frame to indexed, worst of {each} ms; own photos off, same span: {off_each} ms")
    value, each = worst("first.indexing_settled")
    off, off_each = worst("off.indexing_settled")
    record(f"{name}.first_open_longest_main_loop_stall_while_indexing_after_startup", value, "ms", goal=STALL_OVER,
           note=f"from {SETTLED} s after the first frame to indexed, worst of {each} ms; own photos off: {off_each} ms")
    value, each = worst("first.startup")
    off, off_each = worst("off.startup")
    record(f"{name}.first_open_longest_main_loop_stall_before_first_frame", value, "ms",
           note=f"start-up's own, worst of {each} ms; own photos off: {off_each} ms")
    reads = [int(one.again.scanned_line.group(2)) for one in rounds]
    unchanged = [int(one.again.scanned_line.group(3)) for one in rounds]
    record(f"{name}.reopen_files_read_again", max(reads), "files", goal=0,
           note=f"unchanged={' / '.join(map(str, unchanged))} of {len(files)} files")
    own = " / ".join(f"{float(one.again.indexed_line.group(1)):.2f}" for one in rounds)
    record(f"{name}.reopen_start_to_indexed", statistics.median(one.again.seconds for one in rounds) * 1000, "ms",
           note=f"median of {len(rounds)}; the app's own figure from the scan's start {own} s")
    value, each = worst("again.indexing")
    record(f"{name}.reopen_longest_main_loop_stall_while_indexing", value, "ms", goal=STALL_OVER,
           note=f"first frame to indexed, worst of {each} ms")


if __name__ == "__main__":
    main()
