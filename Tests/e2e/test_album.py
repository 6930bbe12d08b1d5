"""Issue 4: photo albums from (a local, Flickr-compatible) Flickr: prefetch, placeholders that fill
in, No Images, New Collection, click-to-delete, reopening from disk, and the API key."""

from __future__ import annotations

from harness.accessibility import AccessibleApp
from harness.map import drop_pin, map_box
from harness.screenshots import shows_near, wait_until_screen_shows
from test_pins import is_pin_red

LOADING = "Photo loading"


def drop_album_pin(app, user, accessible) -> tuple[tuple, tuple[int, int]]:
    """Drops a pin in the middle of the map; returns its row and a point on its head."""
    box = map_box(accessible)
    return drop_pin(app, user, accessible, (box[0] + 450, box[1] + 300))


def photo_tiles(accessible: AccessibleApp) -> list:
    return [node for node in accessible.node.findChildren(lambda n: n.roleName == "list item", showingOnly=False)
            if node.showing]


def tile_names(accessible: AccessibleApp) -> list[str]:
    return [node.name for node in photo_tiles(accessible)]


def new_collection_enabled(accessible: AccessibleApp) -> bool:
    return accessible.find("New Collection", "push button").sensitive


def wait_until_pin_drawn(app, head: tuple[int, int]) -> None:
    """Waits until the map shows the pin whose head is at `head`: the app is up and the pin can be clicked."""
    wait_until_screen_shows(app, lambda image: shows_near(image, head, is_pin_red), f"the map drew the pin at {head}")


def start_and_open_album(app, user, head: tuple[int, int]) -> AccessibleApp:
    """Starts the (stopped) app and clicks the pin whose head is at `head` once the map draws it."""
    app.start()
    accessible = AccessibleApp()
    wait_until_pin_drawn(app, head)
    user.click(*head)
    return accessible


def shown_whole(app, accessible, pin_id: int) -> list[tuple]:
    """The pin's photos once every one is on disk and shown (none loading); falsy until then."""
    photos = app.photos(pin_id)
    names = tile_names(accessible)
    return photos and all(path for _, _, path in photos) and len(names) == len(photos) and LOADING not in names \
        and photos


def wait_for_complete_album(app, accessible, pin_id: int, timeout: float = 30) -> list[tuple]:
    def complete():
        return (photos := shown_whole(app, accessible, pin_id)) and new_collection_enabled(accessible) and photos
    return app.wait_until(complete, timeout, "every photo arrived and is shown, and New Collection is enabled")


def test_a_dropped_pin_prefetches_and_placeholders_turn_into_photos(app, flickr, user, accessible, screenshot):
    flickr.control({"image_delay": 0.6})
    pin, head = drop_album_pin(app, user, accessible)
    pin_id = pin[0]
    app.wait_until(lambda: flickr.requests("image"), 10, "photos started downloading before the album was opened")

    user.click(*head)
    accessible.find("Back", "push button")
    names = app.wait_until(lambda: (n := tile_names(accessible)) and n, 10, "the grid has tiles")
    # Read together, before the screenshot (which takes a while on a busy machine, long enough for the
    # album to finish).
    enabled_while_loading = new_collection_enabled(accessible)
    screenshot("placeholders")
    assert LOADING in names, f"placeholders stand for photos still downloading: {names}"
    assert not enabled_while_loading, "New Collection waits for the album to complete"
    expected = len(app.photos(pin_id))
    assert len(names) == expected == min(30, 26), "one tile per expected photo"

    photos = wait_for_complete_album(app, accessible, pin_id)
    screenshot("photos")
    assert len(flickr.requests("search")) == 1, "opening the album joined the prefetch: one search"
    files = app.photo_files()
    assert len(files) == len(photos)
    assert {path.name for path in files} == {path.rsplit("/", 1)[1] for _, _, path in photos}
    assert not [path for path in files if path.suffix == ".part"]


