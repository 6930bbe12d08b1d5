"""Issue 35 point 1: the user's own geotagged photos in an album. A Pictures folder the app has never seen (photos
tagged by exiftool and exiv2 near a place and far from it, untagged, broken, truncated, hidden, not photos); the
album's invitation turns own photos on; the section lists exactly the near ones, newest first, the right way up; a
click hides one from this album only (Undo, kept across a restart); a restart reads nothing again; the files are
never touched. Then the folder watched while the app runs, Preferences and My Places."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3

import pytest

from harness.accessibility import AccessibleApp
from harness.own_pictures import PicturesFolder, distance_km, offset
from harness.screenshots import capture_screen, wait_until_screen_shows
from harness.xdotool import xdotool
from test_album import drop_album_pin
from test_album_time import album_time, choose

PARIS = ("Paris, Île-de-France, France", 48.8566, 2.3522)  # Flickr has nothing here: the invitation's place
MARAIS = ("Le Marais, Paris, France", 48.8570, 2.3530)  # 70 m away, with Flickr's photos
RADIUS_KM = 5.0
INDEXED = re.compile(r"Own photos indexed in [\d.]+ s: (\d+) photos, read (\d+), unchanged (\d+), removed (\d+), "
                     r"(\d+) without a position, (\d+) unreadable, (\d+) too large")
REMOVED = "Photo removed from this album. The file is still on your computer."
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def shown_date(taken: str) -> str:
    """EXIF "2019:06:01 12:00:00" as the tile names it."""
    year, month, day = (int(part) for part in taken.split(" ")[0].split(":"))
    return f"{day} {MONTHS[month - 1]} {year}"


def tile_name(picture) -> str:
    return f"{picture.name}, taken {shown_date(picture.taken)}" if picture.taken else picture.name


def make_pictures(home) -> PicturesFolder:
    """The test Pictures folder around Paris: six photos within 5 km, three beyond, and what else a folder holds."""
    pictures = PicturesFolder(home)
    here = PARIS[1], PARIS[2]
    pictures.add_tagged("IMG_2021_bakery.jpg", offset(*here, 0, 3.0), "2021:03:15 09:30:00", (200, 150, 60))
    pictures.add_tagged("sideways.jpg", offset(*here, 2.0, 0), "2020:01:10 10:00:00", orientation=6)
    pictures.add_tagged("bridge.jpg", offset(*here, -1.0, 0), "2019:06:01 12:00:00", (60, 160, 90))
    pictures.add_tagged("Holidays/2017/park.jpg", offset(*here, 0, -4.5), "2017:08:20 16:45:00", (40, 120, 40))
    pictures.add_tagged("tower-exiv2.jpg", (48.8584, 2.2945), "2015:05:05 11:00:00", (150, 90, 170), tool="exiv2")
    pictures.add_tagged("undated.jpg", offset(*here, 0.35, 0.35), None, (170, 170, 220))
    # Beyond the album's radius: newer than all the near ones, so a radius that let them in would change the order.
    pictures.add_tagged("far-30km.jpg", offset(*here, -30.0, 0), "2022:07:07 07:07:00", (220, 40, 40))
    pictures.add_tagged("lyon.jpg", (45.7640, 4.8357), "2023:03:03 13:00:00", (240, 200, 0))
    pictures.add_tagged("edge-6km.jpg", offset(*here, 6.0, 0), "2024:04:04 14:00:00", (0, 200, 200))
    # Near, but in a hidden folder (a thumbnail cache, a private folder): never looked at.
    pictures.add_tagged(".private/secret.jpg", offset(*here, 0.2, 0), "2025:05:05 15:00:00", (255, 0, 255))
    pictures.add_untagged("scan-001.jpg")
    pictures.add_untagged("Scans/scan-002.jpeg", (60, 60, 120))
    pictures.add_broken("broken.jpg")
    pictures.add_truncated("truncated.jpg", offset(*here, 0.1, 0.1))
    pictures.add_cut_picture("cut-short.jpg", offset(*here, 0.15, 0.15))  # its tags whole, its picture not
    pictures.add_text("notes.txt")
    return pictures


def near(pictures: PicturesFolder, place) -> list:
    """The visible tagged photos within the radius of `place`, newest first and the undated last, as the album
    orders them."""
    inside = [p for p in pictures.tagged if not p.relative.startswith(".")
              and distance_km((place[1], place[2]), p.position) <= RADIUS_KM]
    dated = sorted((p for p in inside if p.taken), key=lambda p: p.taken, reverse=True)
    return dated + sorted((p for p in inside if not p.taken), key=lambda p: p.relative)


def seeded_app(make_app, flickr):
    """The app (stopped) with two named pins, Paris the newest (first in My Places); Flickr has nothing for Paris."""
    flickr.control({"totals": {f"{PARIS[1]:.4f},{PARIS[2]:.4f}": 0}})
    app = make_app().start()
    assert app.quit() == 0
    with sqlite3.connect(app.database_path) as database:
        for created, (name, latitude, longitude) in ((800_000_000.0, MARAIS), (800_000_100.0, PARIS)):
            database.execute("INSERT INTO pin(latitude, longitude, created_at, place_name, place_name_source) "
                             "VALUES (?, ?, ?, ?, 'offline')", (latitude, longitude, created, name))
    return app


def pin_id(app, place) -> int:
    return app.query("SELECT id FROM pin WHERE place_name = ?", (place[0],))[0][0]


def index_reports(app) -> list[tuple[int, ...]]:
    """Every "Own photos indexed" line of this launch's log: photos, read, unchanged, removed, without a position,
    unreadable, too large."""
    return [tuple(int(n) for n in match.groups()) for match in INDEXED.finditer(app.log_text())]


def own_section(accessible: AccessibleApp):
    """The flow box of the album's own photos, when it shows."""
    boxes = [node for node in accessible.node.findChildren(lambda n: n.name == "Your photos", showingOnly=False)
             if node.showing]
    return boxes[0] if boxes else None


