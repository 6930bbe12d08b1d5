"""Issue 34, point 4: On the Map clusters its classmates as Virtual Tourist clusters its pins. The seeded class of 100
in a few dozen cities is, at world zoom, a handful of markers with counts that add up to the class; a click on a
city's marker zooms in until its classmates are single pins, and a click on one opens its popover."""

from __future__ import annotations

import math
import time

from harness.geo import screen_point
from harness.map import PIN_HEAD_ABOVE_TIP, WORLD_CENTRE, WORLD_ZOOM, map_box
from harness.on_the_map import SeededClass
from harness.screenshots import wait_until_screen_shows
from test_clusters import SHOWN, ZOOMED, is_marker_red, red_blobs
from test_on_the_map import UI, is_my_pin_colour, logged_in, ui  # noqa: F401 (logged_in and ui are fixtures)

CITY = "Sydney"  # far enough from Auckland to be a marker of its own at world zoom
MARKER_PIXELS = 200  # red pixels of a marker's disc; a pin's head has fewer


def last_shown(app, after: int = 0):
    matches = [m for m in SHOWN.finditer(app.log_text()) if m.start() >= after]
    return matches[-1] if matches else None


def is_label_white(pixel: tuple[int, int, int]) -> bool:
    return min(pixel) > 220


def markers(image, box) -> list[tuple[int, float, float, int, int]]:
    """The round red discs: a pin's head is as red, but its point makes it taller than wide."""
    return [blob for blob in red_blobs(image, box) if blob[0] > MARKER_PIXELS and abs(blob[3] - blob[4]) <= 3]


def test_the_class_is_clustered_by_city_and_a_click_zooms_in_to_single_pins(logged_in: UI, on_the_map_class: SeededClass,
                                                                            tiles, screenshot):
    ui, app = logged_in, logged_in.app
    class_size = len(on_the_map_class.students)
    tiles.wait_for_tile_requests(count=4)
    box = map_box(ui.accessible)

    # World zoom: a few markers, each with its count in white, standing for every classmate.
    app.wait_until(lambda: f"cluster index built: {class_size} pins" in app.log_text(), 20, "the cluster index was built")
    shown = app.wait_until(lambda: (m := last_shown(app)) and int(m.group(1)) == WORLD_ZOOM and int(m.group(2)) > 0
                           and m, 10, "cluster markers were drawn at world zoom")
    marker_count, clustered, singles = int(shown.group(2)), int(shown.group(3)), int(shown.group(4))
    assert clustered + singles == class_size, f"the counts ({clustered}) and single pins ({singles}) add up to the class"
    assert marker_count + singles < class_size / 3, f"{marker_count} markers and {singles} pins for {class_size} classmates"
    ui.user.park_pointer()
    time.sleep(0.5)
    world = screenshot("on-the-map-world-clusters")
    drawn = markers(world, box)
    # The layer draws markers a little beyond the edges too: those cut off are not round on screen.
    assert 10 <= len(drawn) <= marker_count, f"{marker_count} markers drawn, {len(drawn)} red discs on screen"
    for _, x, y, _, _ in drawn:
        assert any(is_label_white(world.getpixel((round(x) + dx, round(y) + dy)))
                   for dx in range(-4, 5) for dy in range(-4, 5)), f"the marker at {x:.0f},{y:.0f} shows its count"
    for student in on_the_map_class.students[:1] + on_the_map_class.students[3:4]:  # the two far from everyone
        x, y = ui.pin_head(student.latitude, student.longitude)
        assert any(is_marker_red(world.getpixel((x + dx, y + dy))) for dx in range(-6, 7) for dy in range(-6, 7)), \
            f"{student.full_name}, alone, is a pin of their own"

    # The city's marker: each click zooms in, until its classmates are single pins.
    city = [student for student in on_the_map_class.students if student.map_string == CITY]
    assert len(city) >= 2, f"the seeded class has several classmates in {CITY}"
    centre, zoom, image = WORLD_CENTRE, WORLD_ZOOM, world
    for attempt in range(8):
        points = [screen_point(s.latitude, s.longitude, centre, zoom, box) for s in city]
        cx, cy = sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
        target = min(markers(image, box), key=lambda blob: math.hypot(blob[1] - cx, blob[2] - cy))
        assert math.hypot(target[1] - cx, target[2] - cy) < 40, f"a marker over {CITY} at {cx:.0f},{cy:.0f}: {target}"
        mark = len(app.log_text())
        ui.user.click(round(target[1]), round(target[2]))
        zoomed = app.wait_until(lambda: (m := ZOOMED.search(app.log_text(), mark)) and m, 5,
                                f"click {attempt + 1} on {CITY}'s marker zoomed in")
        assert int(zoomed.group(1)) <= len(city) and int(zoomed.group(2)) == zoom and int(zoomed.group(3)) > zoom, \
            zoomed.group(0)
        centre, zoom = (float(zoomed.group(4)), float(zoomed.group(5))), int(zoomed.group(3))
        shown = app.wait_until(lambda: (m := last_shown(app, mark)) and int(m.group(1)) == zoom and m, 5,
                               "the new zoom drawn")
        assert not ui.accessible.exists(city[0].full_name, "label"), "a click on a marker opens no popover"
        ui.user.park_pointer()
        time.sleep(0.8)  # tiles of the new zoom
        image = screenshot(f"on-the-map-{CITY.lower()}-zoom-{zoom}")
        if int(shown.group(2)) == 0 and int(shown.group(4)) == len(city):
            break
    else:
        raise AssertionError(f"{CITY} is still clustered at zoom {zoom}")
    assert zoom > WORLD_ZOOM + 3
    points = [screen_point(s.latitude, s.longitude, centre, zoom, box) for s in city]

    # Single pins: each classmate of the city is a red pin, and a click on one opens its popover with their name.
    left, top, right, bottom = box
    for student, (x, y) in zip(city, points):
        assert left < x < right and top + PIN_HEAD_ABOVE_TIP < y < bottom, f"{student.full_name} is in view"
        assert any(is_marker_red(image.getpixel((round(x) + dx, round(y) - PIN_HEAD_ABOVE_TIP + dy)))
                   for dx in range(-8, 1) for dy in range(-3, 4)), f"a red pin head for {student.full_name}"
    student, (x, y) = next((s, p) for s, p in zip(city, points) if s.is_web_link)
    ui.user.click(round(x) - 4, round(y) - PIN_HEAD_ABOVE_TIP)
    ui.find_any(student.full_name, ("label",))
    ui.find_any(student.media_url, ("push button", "link"))
    screenshot(f"on-the-map-{CITY.lower()}-popover")


