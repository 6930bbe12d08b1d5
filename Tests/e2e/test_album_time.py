"""Issue 35 point 3, "A place as it was": an album switched to a decade, then a year, through its bar's choice of
times. The Flickr test server takes photo i of a place in 2000 + i % 26 and honours min/max_taken_date; the album
keeps its time across a restart, and New Collection stays within it."""

from __future__ import annotations

from harness.accessibility import AccessibleApp
from test_album import drop_album_pin, shown_whole, start_and_open_album, wait_for_complete_album


def taken_year(flickr_id: str) -> int:
    """The year the test server says its photo was taken: the place's index ends the id."""
    return 2000 + int(flickr_id[-5:]) % 26


def album_time(app, pin_id: int) -> tuple | None:
    rows = app.query("SELECT taken_from_year, taken_to_year FROM album WHERE pin_id = ?", (pin_id,))
    return rows[0] if rows else None


def choose(accessible: AccessibleApp, box: str, choice: str) -> None:
    """Opens the combo box named `box` and picks `choice` from its menu, as a screen reader user does."""
    accessible.find(box, "combo box").doActionNamed("press")
    accessible.find(choice, "menu item").doActionNamed("click")


def chosen(accessible: AccessibleApp, box: str) -> str:
    """The choice the combo box named `box` shows."""
    combo = accessible.find(box, "combo box")
    return combo.querySelection().getSelectedChild(0).name


def wait_for_whole_album(app, accessible, pin_id: int, timeout: float = 30) -> list[tuple]:
    """Every photo is on disk and shown (a single year's album has one page: New Collection stays off)."""
    return app.wait_until(lambda: shown_whole(app, accessible, pin_id), timeout, "every photo arrived and is shown")


def searches_for(flickr, minimum: str, maximum: str) -> list[dict]:
    return [search for search in flickr.requests("search")
            if search["query"].get("min_taken_date") == minimum and search["query"].get("max_taken_date") == maximum]


def test_an_album_switched_to_a_decade_and_a_year_keeps_its_time(app, flickr, user, accessible, screenshot):
    pin, head = drop_album_pin(app, user, accessible)
    pin_id = pin[0]
    user.click(*head)
    wait_for_complete_album(app, accessible, pin_id)
    assert chosen(accessible, "Photos from") == "Any time"
    assert not accessible.exists("Year", "combo box"), "no year to choose before a decade"
    assert all("min_taken_date" not in search["query"] for search in flickr.requests("search"))

    # The 2010s: Flickr is asked for photos taken then, and the album holds only those.
    choose(accessible, "Photos from", "2010s")
    app.wait_until(lambda: album_time(app, pin_id) == (2010, 2019), 15, "the album is of the 2010s")
    photos = wait_for_complete_album(app, accessible, pin_id)
    assert searches_for(flickr, "2010-01-01 00:00:00", "2019-12-31 23:59:59"), "Flickr was asked for the 2010s"
    years = sorted({taken_year(flickr_id) for _, flickr_id, _ in photos})
    assert years and all(2010 <= year <= 2019 for year in years), f"photos of the 2010s only: {years}"
    screenshot("2010s")

    # New Collection stays within the decade.
    before = len(flickr.requests("search"))
    accessible.click("New Collection")
    app.wait_until(lambda: len(flickr.requests("search")) > before, 10, "New Collection searched")
    last = flickr.requests("search")[-1]["query"]
    assert (last.get("min_taken_date"), last.get("max_taken_date")) == ("2010-01-01 00:00:00", "2019-12-31 23:59:59")
    photos = wait_for_complete_album(app, accessible, pin_id)
    assert all(2010 <= taken_year(flickr_id) <= 2019 for _, flickr_id, _ in photos)

    # A year of the decade.
    choose(accessible, "Year", "2015")
    app.wait_until(lambda: album_time(app, pin_id) == (2015, 2015), 15, "the album is of 2015")
    photos = wait_for_whole_album(app, accessible, pin_id)
    assert searches_for(flickr, "2015-01-01 00:00:00", "2015-12-31 23:59:59"), "Flickr was asked for 2015"
    assert {taken_year(flickr_id) for _, flickr_id, _ in photos} == {2015}
    screenshot("2015")

    # Kept: after a restart the album opens from disk in 2015, and says so.
    assert app.quit() == 0
    requests_before = len(flickr.requests())
    accessible = start_and_open_album(app, user, head)
    wait_for_whole_album(app, accessible, pin_id, timeout=10)
    assert app.photos(pin_id) == photos
    assert len(flickr.requests()) == requests_before, "the album of 2015 came from disk"
    assert chosen(accessible, "Photos from") == "2010s"
    assert chosen(accessible, "Year") == "2015"
    screenshot("reopened")

    # Any time again: a search without dates.
    choose(accessible, "Photos from", "Any time")
    app.wait_until(lambda: album_time(app, pin_id) == (None, None), 15, "the album is of any time again")
    assert "min_taken_date" not in flickr.requests("search")[-1]["query"]
    app.wait_until(lambda: not accessible.exists("Year", "combo box"), 5, "the year's choice went with the decade")