def own_tiles(accessible: AccessibleApp) -> list:
    box = own_section(accessible)
    if box is None:
        return []
    return [node for node in box.findChildren(lambda n: n.roleName == "list item", showingOnly=False) if node.showing]


def own_names(accessible: AccessibleApp) -> list[str]:
    return [node.name for node in own_tiles(accessible)]


def own_tile(accessible: AccessibleApp, name: str):
    return next(node for node in own_tiles(accessible) if node.name == name)


def place_row(accessible: AccessibleApp, place) -> str | None:
    """The accessible name of My Places' row for `place`, while the list shows."""
    return next((n.name for n in accessible.node.findChildren(lambda n: n.roleName == "list item", showingOnly=False)
                 if n.showing and n.name.startswith(place[0])), None)


def open_from_my_places(app, accessible: AccessibleApp) -> None:
    """Opens My Places (F9) and, with the keyboard, the album of its first row: Paris."""
    app.key("F9")
    app.wait_until(lambda: place_row(accessible, PARIS), 10, "My Places lists the pins")
    app.key("Return")
    accessible.find("Back", "push button")


def flickr_tiles(accessible: AccessibleApp) -> list:
    """The album's Flickr tiles: list items that are neither the user's photos nor My Places' rows (those scrolled
    out of view too, which AT-SPI does not count as showing)."""
    own = set(own_names(accessible))
    return [node for node in accessible.node.findChildren(lambda n: n.roleName == "list item", showingOnly=False)
            if node.name not in own and not node.name.startswith((PARIS[0], MARAIS[0]))]


def wait_for_flickr_album(app, accessible: AccessibleApp, pin: int) -> list:
    """Waits until every Flickr photo of the pin is on disk and shown; returns their tiles."""
    def complete():
        photos, tiles = app.photos(pin), flickr_tiles(accessible)
        return photos and all(path for _, _, path in photos) and len(tiles) == len(photos) \
            and "Photo loading" not in [t.name for t in tiles] and tiles
    return app.wait_until(complete, 30, lambda: f"Flickr's photos are all shown: {len(app.photos(pin))} stored, "
                          f"{len(flickr_tiles(accessible))} tiles: {[t.name for t in flickr_tiles(accessible)]}")


def viewer_keys(app, title: str, *keys: str) -> None:
    """Keys into the viewer's own window (no window manager here to give it the focus)."""
    found = xdotool(app.display, "search", "--sync", "--name", f"^{title}$").stdout.split()
    xdotool(app.display, "windowfocus", "--sync", found[-1])
    xdotool(app.display, "key", "--delay", 50, *keys)