def test_my_own_pin_stays_a_blue_pin_among_the_clusters(logged_in: UI, on_the_map_class: SeededClass, on_the_map_server,
                                                        tiles, screenshot):
    ui, app, me = logged_in, logged_in.app, on_the_map_class.me
    # I post from another computer, in the middle of Paris's classmates, and refresh.
    session = on_the_map_server.session_id(me)
    status, _ = on_the_map_server.post_location({"uniqueKey": me.key, "firstName": me.first_name, "lastName": me.last_name,
                                                 "mapString": "Paris", "mediaURL": "https://example.org/mae-in-paris",
                                                 "latitude": 48.86, "longitude": 2.35}, session)
    assert status == 200
    mark = len(app.log_text())
    ui.find_any("Refresh", ("push button",)).doActionNamed("click")
    tiles.wait_for_tile_requests(count=4)
    x, y = ui.pin_head(48.86, 2.35)
    ui.user.park_pointer()
    wait_until_screen_shows(app, lambda image: any(is_my_pin_colour(image.getpixel((x + dx, y + dy)))
                                                   for dx in range(-8, 1) for dy in range(-3, 4)),
                            "my blue pin over Paris's marker")
    image = screenshot("on-the-map-my-pin-among-clusters")
    shown = last_shown(app, mark)
    assert shown and int(shown.group(1)) == WORLD_ZOOM, "the refreshed class was drawn at world zoom"
    # The app shows the newest 100 postings: mine among them, the other 99 in the counts and single pins.
    assert int(shown.group(3)) + int(shown.group(4)) == len(on_the_map_class.students) - 1, "my pin is in no count"
    paris = min(markers(image, map_box(ui.accessible)), key=lambda blob: math.hypot(blob[1] - x, blob[2] - y))
    assert math.hypot(paris[1] - x, paris[2] - y - PIN_HEAD_ABOVE_TIP) < 50, f"Paris's classmates are a marker: {paris}"
    ui.user.click(x - 4, y)
    ui.find_any(me.full_name, ("label",))
    screenshot("on-the-map-my-popover")
