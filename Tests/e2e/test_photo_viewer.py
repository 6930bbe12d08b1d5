"""Issue 11, items 4 and 5: the album's photos with the keyboard alone (arrows move, Delete removes with
Undo, Ctrl+Z restores, Enter views), and the photo viewer: Flickr's bigger size fetched on demand and
kept, title, photographer and license, arrows through the album, Open on Flickr; a single click in the
grid still removes a photo."""

from __future__ import annotations

import sqlite3
import time

from harness.accessibility import AccessibleApp
from harness.xdotool import xdotool

PARIS = ("Paris, Île-de-France, France", 48.8566, 2.3522)
LOADING = "Photo loading"


def album_app(make_app):
    """The app with one named pin, its album opened from My Places with the keyboard and complete."""
    app = make_app().start()
    assert app.quit() == 0
    with sqlite3.connect(app.database_path) as database:
        database.execute("INSERT INTO pin(latitude, longitude, created_at, place_name, place_name_source) "
                         "VALUES (?, ?, 800000000.0, ?, 'offline')", (PARIS[1], PARIS[2], PARIS[0]))
    app.start()
    accessible = AccessibleApp()
    app.key("F9")
    accessible.find(f"{PARIS[0]}, 0 photos", "list item")
    app.key("Return")
    accessible.find("Back", "push button")
    pin_id = app.pins()[0][0]
    app.wait_until(lambda: (p := app.photos(pin_id)) and all(path for _, _, path in p)
                   and accessible.find("New Collection", "push button").sensitive, 30, "the album is complete")
    app.wait_until(lambda: LOADING not in tile_names(accessible), 10, "every tile shows its photo")
    return app, accessible, pin_id


def tiles(accessible: AccessibleApp) -> list:
    return [node for node in accessible.node.findChildren(lambda n: n.roleName == "list item", showingOnly=False)
            if node.showing and not node.name.endswith(" photos") and not node.name.endswith(" photo")]


def tile_names(accessible: AccessibleApp) -> list[str]:
    return [node.name for node in tiles(accessible)]


def focused_tile(accessible: AccessibleApp) -> str | None:
    return next((node.name for node in tiles(accessible) if node.focused), None)


def titles(app, pin_id: int) -> list[tuple[int, str]]:
    return app.query("SELECT id, coalesce(title, '') FROM photo WHERE pin_id = ? ORDER BY position, id", (pin_id,))


def title_shown(title: str) -> str:
    return title if title else "Untitled photo"


def viewer_keys(app, title: str, *keys: str) -> None:
    """Keys into the viewer's own window (no window manager here to give it the focus)."""
    found = xdotool(app.display, "search", "--sync", "--name", f"^{title}$").stdout.split()
    xdotool(app.display, "windowfocus", "--sync", found[-1])
    xdotool(app.display, "key", "--delay", 50, *keys)


