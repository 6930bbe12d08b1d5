"""The map as the tests see it: where it is on screen, the first start's view, and dropping pins."""

from __future__ import annotations

from .geo import screen_point

WORLD_CENTRE, WORLD_ZOOM = (20.0, 0.0), 2  # what the first start shows
PIN_HEAD_ABOVE_TIP = 25  # logical pixels from a pin's tip (its coordinate) up to its head


def map_box(accessible) -> tuple[int, int, int, int]:
    """The map widget's left, top, right, bottom on screen, from its accessibility extents."""
    x, y, width, height = accessible.extents("Map", "drawing area")
    return x, y, x + width, y + height


def drop_pin(app, user, accessible, point: tuple[int, int]) -> tuple[tuple, tuple[int, int]]:
    """Press and hold at `point` (screen) on a map showing the first start's view; returns the
    stored pin row and a point on the pin's head, for clicking it."""
    count = len(app.pins())
    user.press_and_hold(point[0], point[1], 0.8)
    pin = app.wait_until(lambda: len(app.pins()) == count + 1 and app.pins()[-1], 5, "the pin was stored")
    x, y = screen_point(pin[1], pin[2], WORLD_CENTRE, WORLD_ZOOM, map_box(accessible))
    return pin, (round(x), round(y) - PIN_HEAD_ABOVE_TIP)
