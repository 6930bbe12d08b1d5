"""Shared pieces of the benchmarks: the real app under Xvfb with trace logging, its log lines
timed by the app's own stamps, and the local tile and Flickr servers from the test harness."""

from __future__ import annotations

import calendar
import json
import os
import random
import signal
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "Tests" / "e2e"))

from harness.app import App as HarnessApp  # noqa: E402
from harness.flickr import FlickrServer  # noqa: E402,F401
from harness.processes import stop_process  # noqa: E402
from harness.tile_server import TileServer  # noqa: E402
from harness.user_input import UserInput  # noqa: E402
from harness.virtual_display import VirtualDisplay  # noqa: E402


def app_binary() -> str:
    return os.environ.get("VIRTUAL_TOURIST_BIN", str(REPO / ".build" / "release" / "virtual-tourist"))


class LogLines:
    """(monotonic time, line) for every line of a log, as `snapshot` gives them, oldest first."""

    def snapshot(self) -> list[tuple[float, str]]:
        raise NotImplementedError

    def wait_for(self, pattern: str, timeout: float, after: float = 0.0) -> tuple[float, re.Match]:
        """The first line at or after `after` that matches, and its time. Each look goes over the lines that came
        since the last one only."""
        expression = re.compile(pattern)
        deadline = time.monotonic() + timeout
        seen = 0
        while time.monotonic() < deadline:
            lines = self.snapshot()
            for stamp, line in lines[seen:]:
                if stamp >= after:
                    match = expression.search(line)
                    if match:
                        return stamp, match
            seen = len(lines)
            time.sleep(0.005)
        raise TimeoutError(f"no log line matching {pattern!r} within {timeout} s")


class TimedLog(LogLines):
    """Reads a stream on a thread, keeping (monotonic time, line) for every line: for a floor's one or two lines."""

    def __init__(self, stream) -> None:
        self.lines: list[tuple[float, str]] = []
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        for raw in iter(stream.readline, b""):
            with self._lock:
                self.lines.append((time.monotonic(), raw.decode(errors="replace").rstrip()))

    def snapshot(self) -> list[tuple[float, str]]:
        with self._lock:
            return list(self.lines)


STAMP = re.compile(r"^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})\.([0-9]{6})([+-])([0-9]{2})([0-9]{2}) ")
SECONDS_STAMP = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{4} ")  # swift-log's own


class StampedLog(LogLines):
    """The app's log as it writes it into a file, each line at the moment the app wrote it: its own stamp (to the
    microsecond, StampedLogHandler), on this machine's monotonic clock. Read when looked at, not as it comes: a
    reader woken for every line takes a core from the app at every line it writes, and on two cores, while an album
    opened, that was about 3 ms of CPU inside a 13 ms figure. A line with no stamp of its own (a library writing to
    standard error) takes the one before it."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.lines: list[tuple[float, str]] = []
        self._file = None
        self._partial = b""
        self._closed = False
        self._offset = self._monotonic_minus_realtime()

    @staticmethod
    def _monotonic_minus_realtime() -> float:
        """The two clocks' difference, from the closest of a few readings of both."""
        readings = []
        for _ in range(20):
            before, real, after = time.monotonic(), time.time(), time.monotonic()
            readings.append((after - before, (before + after) / 2 - real))
        return min(readings)[1]

    def _stamp(self, match: re.Match) -> float:
        year, month, day, hour, minute, second, micro, sign, zone_hours, zone_minutes = match.groups()
        zone = (int(zone_hours) * 3600 + int(zone_minutes) * 60) * (1 if sign == "+" else -1)
        wall = calendar.timegm((int(year), int(month), int(day), int(hour), int(minute), int(second))) - zone
        return wall + int(micro) / 1e6 + self._offset

    def snapshot(self) -> list[tuple[float, str]]:
        if self._closed:
            return list(self.lines)
        if self._file is None:
            try:
                self._file = open(self.path, "rb")
            except FileNotFoundError:
                return []
        *complete, self._partial = (self._partial + self._file.read()).split(b"\n")
        for raw in complete:
            line = raw.decode(errors="replace").rstrip()
            match = STAMP.match(line)
            if not match and SECONDS_STAMP.match(line):
                raise RuntimeError(f"{self.path}: the app stamps its log to the second only, so its figures could not "
                                   f"be timed: an older build? ({line[:60]})")
            stamp = self._stamp(match) if match else (self.lines[-1][0] if self.lines else time.monotonic())
            self.lines.append((stamp, line))
        return list(self.lines)

    def close(self) -> None:
        """Reads what is left (the app has quit), then keeps its lines only."""
        self.snapshot()
        self._closed = True
        if self._file is not None:
            self._file.close()