def test_the_search_starts_while_the_pin_is_held_and_follows_it_only_when_it_moves_far(app, flickr, user,
                                                                                     accessible):
    left, top, _, _ = map_box(accessible)
    x, y = left + 300, top + 300
    user.mouse_down(x, y)
    try:
        app.wait_until(lambda: flickr.requests("search"), 5, "the search started while the pin is still held")
        assert app.pins(), "the pin was stored when it dropped"
    finally:
        user.mouse_up()  # released where it dropped: the search is kept
    pin_id = app.pins()[-1][0]
    app.wait_until(lambda: (p := app.photos(pin_id)) and all(path for _, _, path in p), 20, "the album filled")
    assert len(flickr.requests("search")) == 1, "releasing the pin where it dropped made no second search"

    # Held again and dragged far away before release: its album follows it.
    user.mouse_down(x + 200, y)
    try:
        app.wait_until(lambda: len(flickr.requests("search")) == 2, 5, "the second pin's search started while held")
        user.mousemove(x + 260, y + 60)
        user.mousemove(x + 320, y + 120)
    finally:
        user.mouse_up()
    app.wait_until(lambda: len(flickr.requests("search")) == 3, 10, "the far release searched again")
    first_search, last_search = (flickr.requests("search")[i]["query"] for i in (1, 2))

    def released_pin():
        pins = app.pins()
        return len(pins) == 2 and abs(float(last_search["lat"]) - pins[1][1]) < 1e-6 \
            and abs(float(last_search["lon"]) - pins[1][2]) < 1e-6 and pins[1]
    app.wait_until(released_pin, 5, lambda: f"the new search {last_search} is for where the pin was released: {app.pins()}")
    assert (first_search["lat"], first_search["lon"]) != (last_search["lat"], last_search["lon"])


