"""Issue 11, search: Ctrl+F reaches the header bar's search, cities are suggested as you type (offline, from
libgeonames), Enter also asks Nominatim (a local stub speaking its JSON) and never a keystroke earlier,
choosing a result flies the map there, and "Drop Pin Here" drops a pin at it."""

from __future__ import annotations

import math

from harness.accessibility import AccessibleApp
from harness.xdotool import xdotool

ROW = "list item"
PARIS = (48.8534, 2.3488)
EIFFEL_TOWER = (48.8584, 2.2945)


def rows(accessible: AccessibleApp) -> list[str]:
    return [n.name for n in accessible.node.findChildren(lambda n: n.roleName == ROW, showingOnly=False) if n.showing]


def search(app, accessible: AccessibleApp, text: str) -> None:
    """Ctrl+F, then type as a person does."""
    app.key("ctrl+f")
    entry = accessible.find("Search for a place", "text")
    app.wait_until(lambda: entry.focused, 5, "Ctrl+F put the keyboard in the search entry")
    xdotool(app.display, "type", "--delay", 60, text)


def close_to(viewport, point, degrees: float) -> bool:
    return viewport is not None and math.hypot(viewport[0] - point[0], viewport[1] - point[1]) < degrees


def test_typing_suggests_cities_offline_and_choosing_one_flies_there(app, user, accessible, screenshot):
    search(app, accessible, "Paris")
    found = app.wait_until(lambda: (r := rows(accessible)) and r, 10, "cities are suggested while typing")
    assert found[0].startswith("Paris, ") and found[0].endswith(", France"), found
    assert any(name.startswith("Paris, Texas") for name in found), f"other Parises are offered too: {found}"
    assert "Press Enter to search for addresses and landmarks too" in accessible.labels()
    screenshot("suggestions")

    # The keyboard alone: Down selects the first, Enter chooses it.
    app.key("Down", "Return")
    note = app.wait_until(lambda: found[0] in accessible.labels() and found[0], 5,
                          "the chosen place is named under the header bar")
    # The popover fades out (GTK's transition), so its rows stay showing for a moment after the choice.
    app.wait_until(lambda: not rows(accessible), 3, "the results closed")
    viewport = app.wait_until(lambda: close_to(v := app.viewport(), PARIS, 0.05) and v, 10,
                              "the map flew to Paris (and saved where it is)")
    assert viewport[2] == 11, f"a city is shown at city zoom: {viewport}"
    screenshot("flown-to-paris")

    assert not app.pins(), "choosing a place drops nothing by itself"
    accessible.click("Drop Pin Here")
    pin = app.wait_until(lambda: app.pins() and app.pins()[0], 5, "Drop Pin Here dropped a pin")
    assert close_to(pin[1:], PARIS, 0.001), f"the pin is at the place found: {pin} ({note})"
    app.wait_until(lambda: app.query("SELECT count(*) FROM photo WHERE pin_id = ?", (pin[0],))[0][0] > 0, 15,
                   "its album was fetched as a dropped pin's is")


def test_enter_asks_nominatim_once_for_landmarks(make_app, nominatim, user, screenshot):
    app = make_app(extra_environment={"VIRTUAL_TOURIST_GEOCODER_URL": nominatim.url}).start()
    accessible = AccessibleApp()
    search(app, accessible, "Eiffel Tower")
    app.wait_until(lambda: "Press Enter to search for addresses and landmarks too" in accessible.labels(), 10,
                   "no city is called that: the entry says what Enter does")
    assert not [r for r in nominatim.requests() if r["path"] == "/search"], "typing asks Nominatim nothing"

    app.key("Return")
    found = app.wait_until(lambda: (r := rows(accessible)) and r, 10, "Enter found the landmark")
    assert found[0].startswith("Tour Eiffel"), found
    searches = [r for r in nominatim.requests() if r["path"] == "/search"]
    assert len(searches) == 1 and searches[0]["q"] == "Eiffel Tower", searches
    assert searches[0]["user_agent"].startswith("VirtualTourist/"), "an identifying User-Agent"
    screenshot("landmark-found")

    user.click(*centre(accessible, found[0]))
    viewport = app.wait_until(lambda: close_to(v := app.viewport(), EIFFEL_TOWER, 0.002) and v, 10,
                              "the map flew to the tower")
    assert viewport[2] == 15, f"a landmark is shown at street zoom: {viewport}"
    accessible.click("Drop Pin Here")
    pin = app.wait_until(lambda: app.pins() and app.pins()[0], 5, "Drop Pin Here dropped a pin")
    assert close_to(pin[1:], EIFFEL_TOWER, 0.0001), pin

    # The same question again is answered from the cache: Nominatim is asked once.
    search(app, accessible, "Eiffel Tower")  # Ctrl+F selects the old text: typing replaces it
    app.key("Return")
    app.wait_until(lambda: (r := rows(accessible)) and r[0].startswith("Tour Eiffel"), 10, "found again")
    assert len([r for r in nominatim.requests() if r["path"] == "/search"]) == 1, "not asked twice"


def test_without_nominatim_search_says_so_and_still_finds_cities(app, user, accessible, screenshot):
    # The harness points the geocoder at a closed port: online search is unavailable.
    search(app, accessible, "Eiffel Tower")
    app.key("Return")
    message = app.wait_until(
        lambda: next((label for label in accessible.labels() if label.startswith("Online search unavailable")), None),
        15, "the search says online search is unavailable")
    assert "no city is called “Eiffel Tower”" in message, message
    assert not rows(accessible)
    screenshot("offline-no-match")

    app.key("ctrl+a", "BackSpace")
    xdotool(app.display, "type", "--delay", 40, "Reykjavik")
    app.key("Return")
    # The rows and the message are put up in one main-loop turn, but reach AT-SPI as separate events:
    # wait for both rather than reading the rows the instant the message is seen.
    found = app.wait_until(
        lambda: "Online search unavailable — showing cities" in accessible.labels() and rows(accessible),
        15, "cities are shown, saying online search is unavailable")
    assert found[0].startswith("Reykjav"), found
    screenshot("offline-cities")

    # Escape closes the results; a second Escape gives the keyboard back to the map.
    app.key("Escape")
    app.wait_until(lambda: not rows(accessible), 5, "Escape closed the results")
    app.key("Escape")
    entry = accessible.find("Search for a place", "text")
    app.wait_until(lambda: not entry.focused, 5, "a second Escape left the search")


def centre(accessible: AccessibleApp, name: str) -> tuple[int, int]:
    x, y, width, height = accessible.extents(name, ROW)
    return x + width // 2, y + height // 2
