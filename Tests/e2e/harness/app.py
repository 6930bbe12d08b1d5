"""The real Virtual Tourist binary, started as a user would start it, with its own XDG folders."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

from .processes import stop_process
from .waiting import GiveUp, wait_until
from .xdotool import xdotool

REPO = Path(__file__).resolve().parents[3]
APP_NAME = "virtual-tourist"


def app_binary() -> Path:
    """The installed app when CI installed it (VIRTUAL_TOURIST_BIN), else the debug build."""
    return Path(os.environ.get("VIRTUAL_TOURIST_BIN", REPO / ".build" / "debug" / APP_NAME))


class App:
    """One user's installation: XDG folders that outlive restarts within a test."""

    def __init__(self, home: Path, display: str | None, tile_url: str, flickr_url: str | None = None,
                 flickr_key: str | None = "e2e-test-key", extra_environment: dict[str, str] | None = None) -> None:
        self.home = home
        self.display = display
        for folder in ("data", "cache", "config", "runtime"):
            (home / folder).mkdir(parents=True, exist_ok=True)
        os.chmod(home / "runtime", 0o700)
        self.environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(home),
            "LANG": "C.UTF-8",
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "XDG_RUNTIME_DIR": str(home / "runtime"),
            "GSETTINGS_BACKEND": "memory",
            "VIRTUAL_TOURIST_TILE_URL": tile_url,
            "VIRTUAL_TOURIST_LOG": "debug",
        }
        if display:  # None: no X at all (a Wayland run gives WAYLAND_DISPLAY in extra_environment)
            self.environment["DISPLAY"] = display
        if "DBUS_SESSION_BUS_ADDRESS" in os.environ:
            self.environment["DBUS_SESSION_BUS_ADDRESS"] = os.environ["DBUS_SESSION_BUS_ADDRESS"]
        # Never the real Flickr: without a test server, a closed local port (fails at once, stays here).
        self.environment["VIRTUAL_TOURIST_FLICKR_URL"] = flickr_url or "http://127.0.0.1:9/services/rest/"
        # Nor the real Nominatim: place names stay offline unless a test gives its stub.
        self.environment["VIRTUAL_TOURIST_GEOCODER_URL"] = "http://127.0.0.1:9/"
        if flickr_key:
            self.environment["FLICKR_API_KEY"] = flickr_key
        self.environment.update(extra_environment or {})
        self.process: subprocess.Popen | None = None
        self.launches = 0
        self.window_id: str | None = None

    # MARK: Paths

    @property
    def data_folder(self) -> Path:
        return self.home / "data" / APP_NAME

    @property
    def database_path(self) -> Path:
        return self.data_folder / "VirtualTourist.sqlite"

    @property
    def photos_folder(self) -> Path:
        return self.data_folder / "photos"

    @property
    def tile_cache(self) -> Path:
        return self.home / "cache" / APP_NAME / "tiles"

    @property
    def log_path(self) -> Path:
        return self.home / f"app-{self.launches}.log"

    # MARK: Life cycle

    def start(self, wait_for_window: bool = True) -> "App":
        assert self.process is None or self.process.poll() is not None, "already running"
        self.launches += 1
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen([str(app_binary())], env=self.environment, cwd=self.home,
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        if wait_for_window:
            self.window_id = wait_until(self._find_window, 30,
                                        lambda: f"the app's window appeared; log:\n{self.log_tail()}")
        return self

    def _find_window(self) -> str | None:
        if self.process.poll() is not None:
            raise GiveUp(f"the app exited ({self.process.returncode}); log:\n{self.log_tail()}")
        result = xdotool(self.display, "search", "--onlyvisible", "--pid", self.process.pid, "--name",
                         "Virtual Tourist", check=False)
        ids = result.stdout.split()
        return ids[0] if ids else None

    def windows(self) -> list[str]:
        result = xdotool(self.display, "search", "--onlyvisible", "--name", "^Virtual Tourist$", check=False)
        return result.stdout.split()

    def window_geometry(self) -> tuple[int, int, int, int]:
        fields = dict(line.split("=", 1) for line in
                      xdotool(self.display, "getwindowgeometry", "--shell", self.window_id).stdout.split())
        return int(fields["X"]), int(fields["Y"]), int(fields["WIDTH"]), int(fields["HEIGHT"])

    def focus(self) -> None:
        xdotool(self.display, "windowfocus", "--sync", self.window_id)

    def key(self, *keys: str) -> None:
        """Keys into the app's window, focused first (GTK ignores synthetic events sent to a window)."""
        self.focus()
        xdotool(self.display, "key", "--delay", 50, *keys)

    def quit(self, timeout: float = 15) -> int:
        """Ctrl+Q, as a user quits; returns the exit status."""
        self.key("ctrl+q")
        return self.wait_for_exit(timeout)

    def terminate(self, timeout: float = 15) -> int:
        self.process.send_signal(signal.SIGTERM)
        return self.wait_for_exit(timeout)

    def wait_for_exit(self, timeout: float) -> int:
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the app did not exit within {timeout} s; log:\n{self.log_tail()}")

    def stop(self) -> None:
        """Teardown: the process is gone, whatever state it was in."""
        if self.process is not None:
            stop_process(self.process)
            self.process = None

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    # MARK: What a user's data looks like

    def query(self, sql: str, parameters: tuple = ()) -> list[tuple]:
        """Reads the app's database (read-only, so the app's own writes are never disturbed)."""
        if not self.database_path.exists():
            return []
        connection = sqlite3.connect(f"file:{self.database_path}?mode=ro", uri=True, timeout=5)
        try:
            return connection.execute(sql, parameters).fetchall()
        finally:
            connection.close()

    def viewport(self) -> tuple[float, float, int] | None:
        rows = self.query("SELECT latitude, longitude, zoom FROM viewport")
        return rows[0] if rows else None

    def pins(self) -> list[tuple[int, float, float]]:
        return self.query("SELECT id, latitude, longitude FROM pin ORDER BY id")

    def photos(self, pin_id: int) -> list[tuple[int, str, str | None]]:
        return self.query("SELECT id, flickr_id, file_path FROM photo WHERE pin_id = ? ORDER BY position, id",
                          (pin_id,))

    def photo_files(self) -> list[Path]:
        if not self.photos_folder.exists():
            return []
        return sorted(path for path in self.photos_folder.rglob("*") if path.is_file())

    def wait_until(self, predicate, timeout: float, message):
        """`message`: text, or a function building it on failure (for fresh diagnostics)."""
        return wait_until(predicate, timeout,
                          lambda: f"{message() if callable(message) else message}; app log:\n{self.log_tail()}")
