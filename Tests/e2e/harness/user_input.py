"""Real mouse and keyboard input through the X server (XTEST, via xdotool), as a user would give it.

Coordinates are screen coordinates; without a window manager and with the window at 0,0
they are also window coordinates.
"""

from __future__ import annotations

import time

from .virtual_display import SCREEN_HEIGHT, SCREEN_WIDTH
from .xdotool import xdotool

LEFT_BUTTON = 1
WHEEL_UP, WHEEL_DOWN = 4, 5


class UserInput:
    def __init__(self, display: str) -> None:
        self.display = display

    def mousemove(self, x: int, y: int) -> None:
        xdotool(self.display, "mousemove", x, y)
        time.sleep(0.05)  # let the app see the motion before whatever comes next

    def pointer_position(self) -> tuple[int, int]:
        fields = dict(
            line.split("=", 1)
            for line in xdotool(self.display, "getmouselocation", "--shell").stdout.split()
        )
        return int(fields["X"]), int(fields["Y"])

    def park_pointer(self) -> None:
        """Move the pointer to the screen's bottom-right corner, off any hover effect."""
        self.mousemove(SCREEN_WIDTH - 1, SCREEN_HEIGHT - 1)

    def click(self, x: int, y: int, button: int = LEFT_BUTTON) -> None:
        xdotool(self.display, "mousemove", x, y, "sleep", 0.05, "click", button)

    def click_in_place(self, button: int = LEFT_BUTTON) -> None:
        """Click where the pointer is (after `mousemove`): no settling pause before the click."""
        xdotool(self.display, "click", button)

    def mouse_down(self, x: int, y: int, button: int = LEFT_BUTTON) -> None:
        """Press (and keep pressing) at (x, y); `mouse_up` releases."""
        xdotool(self.display, "mousemove", x, y, "sleep", 0.05, "mousedown", button)

    def mouse_up(self, button: int = LEFT_BUTTON) -> None:
        xdotool(self.display, "mouseup", button)

    def press_and_hold(self, x: int, y: int, seconds: float, button: int = LEFT_BUTTON) -> None:
        xdotool(self.display, "mousemove", x, y, "sleep", 0.05, "mousedown", button,
                "sleep", seconds, "mouseup", button, timeout=seconds + 15)

    def drag(self, x1: int, y1: int, x2: int, y2: int, steps: int = 12,
             step_delay: float = 0.03, button: int = LEFT_BUTTON) -> None:
        """Press at (x1, y1), move in `steps` even steps to (x2, y2), release there."""
        arguments: list[object] = ["mousemove", x1, y1, "sleep", 0.05, "mousedown", button, "sleep", 0.05]
        for step in range(1, steps + 1):
            x = round(x1 + (x2 - x1) * step / steps)
            y = round(y1 + (y2 - y1) * step / steps)
            arguments += ["mousemove", x, y, "sleep", step_delay]
        arguments += ["sleep", 0.05, "mouseup", button]
        xdotool(self.display, *arguments, timeout=steps * step_delay + 15)

    def scroll(self, x: int, y: int, clicks: int, up: bool = True, delay: float = 0.2) -> None:
        """Turn the wheel `clicks` notches over (x, y): button 4 is up, 5 is down."""
        xdotool(self.display, "mousemove", x, y, "sleep", 0.05,
                "click", "--repeat", clicks, "--delay", int(delay * 1000), WHEEL_UP if up else WHEEL_DOWN,
                timeout=clicks * delay + 15)

    def key(self, *keys: str) -> None:
        """Press key combinations (xdotool syntax, e.g. "ctrl+q") into the focused window."""
        xdotool(self.display, "key", "--delay", 50, *keys)
