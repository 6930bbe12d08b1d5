"""GNOME's compositor, headless, as the apps' Wayland display, and real input through it without X:
mutter's RemoteDesktop D-Bus API (virtual keyboard keysyms, pointer buttons and relative motion).

mutter runs on the test's session bus (the one AT-SPI rides), with a private XDG_RUNTIME_DIR holding its
socket; the apps reach it by the socket's absolute path in WAYLAND_DISPLAY, so their own runtime folders
stay theirs. No ScreenCast stream is opened (it needs PipeWire): the pointer is placed by parking it in
the top-left corner with one big relative move and moving from there, so no screenshots are taken either.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .processes import stop_process
from .waiting import GiveUp, wait_until

MONITOR_WIDTH, MONITOR_HEIGHT = 1280, 800
BTN_LEFT = 0x110  # linux/input-event-codes.h
REMOTE_DESKTOP = "org.gnome.Mutter.RemoteDesktop"
REMOTE_DESKTOP_PATH = "/org/gnome/Mutter/RemoteDesktop"
SESSION_INTERFACE = "org.gnome.Mutter.RemoteDesktop.Session"

# X keysyms for the keys the tests press (xkbcommon/xkbcommon-keysyms.h); printable ASCII is its own keysym.
KEYSYMS = {"ctrl": 0xFFE3, "shift": 0xFFE1, "alt": 0xFFE9, "Return": 0xFF0D, "Escape": 0xFF1B,
           "BackSpace": 0xFF08, "Tab": 0xFF09, "Delete": 0xFFFF, "Left": 0xFF51, "Up": 0xFF52, "Right": 0xFF53,
           "Down": 0xFF54, "space": 0x20}


def mutter_available() -> bool:
    return shutil.which("mutter") is not None


class HeadlessMutter:
    """`mutter --headless --wayland --no-x11` on a 1280×800 virtual monitor, on the current session bus."""

    def __init__(self, log_path: Path, name: str = "wayland-e2e") -> None:
        self.log_path = log_path
        self.name = name
        self.runtime_dir = Path(tempfile.mkdtemp(prefix="mutter-runtime-"))
        os.chmod(self.runtime_dir, 0o700)
        self.process: subprocess.Popen | None = None

    @property
    def socket(self) -> Path:
        """What WAYLAND_DISPLAY is set to for the apps: an absolute path, which libwayland takes as is."""
        return self.runtime_dir / self.name

    def start(self, timeout: float = 20) -> "HeadlessMutter":
        if "DBUS_SESSION_BUS_ADDRESS" not in os.environ:
            raise RuntimeError("mutter's RemoteDesktop needs the session bus: run inside `dbus-run-session -- …`")
        environment = {key: value for key, value in os.environ.items()
                       if key not in ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET")}
        environment["XDG_RUNTIME_DIR"] = str(self.runtime_dir)
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen(
                ["mutter", "--headless", "--wayland", "--no-x11", f"--virtual-monitor={MONITOR_WIDTH}x{MONITOR_HEIGHT}",
                 f"--wayland-display={self.name}"],
                env=environment, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)

        def ready():
            if self.process.poll() is not None:
                raise GiveUp(f"mutter exited ({self.process.returncode}); its log:\n{self.log_text()}")
            return self.socket.exists() and "Added virtual monitor" in self.log_text()
        wait_until(ready, timeout, lambda: f"mutter made its Wayland socket {self.socket}; its log:\n{self.log_text()}")
        return self

    def environment_for_apps(self) -> dict[str, str]:
        """GDK on Wayland only (no fallback to X) at this compositor."""
        return {"GDK_BACKEND": "wayland", "WAYLAND_DISPLAY": str(self.socket)}

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
            self.process = None
        shutil.rmtree(self.runtime_dir, ignore_errors=True)


class RemoteDesktop:
    """A RemoteDesktop session: a virtual keyboard and pointer on mutter's seat. The session lives as long as
    this process's D-Bus connection, so keep the object until the test ends, then `stop()`."""

    def __init__(self) -> None:
        from gi.repository import Gio, GLib
        self._GLib = GLib
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        # mutter takes its bus name a moment after its socket appears.
        path = wait_until(self._create_session, 10, "mutter's RemoteDesktop answered CreateSession")
        self.session = Gio.DBusProxy.new_sync(self.bus, Gio.DBusProxyFlags.DO_NOT_LOAD_PROPERTIES, None,
                                              REMOTE_DESKTOP, path, SESSION_INTERFACE, None)
        self.session.call_sync("Start", None, Gio.DBusCallFlags.NONE, 5000, None)
        # mutter adds the virtual keyboard to the seat at its first key: until then no window becomes active.
        self.key("shift")
        self.position: tuple[float, float] | None = None  # where the pointer is, once parked

    def _create_session(self) -> str:
        answer = self.bus.call_sync(REMOTE_DESKTOP, REMOTE_DESKTOP_PATH, REMOTE_DESKTOP, "CreateSession", None,
                                    self._GLib.VariantType.new("(o)"), 0, 5000, None)
        return answer.unpack()[0]

    def _call(self, method: str, signature: str, *arguments) -> None:
        self.session.call_sync(method, self._GLib.Variant(signature, arguments), 0, 5000, None)

    def stop(self) -> None:
        try:
            self._call("Stop", "()")
        except Exception:
            pass  # mutter already gone: its sessions went with it

    # MARK: Keyboard

    def keysym(self, keysym: int, pressed: bool) -> None:
        self._call("NotifyKeyboardKeysym", "(ub)", keysym, pressed)

    def key(self, *combinations: str, delay: float = 0.05) -> None:
        """xdotool-style combinations: "ctrl+f", "Return", "a"."""
        for combination in combinations:
            syms = [KEYSYMS.get(part) or ord(part) for part in combination.split("+")]
            for sym in syms:
                self.keysym(sym, True)
            for sym in reversed(syms):
                self.keysym(sym, False)
            time.sleep(delay)

    def type(self, text: str, delay: float = 0.06) -> None:
        """Printable ASCII, a key a character (mutter maps each keysym onto a keycode of its keymap)."""
        for character in text:
            assert 0x20 <= ord(character) < 0x7F, f"type() knows printable ASCII only, not {character!r}"
            self.keysym(ord(character), True)
            self.keysym(ord(character), False)
            time.sleep(delay)

    # MARK: Pointer

    def park_pointer(self) -> None:
        """Into the top-left corner (mutter clamps motion to the monitor): from there relative moves are absolute."""
        self._call("NotifyPointerMotionRelative", "(dd)", -4.0 * MONITOR_WIDTH, -4.0 * MONITOR_HEIGHT)
        time.sleep(0.05)
        self.position = (0.0, 0.0)

    def move_to(self, x: float, y: float) -> None:
        """To a monitor point, parking first if where the pointer is is not known."""
        if self.position is None:
            self.park_pointer()
        dx, dy = x - self.position[0], y - self.position[1]
        if dx or dy:
            self._call("NotifyPointerMotionRelative", "(dd)", float(dx), float(dy))
        self.position = (float(x), float(y))
        time.sleep(0.05)  # let the app see the motion before whatever comes next

    def button(self, pressed: bool, button: int = BTN_LEFT) -> None:
        self._call("NotifyPointerButton", "(ib)", button, pressed)

    def click(self, x: float, y: float) -> None:
        self.move_to(x, y)
        self.button(True)
        time.sleep(0.05)
        self.button(False)
        time.sleep(0.05)

    def press_and_hold(self, x: float, y: float, seconds: float) -> None:
        self.move_to(x, y)
        self.button(True)
        try:
            time.sleep(seconds)
        finally:
            self.button(False)


