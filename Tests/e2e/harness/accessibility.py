"""The app as assistive technologies see it (AT-SPI, through dogtail): buttons by name, labels,
states. Needs Debian's python3-dogtail, the session bus, and NO_AT_BRIDGE unset."""

from __future__ import annotations

import os
import time


def _dogtail():
    os.environ.pop("NO_AT_BRIDGE", None)
    # dogtail refuses to start unless it believes accessibility is on; it checks GSettings or this
    # variable. Only this test process sees it: the app's environment is built separately.
    if "gail:atk-bridge" not in os.environ.get("GTK_MODULES", ""):
        os.environ["GTK_MODULES"] = "gail:atk-bridge"
    from dogtail.config import config
    config.searchBackoffDuration = 0.25
    config.searchCutoffCount = 8
    config.defaultDelay = 0.2
    config.actionDelay = 0.2
    config.logDebugToFile = False
    config.logDebugToStdOut = False
    from dogtail import tree
    return tree


class AccessibleApp:
    """Finds the running app on the accessibility bus by its program name."""

    def __init__(self, name: str = "virtual-tourist", timeout: float = 20.0) -> None:
        tree = _dogtail()
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.node = tree.root.application(name)
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise AssertionError(f"{name} never appeared on the accessibility bus")
                time.sleep(0.5)

    def alert(self, timeout: float = 15.0) -> tuple[object, str]:
        """The showing alert (a GtkMessageDialog) and all its text, title first."""
        from harness.waiting import wait_until
        node = wait_until(lambda: next((n for n in self.node.findChildren(
            lambda n: n.roleName == "alert", showingOnly=False) if n.showing), None), timeout, "an alert is showing")
        text = " ".join(n.name for n in node.findChildren(lambda n: n.roleName == "label", showingOnly=False))
        return node, text

    def no_alert(self) -> bool:
        return not any(n.showing for n in self.node.findChildren(lambda n: n.roleName == "alert", showingOnly=False))

    def find(self, name: str, role: str, showing: bool = True, timeout: float = 10.0):
        """The first widget with this accessible name and role (e.g. "push button")."""
        deadline = time.monotonic() + timeout
        while True:
            for node in self.node.findChildren(lambda n: n.name == name and n.roleName == role, showingOnly=False):
                if not showing or node.showing:
                    return node
            if time.monotonic() > deadline:
                raise AssertionError(f"no {'showing ' if showing else ''}{role} named {name!r}")
            time.sleep(0.2)

    def exists(self, name: str, role: str, showing: bool = True) -> bool:
        return any((not showing or node.showing)
                   for node in self.node.findChildren(lambda n: n.name == name and n.roleName == role,
                                                      showingOnly=False))

    def click(self, name: str, role: str = "push button") -> None:
        self.find(name, role).doActionNamed("click")

    def labels(self) -> list[str]:
        return [node.name for node in self.node.findChildren(lambda n: n.roleName == "label", showingOnly=True)]

    def extents(self, name: str, role: str) -> tuple[int, int, int, int]:
        """Screen x, y, width, height of a widget."""
        node = self.find(name, role)
        (x, y), (width, height) = node.position, node.size
        return x, y, width, height