def test_the_keyboard_moves_through_the_photos_removes_restores_and_views_them(make_app, flickr, screenshot):
    app, accessible, pin_id = album_app(make_app)
    photos = titles(app, pin_id)
    count = len(photos)

    # The album opened with its first photo holding the keyboard; Right moves to the second.
    app.wait_until(lambda: focused_tile(accessible) is not None, 5, "a photo has the keyboard")
    first = focused_tile(accessible)
    app.key("Right")
    app.wait_until(lambda: focused_tile(accessible) not in (None, first), 5, "Right moved to the next photo")
    second_id = photos[1][0]

    # Delete removes the focused photo with Undo offered; the next one takes the keyboard.
    app.key("Delete")
    app.wait_until(lambda: len(app.photos(pin_id)) == count - 1, 5, "Delete removed a photo")
    assert second_id not in [row[0] for row in app.photos(pin_id)], "the focused (second) photo went"
    assert "Photo removed" in accessible.labels()
    app.wait_until(lambda: focused_tile(accessible) is not None, 5, "the next photo has the keyboard")
    screenshot("photo-removed")
    app.key("ctrl+z")
    app.wait_until(lambda: len(app.photos(pin_id)) == count, 5, "Ctrl+Z restored the photo")
    assert second_id in [row[0] for row in app.photos(pin_id)]

    # Enter views the focused photo: its bigger size is fetched, once.
    app.key("Home")
    app.wait_until(lambda: focused_tile(accessible) == tile_names(accessible)[0], 5, "Home went to the first photo")
    images_before = len(flickr.requests("image"))
    app.key("Return")
    title = title_shown(photos[0][1])
    accessible.find(title, "frame")
    large = app.wait_until(lambda: [r for r in flickr.requests("image")[images_before:]
                                    if r["path"].endswith(("_b.jpg", "_z.jpg"))], 10, "the bigger size was fetched")
    assert len(large) == 1
    byline = app.query("SELECT owner_name, license FROM photo WHERE id = ?", (photos[0][0],))[0]
    labels = accessible.labels()
    subtitle = next((label for label in labels if label.startswith("by ")), "")
    assert f"1 of {count}" in subtitle, subtitle
    if byline[0]:
        assert byline[0] in subtitle, subtitle
    assert accessible.find("Open on Flickr", "push button").sensitive
    cached = app.wait_until(lambda: list((app.tile_cache.parent / "large-photos").glob("*.jpg")),
                            10, "the bigger size is kept in the cache")
    assert len(cached) == 1
    time.sleep(0.5)
    screenshot("viewer")

    # Right shows the next photo; Escape closes the viewer and the grid still has the keyboard.
    viewer_keys(app, title, "Right")
    accessible.find(title_shown(photos[1][1]), "frame")
    viewer_keys(app, title_shown(photos[1][1]), "Left")
    accessible.find(title, "frame")
    viewer_keys(app, title, "Escape")
    app.wait_until(lambda: not accessible.exists(title, "frame"), 5, "Escape closed the viewer")

    # Viewing the same photo again asks nothing: the bigger size comes from the cache.
    images_before = len(flickr.requests("image"))
    app.key("Return")
    accessible.find(title, "frame")
    time.sleep(1)  # a pause, not a wait: a request for the bigger size would have been made by now
    assert flickr.requests("image")[images_before:] == [], "the second view used the cached file"
    viewer_keys(app, title, "Escape")
    app.wait_until(lambda: not accessible.exists(title, "frame"), 5, "Escape closed the viewer")


def test_the_photo_menu_views_a_photo_and_a_single_click_still_removes_one(make_app, flickr, user, screenshot):
    app, accessible, pin_id = album_app(make_app)
    photos = titles(app, pin_id)
    count = len(photos)

    # The secondary click's menu has View Larger.
    (x, y), (width, height) = tiles(accessible)[2].position, tiles(accessible)[2].size
    user.click(x + width // 2, y + height // 2, button=3)
    accessible.click("View Larger", "menu item")
    title = title_shown(photos[2][1])
    frame = accessible.find(title, "frame")
    assert f"3 of {count}" in " ".join(accessible.labels())
    # A swipe to the left (here a quick drag) brings the next photo, one to the right the previous one.
    (fx, fy), (fw, fh) = frame.position, frame.size
    user.drag(fx + fw * 3 // 4, fy + fh // 2, fx + fw // 4, fy + fh // 2, steps=8, step_delay=0.02)
    frame = accessible.find(title_shown(photos[3][1]), "frame")
    user.drag(fx + fw // 4, fy + fh // 2, fx + fw * 3 // 4, fy + fh // 2, steps=8, step_delay=0.02)
    frame = accessible.find(title, "frame")
    # The header bar's close button closes it.
    close = [node for node in frame.findChildren(lambda n: n.roleName == "push button" and n.name == "Close",
                                                 showingOnly=False) if node.showing]
    assert close, "the viewer has a close button"
    (cx, cy), (cw, ch) = close[0].position, close[0].size
    user.click(cx + cw // 2, cy + ch // 2)
    app.wait_until(lambda: not accessible.exists(title, "frame"), 5, "the close button closed the viewer")
    assert len(app.photos(pin_id)) == count, "viewing removed nothing"

    # A single click on a photo removes it, as before.
    node = tiles(accessible)[0]
    (tx, ty), (tw, th) = node.position, node.size
    user.click(tx + tw // 2, ty + th // 2)
    app.wait_until(lambda: len(app.photos(pin_id)) == count - 1, 5, "a click removed the photo")
    assert photos[0][0] not in [row[0] for row in app.photos(pin_id)]
    assert not accessible.exists(title_shown(photos[0][1]), "frame"), "a click opens no viewer"
    screenshot("clicked-away")
