"""Opening an album from the map: the pin under the pointer gets its album ready (its rows and pictures read
from disk, nothing downloaded), so the click that follows shows the album whole in its first frame."""

from __future__ import annotations

import re
from pathlib import Path

from harness.accessibility import AccessibleApp
from test_album import LOADING, drop_album_pin, tile_names, wait_for_complete_album, wait_until_pin_drawn


def painted(log: str, pin_id: int) -> list[tuple[int, int]]:
    """Each frame that drew the album's grid after photos were shown: (photos shown, photos in the album)."""
    return [(int(shown), int(total))
            for shown, total in re.findall(rf"album {pin_id}: photos painted, ([0-9]+) of ([0-9]+)", log)]


def shown(log: str, pin_id: int, source: str) -> int:
    """Photos of the album shown from `source`, as the log tells them (a line for each, or one for a whole grid)."""
    return sum(int(count) for count in re.findall(rf"album {pin_id}: ([0-9]+) photos? shown \({re.escape(source)}\)", log))


def shown_from_disk(log: str, pin_id: int) -> int:
    return shown(log, pin_id, "read from its thumbnail")


def downloaded_album(make_app, user) -> tuple:
    """An app (trace log) with one album downloaded, then quit; returns it, the pin, its head and its photos."""
    app = make_app(extra_environment={"VIRTUAL_TOURIST_LOG": "trace"}).start()
    accessible = AccessibleApp()
    pin, head = drop_album_pin(app, user, accessible)
    user.click(*head)
    photos = wait_for_complete_album(app, accessible, pin[0])
    assert app.quit() == 0
    return app, pin, head, photos


def kept_pictures(app) -> Path:
    """Where the app keeps its albums' grid pictures."""
    return Path(app.environment["XDG_CACHE_HOME"]) / "virtual-tourist" / "thumbnails"


def restart_and_open(app, user, head) -> tuple[AccessibleApp, int]:
    """Starts the app again and clicks the pin at `head` once the map shows it; once the album is on screen, returns
    the app on the accessibility bus and where the log stood at the click."""
    app.start()
    accessible = AccessibleApp()
    wait_until_pin_drawn(app, head)
    start = len(app.log_text())
    user.click(*head)
    accessible.find("Back", "push button")
    return accessible, start


def test_the_pin_under_the_pointer_gets_its_album_ready_and_a_click_shows_it_whole(make_app, flickr, user,
                                                                                   screenshot):
    app, pin, head, photos = downloaded_album(make_app, user)
    requests_before = len(flickr.requests())
    app.start()
    accessible = AccessibleApp()
    wait_until_pin_drawn(app, head)
    user.mousemove(head[0] + 80, head[1] + 80)  # on the map, off the pin
    start = len(app.log_text())
    user.mousemove(*head)
    app.wait_until(lambda: f"album {pin[0]}: made ready" in app.log_text()[start:], 5,
                   "the album of the pin under the pointer was made ready")
    app.wait_until(lambda: shown_from_disk(app.log_text()[start:], pin[0]) == len(photos), 5,
                   "its photos were read from disk before any click")
    assert painted(app.log_text()[start:], pin[0]) == [], "nothing of the album was drawn: it is behind the map"
    assert not accessible.exists("Back", "push button"), "the map is still on screen"

    clicked = len(app.log_text())
    user.click_in_place()
    accessible.find("Back", "push button")
    frames = app.wait_until(lambda: painted(app.log_text()[clicked:], pin[0]), 5, "the album was drawn")
    screenshot("opened whole")
    assert frames[0] == (len(photos), len(photos)), f"the album's first frame shows every photo: {frames}"
    assert shown_from_disk(app.log_text()[clicked:], pin[0]) == 0, "no photo came in after the click"
    names = tile_names(accessible)
    assert len(names) == len(photos) and LOADING not in names, names
    assert len(flickr.requests()) == requests_before, "pointing at a pin and opening its album asked for nothing"