def test_clicking_a_photo_deletes_it_and_the_others_close_the_gap(app, flickr, user, accessible, screenshot):
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    photos = wait_for_complete_album(app, accessible, pin[0])
    first_tile, second_tile = photo_tiles(accessible)[:2]
    (x, y), (width, height) = first_tile.position, first_tile.size
    second_name = second_tile.name

    user.click(x + width // 2, y + height // 2)
    app.wait_until(lambda: len(app.photos(pin[0])) == len(photos) - 1, 5, "the photo row was deleted")
    remaining = app.photos(pin[0])
    assert photos[0][0] not in [row[0] for row in remaining]
    app.wait_until(lambda: len(photo_tiles(accessible)) == len(photos) - 1, 5, "the grid lost one tile")

    def gap_closed() -> bool:
        # The next photo now takes the first slot: first in the grid, top row, leftmost. (The slot
        # itself may shift by a few pixels as GTK spreads the row's spare width again.)
        tiles = photo_tiles(accessible)
        (new_x, new_y), (row_x, _) = tiles[0].position, tiles[1].position
        return tiles[0].name == second_name and new_y == y and new_x < row_x and abs(new_x - x) < width // 4
    app.wait_until(gap_closed, 5, lambda: f"the next photo moved up into the first slot near {(x, y)} (now "
                   f"{[(t.name, t.position) for t in photo_tiles(accessible)[:3]]})")
    screenshot("after-delete")

    # Undo brings it back; leaving the album makes the other deletion final, file and all.
    accessible.click("Undo")
    app.wait_until(lambda: len(app.photos(pin[0])) == len(photos), 5, "Undo restored the photo")
    second = photo_tiles(accessible)[1]
    (x2, y2), (w2, h2) = second.position, second.size
    user.click(x2 + w2 // 2, y2 + h2 // 2)
    app.wait_until(lambda: len(app.photos(pin[0])) == len(photos) - 1, 5, "the second photo was deleted")
    deleted_file = app.data_folder / photos[1][2]
    assert deleted_file.exists(), "kept while Undo is possible"
    accessible.click("Back")
    app.wait_until(lambda: not deleted_file.exists(), 5, "the file went once the album was left")
    assert len(app.photo_files()) == len(photos) - 1


def test_new_collection_replaces_the_album_with_different_photos(app, flickr, user, accessible, screenshot):
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    first = wait_for_complete_album(app, accessible, pin[0])
    old_files = set(app.photo_files())

    accessible.click("New Collection")
    app.wait_until(lambda: {row[1] for row in app.photos(pin[0])}.isdisjoint({row[1] for row in first})
                   and app.photos(pin[0]), 15, "the album holds other photos")
    second = wait_for_complete_album(app, accessible, pin[0])
    screenshot("new-collection")
    assert {row[1] for row in second}.isdisjoint({row[1] for row in first})
    assert old_files.isdisjoint(set(app.photo_files())), "the old files are gone"
    assert len(app.photo_files()) == len(second)
    pages = {entry["query"].get("page") for entry in flickr.requests("search")}
    assert len(pages) == 2 and "1" in pages, f"a different page was asked for: {pages}"


def test_an_album_on_disk_reopens_at_once_without_any_request(app, flickr, user, accessible, screenshot):
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    photos = wait_for_complete_album(app, accessible, pin[0])
    assert app.quit() == 0
    requests_before = len(flickr.requests())

    accessible = start_and_open_album(app, user, head)
    accessible.find("Back", "push button")
    wait_for_complete_album(app, accessible, pin[0], timeout=5)
    screenshot("reopened")
    assert len(flickr.requests()) == requests_before, "no search and no download for an album on disk"
    assert app.photos(pin[0]) == photos


def test_deleting_a_pin_removes_its_photos_and_files(app, flickr, user, accessible):
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    wait_for_complete_album(app, accessible, pin[0])
    accessible.click("Back")
    app.wait_until(lambda: not accessible.exists("Back", "push button"), 5, "the map is back on screen")
    wait_until_pin_drawn(app, head)  # the page has slid away: the right-click lands on the pin
    assert app.photo_files()

    user.click(*head, button=3)
    accessible.click("Delete Pin", "menu item")
    app.wait_until(lambda: app.pins() == [] and app.query("SELECT COUNT(*) FROM photo") == [(0,)], 5,
                   "the pin and its photos were deleted")
    assert app.quit() == 0  # quitting closes the undo window
    assert app.photo_files() == [], "no photo files are left"


def test_a_place_without_photos_says_no_images(app, flickr, user, accessible, screenshot):
    flickr.control({"total": 0})
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    accessible.find("No Images", "label")
    screenshot("no-images")
    assert app.photos(pin[0]) == []
    assert not new_collection_enabled(accessible)


def test_a_flickr_outage_explains_itself_and_try_again_recovers(app, flickr, user, accessible, screenshot):
    flickr.control({"faults": [{"target": "search", "kind": "stat_fail", "code": 105,
                                "message": "Service currently unavailable", "times": 2}]})
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    accessible.find("Try Again", "push button")
    assert any("unavailable" in label for label in accessible.labels()), accessible.labels()
    screenshot("outage")
    flickr.control({"faults": []})
    accessible.click("Try Again")
    wait_for_complete_album(app, accessible, pin[0])


def test_without_an_api_key_the_album_explains_and_preferences_fixes_it(make_app, flickr, user, screenshot):
    app = make_app(flickr_key=None).start()
    accessible = AccessibleApp()
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    accessible.find("A Flickr API Key Is Needed", "label")
    screenshot("no-key")
    assert flickr.requests("search") == [], "nothing is sent without a key"

    accessible.click("Preferences")
    entry = accessible.find("Flickr API key", "text")
    entry.grabFocus()
    user.key("ctrl+a")
    from harness.xdotool import xdotool
    xdotool(app.display, "type", "--delay", 20, "my-own-flickr-key")
    accessible.click("Save")
    wait_for_complete_album(app, accessible, pin[0])
    keys = {entry["query"].get("api_key") for entry in flickr.requests("search")}
    assert keys == {"my-own-flickr-key"}
    saved = app.home / "config" / "virtual-tourist" / "flickr-api-key"
    assert saved.read_text().strip() == "my-own-flickr-key"
    assert saved.stat().st_mode & 0o777 == 0o600, "readable only by the user"
    assert "my-own-flickr-key" not in app.log_text(), "the key never reaches the log"


def test_a_failed_photo_shows_an_error_tile_that_a_click_retries(app, flickr, user, accessible, screenshot):
    flickr.control({"faults": [{"target": "image", "kind": "html", "times": 1}]})
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    failed = app.wait_until(
        lambda: [node for node in photo_tiles(accessible) if node.name.endswith("download failed")], 15,
        "one tile shows that its photo could not be downloaded")
    app.wait_until(lambda: new_collection_enabled(accessible), 15, "arrived or failed: the album is complete")
    screenshot("failed-photo")
    assert len(failed) == 1
    assert len([row for row in app.photos(pin[0]) if row[2] is None]) == 1

    (x, y), (width, height) = failed[0].position, failed[0].size
    user.click(x + width // 2, y + height // 2)
    wait_for_complete_album(app, accessible, pin[0])
    assert all(path for _, _, path in app.photos(pin[0]))


def test_a_photos_menu_names_who_took_it_and_links_to_flickr(app, flickr, user, accessible, screenshot):
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    wait_for_complete_album(app, accessible, pin[0])
    owner = app.query("SELECT COALESCE(owner_name, owner_id) FROM photo WHERE pin_id = ? ORDER BY position LIMIT 1",
                      (pin[0],))[0][0]
    tile = photo_tiles(accessible)[0]
    (x, y), (width, height) = tile.position, tile.size

    user.click(x + width // 2, y + height // 2, button=3)
    accessible.find(f"Photo by {owner}", "menu item")
    accessible.find("Open on Flickr", "menu item")
    screenshot("photo-menu")
    user.key("Escape")
    assert len(app.photos(pin[0])) == len(photo_tiles(accessible)), "the menu deleted nothing"


def test_about_credits_flickr_and_openstreetmap(app, accessible, screenshot):
    accessible.click("Main Menu", "toggle button")
    accessible.click("About Virtual Tourist")
    disclaimer = "not endorsed or certified by SmugMug"
    app.wait_until(lambda: any(disclaimer in label for label in accessible.labels()), 10,
                   "the About dialog carries the Flickr disclaimer")
    accessible.click("Credits", "toggle button")
    app.wait_until(lambda: any("OpenStreetMap" in label for label in accessible.labels()), 10,
                   "the credits name OpenStreetMap's contributors")
    screenshot("about-credits")
    labels = accessible.labels()
    assert any("GeoNames" in label for label in labels), f"place names credit GeoNames: {labels}"


def test_killing_the_app_mid_download_loses_nothing(app, flickr, user, accessible):
    flickr.control({"image_delay": 0.5})
    pin, head = drop_album_pin(app, user, accessible)
    app.wait_until(lambda: any(path for _, _, path in app.photos(pin[0])), 15, "some photos arrived")
    app.process.kill()  # SIGKILL: no chance to tidy up
    app.process.wait(10)
    rows = app.photos(pin[0])
    assert any(path is None for _, _, path in rows), "the kill came mid-download"
    named = {app.data_folder / path for _, _, path in rows if path}
    assert set(app.photo_files()) - named <= {path for path in app.photo_files() if path.suffix == ".part"}, \
        "every complete file on disk belongs to a row"

    flickr.control({"image_delay": 0.0})
    searches = len(flickr.requests("search"))
    app.start()
    accessible = AccessibleApp()
    assert not [path for path in app.photo_files() if path.suffix == ".part"], "start-up sweeps partial files"
    wait_until_pin_drawn(app, head)
    user.click(*head)
    photos = wait_for_complete_album(app, accessible, pin[0])
    assert [row[0] for row in photos] == [row[0] for row in rows], "the same album, resumed"
    assert len(flickr.requests("search")) == searches, "resuming needs no new search"
    assert {app.data_folder / path for _, _, path in photos} == set(app.photo_files())