class App:
    """The real binary with the test harness's environment (temporary XDG folders, local servers)
    and trace logging, its stderr written to a file in `home` for each start (`StampedLog`)."""

    def __init__(self, display: str, tiles: TileServer, flickr: FlickrServer | None, home: Path) -> None:
        user = HarnessApp(home, display, tiles.url_template, flickr.rest_url if flickr else None,
                          flickr_key="benchmark-key")
        self.environment = {**user.environment, "VIRTUAL_TOURIST_LOG": "trace"}
        self.home = home
        self.starts = 0
        self.process: subprocess.Popen | None = None
        self.log: StampedLog | None = None

    @property
    def database(self) -> Path:
        return Path(self.environment["XDG_DATA_HOME"]) / "virtual-tourist" / "VirtualTourist.sqlite"

    def start(self) -> None:
        self.starts += 1
        path = self.home / f"app-{self.starts}.log"
        with open(path, "wb") as log:
            self.process = subprocess.Popen(["dbus-run-session", "--", app_binary()], env=self.environment,
                                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
        self.log = StampedLog(path)
        self.log.wait_for(r"frame [0-9.]+ ms", timeout=30)  # the map has drawn once

    def stop(self) -> None:
        """SIGTERM to the app itself (it saves and quits), and back once it has quit: dbus-run-session, signalled
        instead, exits at once and leaves the app quitting beside the next figure (it kept pictures 0.5 s later)."""
        if self.process is not None:
            for pid in self._app_pids():
                try:
                    os.kill(pid, signal.SIGTERM)
                except ProcessLookupError:
                    pass
            try:
                self.process.wait(timeout=5)  # dbus-run-session exits when the app has
            except subprocess.TimeoutExpired:
                pass
            stop_process(self.process)
            self.process = None
            self.log.close()

    def _app_pids(self) -> list[int]:
        """The app's process under dbus-run-session (not its dbus-daemon)."""
        try:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        except OSError:
            return []
        binary = os.path.realpath(app_binary())
        pids = []
        for child in map(int, children):
            try:
                if os.path.realpath(f"/proc/{child}/exe") == binary:
                    pids.append(child)
            except OSError:
                pass
        return pids


class TimedClicks:
    """Clicks through XTEST on a connection opened once, so a figure that starts at a click starts when the
    X server gets it: `xdotool click` would add its own start-up (a process, a connection: 3-5 ms) to the
    figure. Each call returns the monotonic time just before the events were sent."""

    def __init__(self, display: str) -> None:
        from Xlib import X, display as xdisplay
        from Xlib.ext import xtest
        self._x, self._xtest = X, xtest
        self._display = xdisplay.Display(display)

    def click(self, button: int = 1) -> float:
        """A click where the pointer is."""
        started = time.monotonic()
        self._xtest.fake_input(self._display, self._x.ButtonPress, button)
        self._xtest.fake_input(self._display, self._x.ButtonRelease, button)
        self._display.sync()
        return started

    def arrive_and_click(self, x: int, y: int, button: int = 1) -> float:
        """The pointer moves to (x, y) and clicks at once, with no rest on the spot."""
        started = time.monotonic()
        self._xtest.fake_input(self._display, self._x.MotionNotify, x=x, y=y)
        self._xtest.fake_input(self._display, self._x.ButtonPress, button)
        self._xtest.fake_input(self._display, self._x.ButtonRelease, button)
        self._display.sync()
        return started

    def close(self) -> None:
        self._display.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def summary(values: list[float]) -> str:
    if not values:
        return "no samples"
    return (f"n={len(values)} median={statistics.median(values):.2f} p95={percentile(values, 0.95):.2f} "
            f"max={max(values):.2f}")


def session_bus() -> dict[str, str]:
    """The session bus every program of this benchmark shares (bench/run starts one), so none pays
    for starting its own; each program has quit before the next starts."""
    address = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
    return {"DBUS_SESSION_BUS_ADDRESS": address} if address else {}


def temporary_home() -> Path:
    return Path(tempfile.mkdtemp(prefix="vt-bench-"))


WINDOW_MANAGER = os.environ.get("BENCH_WINDOW_MANAGER", "openbox")
if WINDOW_MANAGER in ("", "none"):
    WINDOW_MANAGER = None


def start_display(home: Path) -> VirtualDisplay:
    """Xvfb with a window manager on it (openbox; BENCH_WINDOW_MANAGER names another, or `none`), as every
    desktop has one. Without one, GTK 3 asks the X server at the end of every frame whether a window manager
    supports frame timing (a check its own source warns is slow on every call when no EWMH window manager
    runs), so the main loop waits each frame for Xvfb to have drawn it in software on the same cores: a wait
    no user's desktop has. Not a compositing one: in Xvfb its compositing would be software too."""
    display = VirtualDisplay(home / "xvfb.log", window_manager=WINDOW_MANAGER)
    display.start()
    return display


Stall = tuple[float, float, float, float]  # milliseconds; the main thread ran, waited for a core; the span
STALL = re.compile(r"main loop stall ([0-9.]+) ms \(main thread ran ([0-9.]+)(?:, waited for a core ([0-9.]+))? "
                   r"of the ([0-9.]+) ms")


def longest_stall(app: App, start: float, end: float) -> Stall:
    """The longest main-loop stall in [start, end] (the app's watchdog): its milliseconds; and, over the span
    around it (the stall and the tick interval before it), the main thread's CPU time, its time waiting for a
    core, and the span's length. What is left of the span, the main thread slept: idle before the stall, or
    blocked (on the X server's reply). Zeros when nothing went over the watchdog's threshold."""
    stalls = [(float(m.group(1)), float(m.group(2)), float(m.group(3) or 0), float(m.group(4)))
              for stamp, line in app.log.snapshot() if start <= stamp <= end and (m := STALL.search(line))]
    return max(stalls, default=(0.0, 0.0, 0.0, 0.0))


def stall_note(stall: Stall) -> str:
    milliseconds, ran, waited, span = stall
    if milliseconds == 0:
        return "no stall over 5 ms"
    return (f"in the worst ({milliseconds:.1f} ms), of the {span:.1f} ms since the watchdog's last tick the main "
            f"thread ran {ran:.1f} ms, waited {waited:.1f} ms for a core and slept the rest (idle before the stall, "
            f"or blocked on the X server's reply)")


RESULTS = REPO / "bench" / "results" / "latest.json"


def seed_random_pins(app: "App", count: int, seed: int = 7) -> None:
    """Starts the app once (creating its database), stops it, and adds `count` pins scattered over the
    inhabited latitudes, the same ones for the same seed."""
    app.start()
    app.stop()
    generator = random.Random(seed)
    with sqlite3.connect(app.database) as database:
        database.executemany(
            "INSERT INTO pin(latitude, longitude, created_at) VALUES (?, ?, ?)",
            [(generator.uniform(-60, 70), generator.uniform(-180, 180), 800_000_000.0) for _ in range(count)])


def record(name: str, value: float, unit: str, floor: float | None = None, floor_name: str = "",
           goal_ratio: float | None = None, goal: float | None = None, note: str = "") -> None:
    """Prints one figure beside its floor (measured in the same run) as a ratio, and merges it into
    bench/results/latest.json so runs can be compared."""
    line = f"{name}: {value:.1f} {unit}"
    entry: dict = {"value": round(value, 3), "unit": unit, "window_manager": WINDOW_MANAGER or "none"}
    if floor is not None:
        ratio = value / floor if floor else float("inf")
        line += f"  | floor {floor:.1f} {unit} ({floor_name})  | ratio {ratio:.2f}×"
        entry.update(floor=round(floor, 3), floor_name=floor_name, ratio=round(ratio, 3))
        if goal_ratio is not None:
            line += f" (goal ≤ {goal_ratio}×: {'met' if ratio <= goal_ratio else 'NOT met'})"
            entry["goal_ratio"] = goal_ratio
    if goal is not None:
        line += f"  (goal ≤ {goal} {unit}: {'met' if value <= goal else 'NOT met'})"
        entry["goal"] = goal
    if note:
        line += f"  [{note}]"
        entry["note"] = note
    print(line, flush=True)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results[name] = entry
    RESULTS.write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")