def test_an_album_opened_with_no_pointer_on_its_pin_comes_on_screen_whole(make_app, flickr, user, screenshot):
    """From My Places (the keyboard): nothing foretold the opening, so the page waits for its photos (briefly)
    rather than showing a frame of empty squares."""
    app, pin, head, photos = downloaded_album(make_app, user)
    app.start()
    accessible = AccessibleApp()
    wait_until_pin_drawn(app, head)  # started: the keys that follow are not lost
    user.park_pointer()
    app.key("F9")  # My Places, the keyboard in its list (the first place selected)
    app.wait_until(lambda: accessible.exists("1 place", "label"), 10, "My Places lists the pin")
    start = len(app.log_text())
    app.key("Return")
    accessible.find("Back", "push button")
    frames = app.wait_until(lambda: painted(app.log_text()[start:], pin[0]), 5, "the album was drawn")
    screenshot("opened from my places")
    assert f"album {pin[0]}: made ready" not in app.log_text()[start:]
    assert frames[0] == (len(photos), len(photos)), f"the album's first frame shows every photo: {frames}"


def test_an_album_fetched_at_its_drop_and_opened_after_a_restart_is_read_not_decoded_again(make_app, flickr, user,
                                                                                          screenshot):
    """Decode once: each photo's grid picture is kept from its download's decode as it comes into the album, whether
    or not the album is open, so opening it for the first time after a restart decodes none of its photos."""
    app = make_app(extra_environment={"VIRTUAL_TOURIST_LOG": "trace"}).start()
    accessible = AccessibleApp()
    pin, head = drop_album_pin(app, user, accessible)  # and not opened
    photos = app.wait_until(lambda: (rows := app.photos(pin[0])) and all(path for _, _, path in rows) and rows, 30,
                            "the album downloaded behind the map")
    app.wait_until(lambda: len(list(kept_pictures(app).rglob("*.kept"))) == len(photos), 10,
                   "a grid picture was kept for each photo")
    assert not accessible.exists("Back", "push button"), "the album was never opened"
    assert app.quit() == 0

    accessible, start = restart_and_open(app, user, head)
    app.wait_until(lambda: painted(app.log_text()[start:], pin[0]), 5, "the album was drawn")
    screenshot("opened after a restart")
    log = app.log_text()[start:]
    assert shown_from_disk(log, pin[0]) == len(photos), "every photo was read from its kept picture"
    assert "decoded from its file" not in log, "no photo was decoded a second time"
    names = tile_names(accessible)
    assert len(names) == len(photos) and LOADING not in names, names


def test_an_album_whose_kept_pictures_are_gone_opens_whole_and_keeps_them_again(make_app, flickr, user, screenshot):
    """The picture cache keeps the newest albums' pictures only (and a user may clear ~/.cache): an album whose
    pictures are gone decodes its photos from their files as it opens, shows each as soon as it is decoded (the
    picture is written afterwards, in the background), and is read from its kept pictures the next time."""
    app, pin, head, photos = downloaded_album(make_app, user)
    kept = kept_pictures(app)
    for picture in kept.rglob("*.kept"):
        picture.unlink()
    _, start = restart_and_open(app, user, head)
    frames = app.wait_until(lambda: painted(app.log_text()[start:], pin[0]), 5, "the album was drawn")
    screenshot("opened with its pictures gone")
    log = app.log_text()[start:]
    assert shown(log, pin[0], "decoded from its file") == len(photos), "every photo was decoded from its file"
    assert frames[0] == (len(photos), len(photos)), f"the album's first frame shows every photo: {frames}"
    app.wait_until(lambda: len(list(kept.rglob("*.kept"))) == len(photos), 10, "each photo's picture was kept again")
    assert not list(kept.rglob("*.part")), "no half-written picture is left"
    assert app.quit() == 0

    _, start = restart_and_open(app, user, head)
    app.wait_until(lambda: shown_from_disk(app.log_text()[start:], pin[0]) == len(photos), 5,
                   "the next opening read every photo from its kept picture")
    assert "decoded from its file" not in app.log_text()[start:]