def halves(image, box) -> dict[str, float]:
    """Mean brightness of the top, bottom, left and right bands of the middle of `box` (x, y, width, height)."""
    x, y, width, height = box

    def mean(left, top, right, bottom) -> float:
        band = image.crop((round(x + width * left), round(y + height * top),
                           round(x + width * right), round(y + height * bottom))).convert("L")
        pixels = list(band.getdata())
        return sum(pixels) / len(pixels)
    return {"top": mean(0.3, 0.2, 0.7, 0.42), "bottom": mean(0.3, 0.58, 0.7, 0.8),
            "left": mean(0.2, 0.3, 0.42, 0.7), "right": mean(0.58, 0.3, 0.8, 0.7)}


def index_file(app):
    return app.home / "cache" / "virtual-tourist" / "own-photos.sqlite"


def settings(app) -> dict | None:
    path = app.home / "config" / "virtual-tourist" / "own-photos.json"
    return json.loads(path.read_text()) if path.exists() else None


def test_the_invitation_shows_the_near_photos_and_hiding_one_leaves_the_file(make_app, flickr, user, screenshot,
                                                                            artifacts):
    app = seeded_app(make_app, flickr)
    pictures = make_pictures(app.home)
    before_hashes, before_stamps = pictures.hashes(), pictures.stamps()
    expected = [tile_name(p) for p in near(pictures, PARIS)]
    assert len(expected) == 6, expected
    app.start()
    accessible = AccessibleApp()

    # Own photos are off at first: Flickr's empty album invites, and nothing of the folder shows or is read.
    open_from_my_places(app, accessible)
    accessible.find("No Images", "label")
    invitation = accessible.find("Show My Photos", "push button")
    assert own_section(accessible) is None and not own_names(accessible), "no own photos before they are turned on"
    assert not any(label.startswith("Your Photos") for label in accessible.labels())
    assert settings(app) in (None, {"enabled": False, "folders": []}), settings(app)
    assert index_reports(app) == [], "nothing indexed while own photos are off"
    screenshot("invitation")

    invitation.doActionNamed("click")
    names = app.wait_until(lambda: (n := own_names(accessible)) and len(n) == len(expected) and n, 20,
                           lambda: f"the section shows the near photos {expected} (now {own_names(accessible)})")
    assert names == expected, f"exactly the near photos, newest first, the undated last: {names}"
    assert settings(app) == {"enabled": True, "folders": []}, "on, in the Pictures folder"
    assert index_file(app).exists(), "the index is in the cache folder"
    photos, read, unchanged, removed, no_position, unreadable, too_large = app.wait_until(
        lambda: index_reports(app) and index_reports(app)[-1], 10, "the index logged its counts")
    # 9 tagged and visible (6 near, 3 far), 2 untagged, the broken, the truncated and the one cut short in its picture;
    # not the hidden one, not the text.
    assert (photos, read, unchanged, removed, no_position, unreadable, too_large) == (9, 14, 0, 0, 2, 3, 0)
    labels = accessible.labels()
    assert f"Your Photos ({len(expected)})" in labels, labels
    assert "From your computer, taken near this place. Removing one here only hides it from this album: the file " \
           "stays where it is." in labels
    assert "From Flickr" in labels and "No Images" in labels
    assert not accessible.exists("Show My Photos", "push button"), "the invitation is gone once they are on"

    # The sideways photo stands up: its dark half on top (a 90° turn clockwise), not on the left as stored.
    sideways = own_tile(accessible, tile_name(next(p for p in pictures.tagged if p.name == "sideways.jpg")))
    (x, y), (width, height) = sideways.position, sideways.size

    def bands() -> dict[str, float]:
        return halves(capture_screen(app.display, app.home / "screen-check.png"), (x, y, width, height))

    def turned():
        shown = bands()
        return shown["top"] < 80 and shown["bottom"] > 170 and abs(shown["left"] - shown["right"]) < 40 and shown
    app.wait_until(turned, 15, lambda: f"the sideways tile at {(x, y, width, height)} shows its dark half on top: "
                   f"{bands()}")
    screenshot("your-photos-over-no-images")

    # Enter on a tile opens the viewer on the user's photo.
    newest = pictures.tagged[0]
    own_tile(accessible, tile_name(newest)).grabFocus()
    app.key("Return")
    accessible.find(newest.name, "frame")
    subtitle = f"Your photo, taken {shown_date(newest.taken)} · 1 of {len(expected)}"
    app.wait_until(lambda: subtitle in accessible.labels(), 5,
                   lambda: f"the viewer's subtitle reads {subtitle!r}: {accessible.labels()}")
    screenshot("viewer")
    assert not any(node.showing for node in accessible.node.findChildren(
        lambda n: n.name == "Open on Flickr" and n.roleName == "push button", showingOnly=False)), \
        "a photo from the user's computer has no Flickr page to open, so no button offers one"

    # Right shows the next, the sideways photo, standing up in the viewer too: dark above, bright below.
    viewer_keys(app, newest.name, "Right")
    frame = accessible.find("sideways.jpg", "frame")
    (fx, fy), (fw, fh) = frame.position, frame.size
    above, below = (round(fx + fw * 0.45), round(fy + fh * 0.3)), (round(fx + fw * 0.45), round(fy + fh * 0.75))

    def standing(image) -> bool:
        return max(image.getpixel(above)) < 80 and min(image.getpixel(below)) > 170
    image = wait_until_screen_shows(app, standing, f"the viewer shows the sideways photo standing: dark at {above}, "
                                    f"bright at {below}")
    image.save(artifacts.path("viewer-sideways.png"))

    # End shows the last, the photo whose file names no date: it says no date rather than a made-up one.
    undated = near(pictures, PARIS)[-1]
    assert undated.taken is None
    viewer_keys(app, "sideways.jpg", "End")
    accessible.find(undated.name, "frame")
    subtitle = f"Your photo · {len(expected)} of {len(expected)}"
    app.wait_until(lambda: subtitle in accessible.labels(), 5,
                   lambda: f"the viewer's subtitle reads {subtitle!r}: {accessible.labels()}")
    viewer_keys(app, undated.name, "Escape")
    app.wait_until(lambda: not accessible.exists(undated.name, "frame"), 5, "Escape closed the viewer")

    # A click hides a photo from this album only; Undo brings it back; hidden again, it stays hidden.
    paris_id = pin_id(app, PARIS)
    bridge = next(p for p in pictures.tagged if p.name == "bridge.jpg")

    def click_tile(name: str) -> None:
        tile = own_tile(accessible, name)
        (tx, ty), (tw, th) = tile.position, tile.size
        user.click(tx + tw // 2, ty + th // 2)

    def hidden_rows():
        return app.query("SELECT pin_id, path FROM hidden_own_photo")
    click_tile(tile_name(bridge))
    app.wait_until(lambda: tile_name(bridge) not in own_names(accessible), 5, "the clicked photo left the section")
    assert own_names(accessible) == [name for name in expected if name != tile_name(bridge)]
    assert REMOVED in accessible.labels(), accessible.labels()
    app.wait_until(lambda: hidden_rows() == [(paris_id, str(pictures.path("bridge.jpg")))], 5,
                   lambda: f"the album keeps the hidden photo: {hidden_rows()}")
    assert f"Your Photos ({len(expected) - 1})" in accessible.labels()
    assert pictures.path("bridge.jpg").exists()
    screenshot("hidden")
    accessible.click("Undo")
    app.wait_until(lambda: own_names(accessible) == expected, 5, "Undo brought it back in its place")
    app.wait_until(lambda: hidden_rows() == [], 5, "Undo deleted the row")
    click_tile(tile_name(bridge))
    app.wait_until(lambda: hidden_rows() == [(paris_id, str(pictures.path("bridge.jpg")))], 5, "hidden again")
    app.wait_until(lambda: tile_name(bridge) not in own_names(accessible), 5, "hidden again on screen")
    # Delete on a focused tile hides it too.
    undated = next(p for p in pictures.tagged if p.name == "undated.jpg")
    own_tile(accessible, tile_name(undated)).grabFocus()
    app.key("Delete")
    shown_after_hiding = [name for name in expected if name not in (tile_name(bridge), tile_name(undated))]
    app.wait_until(lambda: own_names(accessible) == shown_after_hiding, 5, "Delete hid the focused photo")
    app.wait_until(lambda: sorted(hidden_rows()) == [(paris_id, str(pictures.path(name)))
                                                     for name in ("bridge.jpg", "undated.jpg")], 5,
                   lambda: f"both photos are hidden from Paris' album: {hidden_rows()}")

    # Le Marais, 70 m away, has Flickr's photos: the user's are above them, under their own heading.
    app.key("Escape")
    app.wait_until(lambda: not accessible.exists("Back", "push button"), 5, "back in My Places")
    app.key("Down", "Return")
    accessible.find("Back", "push button")
    marais_expected = [tile_name(p) for p in near(pictures, MARAIS)]
    app.wait_until(lambda: own_names(accessible) == marais_expected, 15,
                   lambda: f"Le Marais shows its near photos {marais_expected}: {own_names(accessible)}")
    flickr_tiles = wait_for_flickr_album(app, accessible, pin_id(app, MARAIS))
    section = own_section(accessible)
    assert section.position[1] + section.size[1] <= min(t.position[1] for t in flickr_tiles if t.showing), \
        "the user's photos are above Flickr's"
    assert "From Flickr" in accessible.labels()
    screenshot("your-photos-over-flickr")

    # A restart reads nothing again, and the hidden photo stays hidden.
    assert app.quit() == 0
    app.start()
    accessible = AccessibleApp()
    reports = app.wait_until(lambda: index_reports(app), 20, "the index was brought up to date at start")
    assert reports[-1] == (9, 0, 14, 0, 2, 3, 0), f"nothing read again, every file unchanged: {reports}"
    app.key("F9")
    paris_row = app.wait_until(lambda: (row := place_row(accessible, PARIS)) and "yours" in row and row, 10,
                               lambda: f"My Places' row for Paris counts the user's photos: "
                               f"{place_row(accessible, PARIS)}")
    app.key("Return")
    accessible.find("Back", "push button")
    app.wait_until(lambda: own_names(accessible) == shown_after_hiding, 15,
                   lambda: f"after a restart the hidden photo stays hidden: {own_names(accessible)}")
    screenshot("after-restart")
    assert re.fullmatch(rf"{re.escape(PARIS[0])}, 0 photos, \d+ of yours", paris_row), paris_row
    assert pictures.hashes() == before_hashes, "every file is byte for byte as it was"
    assert pictures.stamps() == before_stamps, "and none was even touched"


def test_photos_added_to_the_folder_while_the_album_is_open_appear_and_deleted_ones_go(make_app, flickr, user,
                                                                                        screenshot, tmp_path):
    app = make_app()
    pictures = PicturesFolder(app.home)
    pictures.add_untagged("scan-001.jpg")
    accessible = start_with_own_photos_on(app)
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    wait_for_flickr_album(app, accessible, pin[0])
    assert own_names(accessible) == []

    # A camera import: written elsewhere, then moved in; and a copy written in place.
    here = pin[1], pin[2]
    first = pictures.add_tagged("import.jpg", offset(*here, 1.0, 0), "2026:01:01 10:00:00", into=tmp_path)
    pictures.path("Imports").mkdir()
    shutil.move(tmp_path / "import.jpg", pictures.path("Imports/import.jpg"))
    app.wait_until(lambda: own_names(accessible) == [tile_name(first)], 10,
                   lambda: f"the moved-in photo appeared: {own_names(accessible)}")
    second = pictures.add_tagged("copied.jpg", offset(*here, 0, 2.0), "2026:02:02 10:00:00", (200, 80, 80))
    app.wait_until(lambda: own_names(accessible) == [tile_name(second), tile_name(first)], 10,
                   lambda: f"the copied photo appeared, newest first: {own_names(accessible)}")
    assert "Your Photos (2)" in accessible.labels()
    screenshot("appeared")

    pictures.path("Imports/import.jpg").unlink()
    app.wait_until(lambda: own_names(accessible) == [tile_name(second)], 10,
                   lambda: f"the deleted photo went: {own_names(accessible)}")
    screenshot("deleted")


def start_with_own_photos_on(app):
    """Starts `app` with own photos turned on in its settings (as after the invitation or Preferences), once indexed."""
    settings_folder = app.home / "config" / "virtual-tourist"
    settings_folder.mkdir(parents=True, exist_ok=True)
    (settings_folder / "own-photos.json").write_text(json.dumps({"enabled": True, "folders": []}))
    app.start()
    accessible = AccessibleApp()
    app.wait_until(lambda: index_reports(app), 20, "the folder was indexed at start")
    return accessible


def started_with_own_photos_on(make_app, flickr):
    """The seeded app with own photos turned on before its start (as after the invitation or Preferences)."""
    app = seeded_app(make_app, flickr)
    pictures = make_pictures(app.home)
    accessible = start_with_own_photos_on(app)
    return app, accessible, pictures


def click_middle(user, node) -> None:
    (x, y), (width, height) = node.position, node.size
    user.click(x + width // 2, y + height // 2)


def test_preferences_and_my_places_show_the_own_photos(make_app, flickr, user, screenshot):
    app, accessible, pictures = started_with_own_photos_on(make_app, flickr)

    # Preferences: the switch is on, the Pictures folder is the default one, and what the index holds.
    app.key("ctrl+comma")
    switch = accessible.find("Show your own photos in albums", "toggle button")
    assert switch.checked, "the switch is on"
    labels = accessible.labels()
    assert "~/Pictures" in labels and "Default" in labels, f"the Pictures folder is listed, as the default: {labels}"
    assert "9 photos · 2 without a position · 3 unreadable" in labels, f"what the index holds: {labels}"
    screenshot("preferences")
    assert index_file(app).exists()

    # Turned off: at once, and the index, which says where the user has been, is deleted.
    click_middle(user, switch)
    app.wait_until(lambda: settings(app)["enabled"] is False, 5, lambda: f"turned off: {settings(app)}")
    app.wait_until(lambda: not index_file(app).exists(), 5, "the index was deleted")
    screenshot("preferences-off")
    accessible.click("Cancel")
    app.wait_until(lambda: not accessible.exists("Show your own photos in albums", "toggle button"), 5,
                   "Preferences closed")
    open_from_my_places(app, accessible)
    accessible.find("Show My Photos", "push button")
    assert own_names(accessible) == [], "no own photos while they are off"
    app.key("Escape")
    app.wait_until(lambda: not accessible.exists("Back", "push button"), 5, "back in My Places")
    app.key("F9")
    app.wait_until(lambda: place_row(accessible, PARIS) is None, 5, "My Places closed")

    # On again from Preferences: the folder is indexed again from nothing.
    app.key("ctrl+comma")
    click_middle(user, accessible.find("Show your own photos in albums", "toggle button"))
    app.wait_until(lambda: len(index_reports(app)) == 2, 10, "indexed again")
    assert index_reports(app)[-1] == (9, 14, 0, 0, 2, 3, 0), index_reports(app)
    accessible.click("Cancel")
    app.wait_until(lambda: not accessible.exists("Show your own photos in albums", "toggle button"), 5,
                   "Preferences closed")

    # My Places: each row says how many of the user's photos are near it.
    app.key("F9")
    expected = f"{PARIS[0]}, 0 photos, {len(near(pictures, PARIS))} of yours"
    app.wait_until(lambda: place_row(accessible, PARIS) == expected, 10,
                   lambda: f"My Places' row for Paris reads {expected!r}: {place_row(accessible, PARIS)!r}")
    assert place_row(accessible, MARAIS) == f"{MARAIS[0]}, 0 photos, {len(near(pictures, MARAIS))} of yours"
    assert any(label.startswith(f"0 photos · {len(near(pictures, PARIS))} of yours · added ")
               for label in accessible.labels()), f"the row's line under the name: {accessible.labels()}"
    screenshot("my-places")


def test_my_places_counts_what_the_album_shows_after_a_photo_is_hidden(make_app, flickr, user, screenshot):
    app, accessible, pictures = started_with_own_photos_on(make_app, flickr)
    shown = [tile_name(p) for p in near(pictures, PARIS)]
    open_from_my_places(app, accessible)
    app.wait_until(lambda: own_names(accessible) == shown, 15,
                   lambda: f"the album shows {shown}: {own_names(accessible)}")
    tile = own_tile(accessible, shown[0])
    (x, y), (width, height) = tile.position, tile.size
    user.click(x + width // 2, y + height // 2)
    app.wait_until(lambda: own_names(accessible) == shown[1:], 5, "the photo was hidden from Paris' album")
    assert f"Your Photos ({len(shown) - 1})" in accessible.labels()

    # Back in My Places: Paris counts one fewer, as its album shows; Le Marais, whose album still shows it, does not.
    app.key("Escape")
    app.wait_until(lambda: not accessible.exists("Back", "push button"), 5, "back in My Places")
    expected = f"{PARIS[0]}, 0 photos, {len(shown) - 1} of yours"
    app.wait_until(lambda: place_row(accessible, PARIS) == expected, 5,
                   lambda: f"My Places counts what Paris' album shows ('Your Photos ({len(shown) - 1})'), "
                   f"{expected!r}: {place_row(accessible, PARIS)!r}")
    screenshot("my-places-after-hiding")
    assert place_row(accessible, MARAIS) == f"{MARAIS[0]}, 0 photos, {len(near(pictures, MARAIS))} of yours"


def test_an_album_opened_with_own_photos_on_and_nothing_on_flickr_shows_them_in_one_row(make_app, flickr,
                                                                                      screenshot):
    app, accessible, pictures = started_with_own_photos_on(make_app, flickr)
    shown = [tile_name(p) for p in near(pictures, PARIS)]
    window_before = app.window_geometry()
    open_from_my_places(app, accessible)
    accessible.find("No Images", "label")
    app.wait_until(lambda: own_names(accessible) == shown, 15,
                   lambda: f"the album shows {shown}: {own_names(accessible)}")
    assert not accessible.exists("Show My Photos", "push button"), "no invitation while they are on"
    screenshot("own-photos-over-no-images")
    assert len({tile.position[1] for tile in own_tiles(accessible)}) == 1, "one row over a status page"
    x, y, width, height = accessible.extents("New Collection", "push button")
    window_after = app.window_geometry()
    assert window_after == window_before and y + height <= window_before[1] + window_before[3], \
        f"the window kept its size {window_before} (now {window_after}) and its bottom bar stays in it " \
        f"(New Collection's bottom at {y + height})"
    criticals = [line for line in app.log_text().splitlines() if "CRITICAL" in line]
    assert not criticals, f"GTK found nothing wrong while the section was sized: {criticals}"


def test_your_photos_follow_the_albums_year_and_my_places_counts_them(make_app, flickr, user, screenshot):
    """Issue 46 point 5: "Photos from" is the album's time, for the user's photos too (their camera dates)."""
    app, accessible, pictures = started_with_own_photos_on(make_app, flickr)
    paris = pin_id(app, PARIS)

    def taken_in(first: int, last: int) -> list[str]:
        return [tile_name(p) for p in near(pictures, PARIS) if p.taken and first <= int(p.taken[:4]) <= last]

    every = [tile_name(p) for p in near(pictures, PARIS)]
    open_from_my_places(app, accessible)
    app.wait_until(lambda: own_names(accessible) == every, 15, lambda: f"every near photo first: {own_names(accessible)}")
    choose(accessible, "Photos from", "2010s")
    app.wait_until(lambda: album_time(app, paris) == (2010, 2019), 15, "the album is of the 2010s")
    decade = taken_in(2010, 2019)
    assert decade and len(decade) < len(every), "the folder has photos of the 2010s and others"
    app.wait_until(lambda: own_names(accessible) == decade, 10,
                   lambda: f"only the photos taken in the 2010s ({decade}), the undated left out: {own_names(accessible)}")

    choose(accessible, "Year", "2015")
    app.wait_until(lambda: album_time(app, paris) == (2015, 2015), 15, "the album is of 2015")
    in_2015 = taken_in(2015, 2015)
    assert len(in_2015) == 1
    app.wait_until(lambda: own_names(accessible) == in_2015, 10, lambda: f"2015's photo alone: {own_names(accessible)}")
    assert "Your Photos (1)" in accessible.labels()
    screenshot("your-photos-of-2015")

    # My Places counts what the album shows: one of 2015.
    app.key("Escape")
    app.wait_until(lambda: not accessible.exists("Back", "push button"), 5, "back in My Places")
    expected = f"{PARIS[0]}, 0 photos, 1 of yours"
    app.wait_until(lambda: place_row(accessible, PARIS) == expected, 10,
                   lambda: f"My Places' row reads {expected!r}: {place_row(accessible, PARIS)!r}")
    assert place_row(accessible, MARAIS) == f"{MARAIS[0]}, 0 photos, {len(near(pictures, MARAIS))} of yours", \
        "Le Marais' album still shows any time"

    # Any time again: every photo is back.
    app.key("Return")
    accessible.find("Back", "push button")
    choose(accessible, "Photos from", "Any time")
    app.wait_until(lambda: album_time(app, paris) in (None, (None, None)), 15, "the album is of any time")
    app.wait_until(lambda: own_names(accessible) == every, 10, lambda: f"every near photo again: {own_names(accessible)}")
