"""An Xvfb X server on a free display number, without a window manager unless one is asked for."""

from __future__ import annotations

import os
import select
import subprocess
import time
from pathlib import Path

from .processes import stop_process

SCREEN_WIDTH, SCREEN_HEIGHT = 1280, 800


class VirtualDisplay:
    def __init__(self, log_path: Path, width: int = SCREEN_WIDTH, height: int = SCREEN_HEIGHT,
                 window_manager: str | None = None) -> None:
        """`window_manager`: a program to start on the display once it is up (an EWMH window manager such as
        openbox), as every desktop has one; None for a bare X server."""
        self.log_path = log_path
        self.width = width
        self.height = height
        self.window_manager = window_manager
        self.name: str | None = None  # ":N" once started
        self._process: subprocess.Popen | None = None
        self._window_manager: subprocess.Popen | None = None

    def start(self, timeout: float = 15.0) -> str:
        read_end, write_end = os.pipe()
        with open(self.log_path, "wb") as log:
            self._process = subprocess.Popen(
                [
                    "Xvfb",
                    "-displayfd", str(write_end),  # Xvfb picks a free display and writes its number here
                    "-screen", "0", f"{self.width}x{self.height}x24",
                    "-nolisten", "tcp",
                    "-noreset",  # no server reset when the app (the last client) disconnects between launches
                ],
                pass_fds=(write_end,),
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        os.close(write_end)
        try:
            number = self._read_display_number(read_end, timeout)
        finally:
            os.close(read_end)
        self.name = f":{number}"
        if self.window_manager:
            try:
                self._start_window_manager(timeout)
            except BaseException:
                self.stop()
                raise
        return self.name

    def _start_window_manager(self, timeout: float) -> None:
        """Starts the window manager and waits until it has said so on the root window
        (_NET_SUPPORTING_WM_CHECK), which is what GTK looks for."""
        from Xlib import display as xdisplay  # python3-xlib: only needed with a window manager
        with open(self.log_path, "ab") as log:
            self._window_manager = subprocess.Popen([self.window_manager], env={**os.environ, "DISPLAY": self.name},
                                                    stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        connection = xdisplay.Display(self.name)
        try:
            check = connection.intern_atom("_NET_SUPPORTING_WM_CHECK")
            deadline = time.monotonic() + timeout
            while not connection.screen().root.get_full_property(check, 0):
                if time.monotonic() > deadline or self._window_manager.poll() is not None:
                    raise RuntimeError(f"{self.window_manager} did not come up; the log:\n{self.log_text()}")
                time.sleep(0.05)
        finally:
            connection.close()

    def _read_display_number(self, read_end: int, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        received = b""
        while not received.endswith(b"\n"):
            remaining = deadline - time.monotonic()
            ready, _, _ = select.select([read_end], [], [], max(remaining, 0))
            chunk = os.read(read_end, 64) if ready else b""
            if not chunk:  # timeout, or Xvfb closed the pipe by dying
                self.stop()
                raise RuntimeError(
                    f"Xvfb did not report a display number within {timeout} s; its log:\n{self.log_text()}"
                )
            received += chunk
        return received.decode().strip()

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return "(no log)"

    def stop(self) -> None:
        if self._window_manager is not None:
            stop_process(self._window_manager)
            self._window_manager = None
        if self._process is not None:
            stop_process(self._process)
            self._process = None
