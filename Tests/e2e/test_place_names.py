"""Issue 11, place names: a pin is named at once and offline after its nearest city, refined online by
Nominatim's reverse geocoding (a local stub speaking its JSON), and the name titles its album."""

from __future__ import annotations

import re
import sqlite3

from harness.accessibility import AccessibleApp
from harness.geo import screen_point
from harness.map import WORLD_CENTRE, WORLD_ZOOM, drop_pin, map_box
from harness.screenshots import crop
from harness import on_the_map as otm

COORDINATES = re.compile(r"\d+\.\d+° [NS], \d+\.\d+° [EW]")


def dark_share(image) -> float:
    """Share of nearly black pixels (GTK's tooltip background)."""
    pixels = list(image.convert("L").getdata())
    return sum(1 for value in pixels if value < 40) / len(pixels)


def pin_name(app, pin_id: int) -> tuple[str | None, str | None]:
    rows = app.query("SELECT place_name, place_name_source FROM pin WHERE id = ?", (pin_id,))
    return rows[0] if rows else (None, None)


def test_a_pin_is_named_offline_and_the_name_titles_its_album(app, flickr, user, accessible, screenshot):
    box = map_box(accessible)
    x, y = screen_point(48.8566, 2.3522, WORLD_CENTRE, WORLD_ZOOM, box)  # Paris, as near as zoom 2 allows
    pin, head = drop_pin(app, user, accessible, (round(x), round(y)))
    name, source = app.wait_until(lambda: pin_name(app, pin[0])[0] and pin_name(app, pin[0]), 15,
                                  "the pin was named")
    assert source == "offline", "no geocoder is reachable (a closed port): the name is the offline one"
    assert name.endswith(", France") and not COORDINATES.search(name), name

    # Hovering the pin shows a tooltip (GTK's tooltip windows are not on the accessibility bus, so the
    # screen tells): a dark box appears just below the pointer, where there was map before.
    below = (head[0] - 60, head[1] + 15, head[0] + 60, head[1] + 45)
    user.mousemove(head[0], head[1] + 120)
    before = crop(screenshot("before-hover"), below)
    user.mousemove(head[0] - 3, head[1])
    user.mousemove(*head)
    app.wait_until(lambda: dark_share(crop(screenshot("pin-tooltip"), below)) > 0.4 > dark_share(before), 10,
                   "the pin's tooltip appears")

    user.click(*head)
    accessible.find("Back", "push button")
    labels = app.wait_until(lambda: name in (found := accessible.labels()) and found, 10,
                            "the album's title is the pin's place name")
    assert any(COORDINATES.fullmatch(label) for label in labels), f"the coordinates are the subtitle: {labels}"
    grids = accessible.node.findChildren(lambda n: n.name == f"Photos of {name}", showingOnly=False)
    assert grids, "screen readers hear whose photos the grid holds"
    screenshot("album-titled-offline")


def test_online_the_name_is_refined_once_by_reverse_geocoding(make_app, flickr, nominatim, user, screenshot):
    # A first start creates the library; the map is then left over Paris at street level.
    app = make_app(extra_environment={"VIRTUAL_TOURIST_GEOCODER_URL": nominatim.url}).start()
    assert app.quit() == 0
    connection = sqlite3.connect(app.database_path)
    with connection:
        connection.execute("INSERT OR REPLACE INTO viewport (id, latitude, longitude, zoom) VALUES (1, ?, ?, 15)",
                           (48.8606, 2.3376))
    connection.close()
    status, _ = otm.http("POST", nominatim.url + "__places", [{
        "query": "Louvre", "lat": 48.8606, "lon": 2.3376, "display_name": "Louvre, Quartier du Palais Royal, Paris",
        "address": {"tourism": "Louvre", "quarter": "Quartier du Palais Royal", "suburb": "Paris 1er Arrondissement",
                    "city": "Paris", "state": "Île-de-France", "country": "France", "country_code": "fr"}}])
    assert status == 200
    app.start()
    accessible = AccessibleApp()

    left, top, right, bottom = map_box(accessible)
    user.press_and_hold((left + right) // 2, (top + bottom) // 2, 0.8)
    pin = app.wait_until(lambda: app.pins() and app.pins()[-1], 5, "the pin was stored")
    named = app.wait_until(lambda: pin_name(app, pin[0])[1] == "online" and pin_name(app, pin[0]), 15,
                           "the pin's name was refined online")
    assert named[0] == "Quartier du Palais Royal, Paris, France"
    reverse = [r for r in nominatim.requests() if r["path"] == "/reverse"]
    assert len(reverse) == 1, "asked once"
    assert reverse[0]["user_agent"].startswith("VirtualTourist/"), "an identifying User-Agent"
    assert reverse[0]["query"]["format"] == "jsonv2"

    user.click((left + right) // 2, (top + bottom) // 2 - 25)
    accessible.find("Back", "push button")
    app.wait_until(lambda: named[0] in accessible.labels(), 10, "the album's title is the refined name")
    screenshot("album-titled-online")
    accessible.click("Back")
    assert len([r for r in nominatim.requests() if r["path"] == "/reverse"]) == 1, "not asked again"
