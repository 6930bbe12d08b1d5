"""Issue 11, item 4: My Places (F9) lists your pins beside the map, newest first or by name, filtered by the
search text; with the keyboard alone a user reaches, opens, deletes and restores (Ctrl+Z) any pin."""

from __future__ import annotations

import math
import sqlite3

from harness.accessibility import AccessibleApp
from harness.xdotool import xdotool

ROW = "list item"
PLACES = [  # oldest first, as they were dropped
    ("Paris, Île-de-France, France", 48.8566, 2.3522),
    ("Tokyo, Japan", 35.6895, 139.6917),
    ("Sydney, New South Wales, Australia", -33.8688, 151.2093),
]


def rows(accessible: AccessibleApp) -> list[str]:
    return [n.name for n in accessible.node.findChildren(lambda n: n.roleName == ROW, showingOnly=False)
            if n.showing and (n.name.endswith(" photos") or n.name.endswith(" photo"))]


def place_rows(accessible: AccessibleApp) -> list[str]:
    """The rows of My Places, by place name."""
    return [name.rsplit(", ", 1)[0] for name in rows(accessible)]


def seeded_app(make_app):
    app = make_app().start()
    assert app.quit() == 0
    with sqlite3.connect(app.database_path) as database:
        for index, (name, latitude, longitude) in enumerate(PLACES):
            database.execute("INSERT INTO pin(latitude, longitude, created_at, place_name, place_name_source) "
                             "VALUES (?, ?, ?, ?, 'offline')", (latitude, longitude, 800_000_000.0 + index, name))
    return app.start()


def test_the_keyboard_reaches_opens_deletes_and_restores_any_pin(make_app, flickr, screenshot):
    app = seeded_app(make_app)
    accessible = AccessibleApp()

    app.key("F9")
    names = app.wait_until(lambda: len(r := place_rows(accessible)) == 3 and r, 10, "My Places lists the pins")
    assert names == [name for name, _, _ in reversed(PLACES)], f"newest first: {names}"
    assert "3 places" in accessible.labels()
    assert app.viewport() is None, "opening the list moves no map"

    # Down selects the next place, and the map centres on it.
    app.key("Down")
    tokyo = PLACES[1]
    viewport = app.wait_until(
        lambda: (v := app.viewport()) and math.hypot(v[0] - tokyo[1], v[1] - tokyo[2]) < 0.01 and v, 10,
        "the map centred on the selected place")
    assert viewport[2] >= 11, f"close enough to see it: {viewport}"
    screenshot("my-places")

    # Enter opens its album; Escape comes back with the keyboard still in the list.
    app.key("Return")
    accessible.find("Back", "push button")
    app.wait_until(lambda: tokyo[0] in accessible.labels(), 10, "the album of the selected place is open")
    app.key("Escape")
    app.wait_until(lambda: not accessible.exists("Back", "push button"), 5, "back on the map")

    # Delete deletes the selected pin (Undo offered); Ctrl+Z restores it, photos and all.
    tokyo_id = app.query("SELECT id FROM pin WHERE place_name = ?", (tokyo[0],))[0][0]
    app.wait_until(lambda: app.query("SELECT count(*) FROM photo WHERE pin_id = ?", (tokyo_id,))[0][0] > 0, 15,
                   "its album was fetched when it was opened")
    photos = app.query("SELECT count(*) FROM photo WHERE pin_id = ?", (tokyo_id,))[0][0]
    app.key("Delete")
    app.wait_until(lambda: not app.query("SELECT 1 FROM pin WHERE id = ?", (tokyo_id,)), 5, "Delete deleted the pin")
    app.wait_until(lambda: place_rows(accessible) == [PLACES[2][0], PLACES[0][0]], 5, "the list lost the place")
    assert f"Pin at {tokyo[0]} deleted" in accessible.labels()
    screenshot("deleted")
    app.key("ctrl+z")
    app.wait_until(lambda: app.query("SELECT 1 FROM pin WHERE id = ?", (tokyo_id,)), 5, "Ctrl+Z restored the pin")
    assert app.query("SELECT count(*) FROM photo WHERE pin_id = ?", (tokyo_id,))[0][0] == photos
    app.wait_until(lambda: len(place_rows(accessible)) == 3, 5, "the list has it again")

    # F9 again closes the list and gives the keyboard back to the map.
    app.key("F9")
    app.wait_until(lambda: not place_rows(accessible), 5, "F9 closed My Places")


def test_the_search_text_filters_and_the_list_sorts_by_name(make_app, flickr, screenshot):
    app = seeded_app(make_app)
    accessible = AccessibleApp()
    accessible.click("My Places")
    app.wait_until(lambda: len(place_rows(accessible)) == 3, 10, "My Places lists the pins")

    app.key("ctrl+f")
    xdotool(app.display, "type", "--delay", 60, "japan")
    app.wait_until(lambda: place_rows(accessible) == ["Tokyo, Japan"], 10, "only the place whose name matches")
    assert "1 of 3 places match “japan”." in accessible.labels()
    screenshot("filtered")
    app.key("ctrl+a", "BackSpace")
    app.wait_until(lambda: len(place_rows(accessible)) == 3, 10, "an empty search shows every place")

    combo = accessible.find("Sort Places", "combo box")
    combo.doActionNamed("press")
    accessible.find("By Name", "menu item").doActionNamed("click")
    app.wait_until(lambda: place_rows(accessible) == sorted(name for name, _, _ in PLACES), 10, "sorted by name")
