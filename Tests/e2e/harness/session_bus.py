"""The D-Bus session bus the app's single-instance check (GtkApplication) and AT-SPI ride on."""

from __future__ import annotations

import os
import subprocess

from .processes import stop_process


class PrivateSessionBus:
    """A dbus-daemon of our own, for runs not already wrapped in `dbus-run-session`."""

    def __init__(self) -> None:
        self.address: str | None = None
        self._process: subprocess.Popen | None = None

    def start(self) -> str:
        self._process = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self._process.stdout is not None
        self.address = self._process.stdout.readline().decode().strip()
        if not self.address:
            stop_process(self._process)
            raise RuntimeError("dbus-daemon --session did not print its address")
        return self.address

    def stop(self) -> None:
        if self._process is not None:
            stop_process(self._process)
            self._process = None


def bus_name_has_owner(name: str, bus_address: str) -> bool:
    """Whether some process (e.g. a leftover app instance) owns `name` on the bus."""
    result = subprocess.run(
        [
            "dbus-send", f"--bus={bus_address}", "--print-reply", "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", f"string:{name}",
        ],
        capture_output=True,
        text=True,
        timeout=10,
        env={**os.environ, "DBUS_SESSION_BUS_ADDRESS": bus_address},
    )
    if result.returncode != 0:
        raise RuntimeError(f"dbus-send NameHasOwner failed: {result.stderr.strip()}")
    return "boolean true" in result.stdout
