"""Issue 3: pins dropped by press-and-hold, dragged while held, opened by a click, deleted with undo."""

from __future__ import annotations

import math
import time

from harness.accessibility import AccessibleApp
from harness.geo import screen_point
from harness.map import WORLD_CENTRE, WORLD_ZOOM, drop_pin, map_box
from harness.screenshots import crop, fraction_differing, wait_until_screen_shows
from harness.xdotool import xdotool


def distance_on_screen(pin: tuple, point: tuple[float, float], box, centre=WORLD_CENTRE, zoom=WORLD_ZOOM) -> float:
    x, y = screen_point(pin[1], pin[2], centre, zoom, box)
    return math.hypot(x - point[0], y - point[1])


def is_pin_red(pixel: tuple[int, int, int]) -> bool:
    red, green, blue = pixel
    return red > 170 and green < 90 and blue < 90


def wait_until_red_at(app, points: list[tuple[int, int]], message: str) -> None:
    """Waits until the screen shows a pin's red at every point (where the tests look for a pin's head)."""
    wait_until_screen_shows(app, lambda image: all(is_pin_red(image.getpixel(point)) for point in points), message)


def test_press_and_hold_drops_a_pin_that_is_stored_before_release(app, tiles, user, accessible, screenshot):
    tiles.wait_for_tile_requests(count=4)
    box = map_box(accessible)
    point = (box[0] + 400, box[1] + 250)

    xdotool(app.display, "mousemove", *point, "sleep", 0.05, "mousedown", 1)
    try:
        rows = app.wait_until(lambda: app.pins(), 5, "a pin row exists while the button is still held")
        screenshot("pin-held")
    finally:
        xdotool(app.display, "mouseup", 1)

    assert len(rows) == 1
    assert distance_on_screen(rows[0], point, box) <= 1.5, f"pin {rows[0]} is not under the pointer {point}"
    wait_until_red_at(app, [(point[0] - 7, point[1] - 25)], "the dropped pin was drawn")
    image = screenshot("pin-dropped")
    assert is_pin_red(image.getpixel((point[0] - 7, point[1] - 25))), "a red pin is drawn above the point"
    assert app.viewport() is None, "dropping a pin does not move the map"


def test_holding_and_dragging_moves_the_new_pin_but_not_the_map(app, tiles, user, accessible, screenshot):
    tiles.wait_for_tile_requests(count=4)
    time.sleep(1)
    box = map_box(accessible)
    start, end = (box[0] + 300, box[1] + 300), (box[0] + 460, box[1] + 380)
    before = screenshot("before-drag")

    arguments = ["mousemove", *start, "sleep", 0.05, "mousedown", 1, "sleep", 0.8]
    for step in range(1, 13):
        arguments += ["mousemove", round(start[0] + (end[0] - start[0]) * step / 12),
                      round(start[1] + (end[1] - start[1]) * step / 12), "sleep", 0.03]
    xdotool(app.display, *arguments)
    during = screenshot("pin-follows-pointer")
    xdotool(app.display, "mouseup", 1)

    pins = app.wait_until(lambda: (p := app.pins()) and distance_on_screen(p[0], end, box) <= 1.5 and p, 5,
                          "the pin was saved where the button was released")
    assert len(pins) == 1
    assert is_pin_red(during.getpixel((end[0] - 7, end[1] - 25))), "the pin followed the pointer while held"
    time.sleep(0.7)  # a pause, not a wait: a pan would have saved its viewport by now
    assert app.viewport() is None, "the map did not pan"
    corner = (box[0] + 10, box[3] - 200, box[0] + 200, box[3] - 10)
    after = screenshot("after-drag")
    assert fraction_differing(crop(before, corner), crop(after, corner)) < 0.01, "the map did not move"


def test_an_existing_pin_can_be_picked_up_and_moved(app, tiles, user, accessible):
    tiles.wait_for_tile_requests(count=4)
    box = map_box(accessible)
    first, _ = drop_pin(app, user, accessible, (box[0] + 500, box[1] + 300))
    pin_id = first[0]
    tip = screen_point(first[1], first[2], WORLD_CENTRE, WORLD_ZOOM, box)
    grab = (round(tip[0]), round(tip[1]) - 25)  # on the pin's head
    target = (grab[0] - 200, grab[1] + 100)

    arguments = ["mousemove", *grab, "sleep", 0.05, "mousedown", 1, "sleep", 0.8]
    for step in range(1, 11):
        arguments += ["mousemove", round(grab[0] + (target[0] - grab[0]) * step / 10),
                      round(grab[1] + (target[1] - grab[1]) * step / 10), "sleep", 0.03]
    arguments += ["mouseup", 1]
    xdotool(app.display, *arguments)

    moved = app.wait_until(lambda: (p := app.pins()) and abs(p[0][2] - first[2]) > 1 and p[0], 5, "the pin moved")
    assert moved[0] == pin_id and len(app.pins()) == 1, "the same pin moved; no new pin"
    new_tip = screen_point(moved[1], moved[2], WORLD_CENTRE, WORLD_ZOOM, box)
    assert math.hypot(new_tip[0] - (tip[0] - 200), new_tip[1] - (tip[1] + 100)) <= 2, (tip, new_tip)
    assert app.viewport() is None


