"""Issue 7: a Flickr-compatible server that misbehaves — broken, enormous or never-ending photos — and
a failed New Collection that must not eat the Undo of a photo deletion."""

from __future__ import annotations

import time

from harness.accessibility import AccessibleApp
from test_album import drop_album_pin, new_collection_enabled, photo_tiles, tile_names, wait_for_complete_album

FAILED = "download failed"


def peak_memory_megabytes(app) -> int:
    """The app's peak resident memory (VmHWM), in MB."""
    for line in open(f"/proc/{app.process.pid}/status"):
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) // 1024
    raise AssertionError("no VmHWM in /proc/<pid>/status")


def photo_row(app, pin_id: int, index: int) -> tuple:
    """The album's photo whose Flickr id ends with the test server's result index."""
    rows = app.query("SELECT id, flickr_id, file_path FROM photo WHERE pin_id = ? AND flickr_id LIKE ?",
                     (pin_id, f"%{index:05d}"))
    assert rows, f"the album has the search result #{index}"
    return rows[0]


def test_cut_short_and_bomb_images_are_refused_and_a_png_keeps_its_type(app, flickr, user, accessible, screenshot):
    # Result #1 arrives without the second third of its JPEG (with a matching Content-Length),
    # #2 is a 110 KB PNG that would decode to 30,000 x 30,000 pixels, #3 is a PNG under a .jpg name.
    flickr.control({"faults": [
        {"target": "image", "kind": "cut_short", "match": "00001_"},
        {"target": "image", "kind": "bomb", "match": "00002_"},
        {"target": "image", "kind": "png", "match": "00003_"},
    ]})
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    app.wait_until(lambda: new_collection_enabled(accessible), 40, "every photo arrived or failed")
    screenshot("hostile-images")

    cut, bomb, png = (photo_row(app, pin[0], index) for index in (1, 2, 3))
    assert cut[2] is None and bomb[2] is None, "neither the cut JPEG nor the bomb became a photo"
    assert png[2] and png[2].endswith(".png"), f"the PNG keeps its real type: {png[2]}"
    failed = [name for name in tile_names(accessible) if name.endswith(FAILED)]
    assert len(failed) == 2, f"two tiles say their photo could not be downloaded: {failed}"
    assert peak_memory_megabytes(app) < 600, "the bomb was refused from its header, not decoded"
    named = {app.data_folder / row[2] for row in app.query("SELECT id, flickr_id, file_path FROM photo") if row[2]}
    assert set(app.photo_files()) == named, "no file without a row"
    assert not list((app.data_folder / "staging").glob("*")), "nothing left in the staging folder"


def test_a_photo_server_that_never_answers_gives_up_within_the_deadline(app, flickr, user, accessible):
    flickr.control({"faults": [{"target": "image", "kind": "hang", "match": "00001_"}]})
    pin, head = drop_album_pin(app, user, accessible)
    started = time.monotonic()
    user.click(*head)

    app.wait_until(lambda: [name for name in tile_names(accessible) if name.endswith(FAILED)], 40,
                   "the silent photo's tile gives up")
    elapsed = time.monotonic() - started
    assert elapsed < 30, f"a stall gives up after 10 s, retried once (20 s deadline), not minutes: {elapsed:.0f} s"
    hung = [entry for entry in flickr.requests("image") if "00001_" in entry["path"]]
    assert len(hung) == 2, f"a stall is retried once: {len(hung)} requests"
    app.wait_until(lambda: new_collection_enabled(accessible), 10, "the album is complete")


def test_a_failed_new_collection_does_not_take_away_a_deletions_undo(app, flickr, user, accessible, screenshot):
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    photos = wait_for_complete_album(app, accessible, pin[0])

    flickr.control({"faults": [{"target": "search", "kind": "stat_fail", "code": 105}]})
    accessible.click("New Collection")
    app.wait_until(lambda: any("Could Not Be Loaded" in label for label in accessible.labels()), 15,
                   "the failed New Collection is announced")
    tile = photo_tiles(accessible)[0]
    (x, y), (width, height) = tile.position, tile.size
    user.click(x + width // 2, y + height // 2)
    app.wait_until(lambda: len(app.photos(pin[0])) == len(photos) - 1, 5, "the photo was removed")
    time.sleep(1.5)  # the album re-renders with the deletion: the old failure must not come back

    assert "Photo removed" in accessible.labels(), accessible.labels()
    screenshot("undo-after-failed-new-collection")
    accessible.click("Undo")
    app.wait_until(lambda: len(app.photos(pin[0])) == len(photos), 5, "Undo brought the photo back")


def retry_tiles(accessible) -> list:
    """Tiles showing "Click to retry"."""
    return [node for node in photo_tiles(accessible)
            if any(label.name == "Click to retry" and label.showing
                   for label in node.findChildren(lambda n: n.roleName == "label", showingOnly=False))]


def test_a_photo_whose_file_no_longer_decodes_retries_when_clicked(app, flickr, user, accessible, screenshot):
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    photos = wait_for_complete_album(app, accessible, pin[0])
    assert app.quit() == 0
    photo_id, _, broken = photos[0]
    (app.data_folder / broken).write_bytes(b"this was a photo")  # a damaged disk, a stray edit

    app.start()
    accessible = AccessibleApp()
    user.click(*head)
    failed = app.wait_until(lambda: retry_tiles(accessible), 15, "the photo that does not decode shows Click to retry")
    screenshot("undecodable-photo")
    (x, y), (width, height) = failed[0].position, failed[0].size
    user.click(x + width // 2, y + height // 2)

    app.wait_until(lambda: dict((row[0], row[2]) for row in app.photos(pin[0]))[photo_id] not in (None, broken), 15,
                   "clicking it downloaded the photo again, to a new file")
    app.wait_until(lambda: not retry_tiles(accessible), 10, "no tile asks to be retried any more")
    assert len(app.photos(pin[0])) == len(photos), "the click retried; it deleted nothing"
    assert not (app.data_folder / broken).exists(), "the damaged file is gone"