# MARK: - What the app is connected to


def unix_socket_peers(pid: int) -> dict[str, str]:
    """For each Unix socket the process holds: the path of the listening socket at its other end ("" when unnamed),
    from `ss` (sock_diag): an accepted socket shows its listener's path, so a client's peer names the server."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            found = re.fullmatch(r"socket:\[(\d+)\]", os.readlink(fd))
        except OSError:
            continue
        if found:
            inodes.add(found.group(1))
    output = subprocess.run(["ss", "-xaH"], capture_output=True, text=True, timeout=10, check=True).stdout
    peers: dict[str, str] = {}
    for line in output.splitlines():
        fields = line.split()
        # Netid State Recv-Q Send-Q Local-Address Local-Port Peer-Address Peer-Port
        if len(fields) < 8:
            continue
        local_path, local_inode, peer_inode = fields[4], fields[5], fields[7]
        if peer_inode in inodes:
            peers[peer_inode] = "" if local_path == "*" else local_path
    return peers


def x11_and_wayland_connections(pid: int, wayland_socket: Path) -> tuple[list[str], bool]:
    """The X server sockets the process is connected to, and whether it is connected to `wayland_socket`."""
    paths = list(unix_socket_peers(pid).values())
    x11 = [path for path in paths if ".X11-unix" in path]
    return x11, str(wayland_socket) in paths