def test_a_quick_drag_pans_the_map_without_dropping_a_pin(app, tiles, user, accessible):
    tiles.wait_for_tile_requests(count=4)
    box = map_box(accessible)
    user.drag(box[0] + 600, box[1] + 400, box[0] + 400, box[1] + 300, steps=8, step_delay=0.02)
    app.wait_until(app.viewport, 5, "the panned view was saved")
    time.sleep(0.8)  # a pause, not a wait: a pin dropped by the drag would be stored by now
    assert app.pins() == []


def test_a_short_click_on_empty_map_does_nothing(app, tiles, user, accessible):
    tiles.wait_for_tile_requests(count=4)
    box = map_box(accessible)
    user.click(box[0] + 300, box[1] + 200)
    time.sleep(1.0)  # a pause, not a wait: a pin or an album the click made would be there by now
    assert app.pins() == []
    assert not accessible.exists("Back", "push button"), "no album opened"


def test_clicking_a_pin_opens_its_album_and_back_returns_to_the_same_map(app, tiles, user, accessible, screenshot):
    tiles.wait_for_tile_requests(count=4)
    box = map_box(accessible)
    pin, _ = drop_pin(app, user, accessible, (box[0] + 520, box[1] + 330))
    tip = screen_point(pin[1], pin[2], WORLD_CENTRE, WORLD_ZOOM, box)
    head = (round(tip[0]) - 7, round(tip[1]) - 25)
    wait_until_red_at(app, [head], "the dropped pin was drawn")
    map_before = screenshot("map")

    for back in ("Escape", "alt+Left", "button"):
        user.click(round(tip[0]), round(tip[1]) - 25)
        accessible.find("Back", "push button")
        title = f"{abs(pin[1]):.4f}° {'N' if pin[1] >= 0 else 'S'}"
        assert any(label.startswith(title) for label in accessible.labels()), accessible.labels()
        screenshot(f"album-before-{back}")
        if back == "button":
            accessible.click("Back")
        else:
            app.key(back)
        app.wait_until(lambda: not accessible.exists("Back", "push button"), 5, f"{back} went back to the map")
        wait_until_red_at(app, [head], "the page slid away and the pin is drawn again")  # before the next click

    assert fraction_differing(crop(map_before, box), crop(screenshot("map-again"), box)) < 0.02
    assert app.viewport() is None, "the map kept its viewport"


def test_deleting_a_pin_offers_undo_that_restores_it(app, tiles, user, accessible, screenshot):
    tiles.wait_for_tile_requests(count=4)
    box = map_box(accessible)
    pin, _ = drop_pin(app, user, accessible, (box[0] + 450, box[1] + 350))
    tip = screen_point(pin[1], pin[2], WORLD_CENTRE, WORLD_ZOOM, box)

    user.click(round(tip[0]), round(tip[1]) - 25, button=3)
    accessible.find("Delete Pin", "menu item")
    screenshot("pin-menu")
    accessible.click("Delete Pin", "menu item")
    app.wait_until(lambda: app.pins() == [], 5, "the pin row was deleted at once")
    accessible.find("Undo", "push button")
    screenshot("undo-offered")

    accessible.click("Undo")
    app.wait_until(lambda: app.pins() == [pin], 5, "Undo restored the same pin")
    wait_until_red_at(app, [(round(tip[0]) - 7, round(tip[1]) - 25)], "the restored pin was drawn")
    assert is_pin_red(screenshot("pin-restored").getpixel((round(tip[0]) - 7, round(tip[1]) - 25)))

    # Deleting again and letting the notification go: the pin stays deleted after a restart.
    user.click(round(tip[0]), round(tip[1]) - 25, button=3)
    accessible.click("Delete Pin", "menu item")
    app.wait_until(lambda: app.pins() == [], 5, "the pin was deleted again")
    assert app.quit() == 0
    app.start()
    time.sleep(1)  # a pause, not a wait: a deletion the restart undid would show in the store by now
    assert app.pins() == []


def test_pins_are_shown_again_after_a_restart(app, tiles, user, accessible, screenshot):
    tiles.wait_for_tile_requests(count=4)
    box = map_box(accessible)
    points = [(box[0] + 200, box[1] + 200), (box[0] + 500, box[1] + 450), (box[0] + 800, box[1] + 300)]
    for point in points:
        drop_pin(app, user, accessible, point)
    pins = app.pins()
    assert app.quit() == 0

    app.start()
    accessible = AccessibleApp()
    heads = [(round(x) - 7, round(y) - 25) for x, y in
             (screen_point(pin[1], pin[2], WORLD_CENTRE, WORLD_ZOOM, map_box(accessible)) for pin in pins)]
    wait_until_red_at(app, heads, "every pin was drawn after the restart")
    image = screenshot("pins-after-restart")
    assert app.pins() == pins
    for pin in pins:
        x, y = screen_point(pin[1], pin[2], WORLD_CENTRE, WORLD_ZOOM, map_box(accessible))
        assert is_pin_red(image.getpixel((round(x) - 7, round(y) - 25))), f"pin {pin} is not drawn after restart"
