"""Issue 33 point 7: both apps follow the desktop's dark style — GNOME's GSettings key, or the appearance
portal, which wins over it — when they start and live while they run, and what they draw themselves
(cluster markers, album placeholders, the offline note, list avatars and links, the login page) reads in
both styles. The screenshots are kept for a person to look at."""

from __future__ import annotations

import shutil
import sqlite3
import statistics
import time
from pathlib import Path

import pytest

from harness.accessibility import AccessibleApp
from harness.appearance_portal import DARK, LIGHT, AppearancePortal
from harness.geo import screen_point
from harness.map import PIN_HEAD_ABOVE_TIP, WORLD_CENTRE, WORLD_ZOOM, map_box
from harness.on_the_map import APP_NAME as ON_THE_MAP
from harness.screenshots import Box, capture_screen, crop
from harness.xdotool import xdotool
from test_album import LOADING, photo_tiles, tile_names
from test_offline_map import OFFLINE_NOTE
from test_on_the_map import UI

# Twelve pins around Paris: one cluster marker at the first start's world zoom.
CLUSTERED = [(48.5 + 0.25 * row, 2.0 + 0.25 * column) for row in range(3) for column in range(4)]
ALBUM_PIN = (-15.0, -45.0)  # inland Brazil: far from the cluster, on the basemap's land
DARK_AT_MOST, LIGHT_AT_LEAST = 90, 170  # a header bar's median luma (0–255): Adwaita's dark ~45, light ~220
READABLE = 3.0  # WCAG's contrast ratio for large text and graphics; small text measured as drawn


# MARK: - The desktop's preference


def keyfile_environment(config_home: Path, scheme: str) -> dict[str, str]:
    """GSettings in a key file under the app's own XDG_CONFIG_HOME, holding `scheme` for GNOME's key."""
    write_gsettings_scheme(config_home, scheme)
    return {"GSETTINGS_BACKEND": "keyfile", "XDG_CONFIG_HOME": str(config_home)}


def write_gsettings_scheme(config_home: Path, scheme: str) -> None:
    """What `gsettings set org.gnome.desktop.interface color-scheme …` writes with the keyfile backend."""
    keyfile = config_home / "glib-2.0" / "settings" / "keyfile"
    keyfile.parent.mkdir(parents=True, exist_ok=True)
    keyfile.write_text(f"[org/gnome/desktop/interface]\ncolor-scheme='{scheme}'\n")


def gnome_color_scheme_installed() -> bool:
    """Whether GNOME's interface schema (gsettings-desktop-schemas 42 or later) is there for the apps to read."""
    from gi.repository import Gio
    source = Gio.SettingsSchemaSource.get_default()
    schema = source.lookup("org.gnome.desktop.interface", True) if source else None
    return schema is not None and schema.has_key("color-scheme")


needs_gnome_schema = pytest.mark.skipif(not gnome_color_scheme_installed(),
                                        reason="no org.gnome.desktop.interface color-scheme (gsettings-desktop-schemas)")


@pytest.fixture
def start_portal(tmp_path: Path, artifacts):
    """start_portal(value, with_read_one=True): the appearance portal on the test's session bus."""
    portals: list[AppearancePortal] = []

    def start(color_scheme: int, with_read_one: bool = True) -> AppearancePortal:
        portal = AppearancePortal(color_scheme, tmp_path / f"portal-{len(portals)}.log", with_read_one).start()
        portals.append(portal)
        return portal

    yield start
    for portal in portals:
        portal.stop()
        artifacts.keep_copy(portal.log_path)


# MARK: - What the screen shows


def luma(pixel: tuple[int, int, int]) -> float:
    red, green, blue = pixel[:3]
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def relative_luminance(pixel: tuple[int, int, int]) -> float:
    """WCAG's relative luminance of an sRGB colour."""
    def linear(channel: int) -> float:
        value = channel / 255
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4
    red, green, blue = (linear(channel) for channel in pixel[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast_ratio(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    lighter, darker = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def median_colour(image, box: Box) -> tuple[int, int, int]:
    pixels = list(crop(image, box).getdata())
    return tuple(int(statistics.median(pixel[channel] for pixel in pixels)) for channel in range(3))


def strongest_contrast(image, box: Box) -> float:
    """How far the ink inside `box` stands from its background (the box's median colour): the contrast ratio of
    its most distant pixels (the 99th percentile, so one stray pixel does not count)."""
    background = median_colour(image, box)
    ratios = sorted(contrast_ratio(pixel, background) for pixel in crop(image, box).getdata())
    return ratios[int(len(ratios) * 0.99)]


def window_box(display: str, window_id: str) -> Box:
    fields = dict(line.split("=", 1) for line in
                  xdotool(display, "getwindowgeometry", "--shell", window_id).stdout.split())
    left, top = int(fields["X"]), int(fields["Y"])
    return left, top, left + int(fields["WIDTH"]), top + int(fields["HEIGHT"])


def header_strip(window: Box) -> Box:
    """A strip of the header bar above its title and buttons' text, between its ends' buttons."""
    left, top, right, _ = window
    width = right - left
    return left + width // 5, top + 4, right - width // 5, top + 10


def header_luma(image, window: Box) -> float:
    return statistics.median(luma(pixel) for pixel in crop(image, header_strip(window)).getdata())


def wait_for_style(app, window: Box, dark: bool, timeout: float = 15):
    """Captures the screen until the header bar is in the style asked for; returns that capture."""
    path = app.home / "style-check.png"

    def in_style():
        image = capture_screen(app.display, path)
        value = header_luma(image, window)
        return image if (value <= DARK_AT_MOST if dark else value >= LIGHT_AT_LEAST) else None
    return app.wait_until(in_style, timeout, f"the header bar turned {'dark' if dark else 'light'}")


def stays_in_style(app, window: Box, dark: bool, seconds: float = 2.5) -> bool:
    """Whether the header bar keeps its style for `seconds` (a change that must be ignored)."""
    path = app.home / "style-check.png"
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = header_luma(capture_screen(app.display, path), window)
        if (value > DARK_AT_MOST) if dark else (value < LIGHT_AT_LEAST):
            return False
        time.sleep(0.3)
    return True


def node_box(node) -> Box:
    (x, y), (width, height) = node.position, node.size
    return x, y, x + width, y + height


# MARK: - Virtual Tourist


def seed_clustered_pins(app) -> None:
    with sqlite3.connect(app.database_path) as database:
        database.executemany("INSERT INTO pin(latitude, longitude, created_at) VALUES (?, ?, ?)",
                             [(latitude, longitude, 800_000_000.0) for latitude, longitude in CLUSTERED])


def placeholder_contrast(image, tile_box: Box) -> float:
    """A placeholder square against the grid around it: the tile's middle against the gap beside it."""
    left, top, right, bottom = tile_box
    middle = median_colour(image, (left + 20, top + 20, right - 20, bottom - 20))
    beside = median_colour(image, (left - 4, top + 20, left - 1, bottom - 20))
    return contrast_ratio(middle, beside)


def check_album_placeholders(image, accessible, style: str) -> None:
    tiles = [node for node in photo_tiles(accessible) if node.name == LOADING]
    assert tiles, f"the album shows placeholders ({style})"
    ratio = placeholder_contrast(image, node_box(tiles[0]))
    assert ratio >= 1.1, f"a placeholder stands out from the grid in the {style} style (contrast {ratio:.2f})"


def check_offline_note(image, accessible, style: str) -> None:
    ratio = strongest_contrast(image, node_box(accessible.find(OFFLINE_NOTE, "label")))
    assert ratio >= READABLE, f"the offline note reads in the {style} style (contrast {ratio:.2f})"


@needs_gnome_schema
def test_virtual_tourist_follows_gnomes_dark_style_and_turns_light_live(make_app, tiles, flickr, user, screenshot):
    app = make_app()
    config_home = app.home / "config"
    app.environment.update(keyfile_environment(config_home, "prefer-dark"))
    app.start()
    window = window_box(app.display, app.window_id)
    wait_for_style(app, window, dark=True)
    assert app.terminate() == 0  # the first start made the database: now a cluster to draw, and no network
    seed_clustered_pins(app)
    tiles.stop()
    shutil.rmtree(app.tile_cache, ignore_errors=True)  # so the basemap stands in, and the offline note says so
    flickr.control({"image_delay": 60})  # the album stays placeholders while the test looks

    app.start()
    window = window_box(app.display, app.window_id)
    accessible = AccessibleApp()
    accessible.find(OFFLINE_NOTE, "label", timeout=15)
    wait_for_style(app, window, dark=True)
    x, y = screen_point(*ALBUM_PIN, WORLD_CENTRE, WORLD_ZOOM, map_box(accessible))
    user.press_and_hold(round(x), round(y), 0.8)
    app.wait_until(lambda: len(app.pins()) == len(CLUSTERED) + 1, 5, "the dropped pin was stored")
    user.park_pointer()
    dark_map = screenshot("virtual-tourist-dark-map")
    assert header_luma(dark_map, window) <= DARK_AT_MOST, "Virtual Tourist starts in the dark style"
    check_offline_note(dark_map, accessible, "dark")

    user.click(round(x), round(y) - PIN_HEAD_ABOVE_TIP)
    accessible.find("Back", "push button")
    app.wait_until(lambda: LOADING in tile_names(accessible), 15, "the album shows its placeholders")
    user.park_pointer()
    dark_album = screenshot("virtual-tourist-dark-album")
    check_album_placeholders(dark_album, accessible, "dark")

    # The desktop switches to the default (light) style while the app runs.
    write_gsettings_scheme(config_home, "default")
    wait_for_style(app, window, dark=False)
    light_album = screenshot("virtual-tourist-light-album")
    assert header_luma(light_album, window) >= LIGHT_AT_LEAST, "the app turned light without a restart"
    check_album_placeholders(light_album, accessible, "light")

    accessible.click("Back")
    accessible.find(OFFLINE_NOTE, "label")
    user.park_pointer()
    light_map = screenshot("virtual-tourist-light-map")
    check_offline_note(light_map, accessible, "light")
    assert "Colour scheme from settings: preferDark" in app.log_text(), app.log_tail()
    assert "Colour scheme from settings: noPreference" in app.log_text(), app.log_tail()


@needs_gnome_schema
def test_the_portal_wins_over_gsettings_and_virtual_tourist_follows_it_live(make_app, start_portal, screenshot):
    portal = start_portal(DARK)
    app = make_app()
    app.environment.update(keyfile_environment(app.home / "config", "prefer-light"))
    app.start()
    window = window_box(app.display, app.window_id)
    wait_for_style(app, window, dark=True)
    screenshot("virtual-tourist-portal-dark")
    assert portal.calls[:1] == ["ReadOne"], portal.calls

    portal.set(LIGHT)
    wait_for_style(app, window, dark=False)
    screenshot("virtual-tourist-portal-light")
    portal.set(DARK)
    wait_for_style(app, window, dark=True)

    # GNOME's key changing says nothing while the portal answers.
    write_gsettings_scheme(app.home / "config", "prefer-light")
    write_gsettings_scheme(app.home / "config", "default")
    assert stays_in_style(app, window, dark=True), "a GSettings change overrode the portal"
    assert "Colour scheme from portal" in app.log_text() and "from settings" not in app.log_text(), app.log_tail()


def test_a_portal_without_read_one_is_read_the_older_way(make_app, start_portal):
    portal = start_portal(DARK, with_read_one=False)
    app = make_app().start()
    wait_for_style(app, window_box(app.display, app.window_id), dark=True)
    assert "Read" in portal.calls, portal.calls


# MARK: - On the Map


def check_login_page(image, accessible, window: Box, style: str) -> None:
    title = accessible.find("Log in to On the Map", "label")
    ratio = strongest_contrast(image, node_box(title))
    assert ratio >= READABLE * 2, f"the login page's title reads in the {style} style (contrast {ratio:.2f})"
    left, top, right, bottom = window
    background = median_colour(image, (left + 10, bottom - 40, left + 60, bottom - 10))
    assert (luma(background) <= DARK_AT_MOST) == (style == "dark"), \
        f"the login page's background is {style}: {background}"


def check_list(image, ui: UI, style: str) -> None:
    rows = [row for row in ui.rows() if row.showing]
    assert rows, "the list shows its rows"
    for row in rows[:4]:
        left, top, right, bottom = node_box(row)
        middle = (top + bottom) // 2
        avatar = (left + 10, middle - 20, left + 50, middle + 20)
        disc = median_colour(image, (left + 18, middle - 4, left + 22, middle + 4))  # left of the initials
        row_background = median_colour(image, (right - 60, top + 2, right - 40, top + 6))
        initials = strongest_contrast(image, (avatar[0] + 8, avatar[1] + 8, avatar[2] - 8, avatar[3] - 8))
        assert initials >= READABLE, f"{row.name}: the avatar's initials read ({style}, {initials:.2f})"
        assert contrast_ratio(disc, row_background) >= 1.3, \
            f"{row.name}: the avatar stands out from the row ({style}, {disc} on {row_background})"
    links = [node for node in ui.accessible.node.findChildren(
        lambda n: n.roleName == "label" and n.name.startswith("https://"), showingOnly=False) if node.showing]
    assert links, "the list shows links"
    ratio = strongest_contrast(image, node_box(links[0]))
    assert ratio >= READABLE, f"a link reads in the {style} style (contrast {ratio:.2f})"


@needs_gnome_schema
def test_on_the_map_follows_gnomes_dark_style_and_turns_light_live(make_on_the_map_app, nominatim, user,
                                                                    on_the_map_class, screenshot):
    app = make_on_the_map_app(geocoder_url=nominatim.url)
    config_home = app.home / "config"
    app.environment.update(keyfile_environment(config_home, "prefer-dark"))
    app.start()
    window = window_box(app.display, app.window_id)
    ui = UI(app, AccessibleApp(ON_THE_MAP), user)
    ui.find_any("Log In", ("push button",))
    wait_for_style(app, window, dark=True)
    dark_login = screenshot("on-the-map-dark-login")
    check_login_page(dark_login, ui.accessible, window, "dark")

    ui.log_in(on_the_map_class.me)
    ui.wait_for_classmates()
    screenshot("on-the-map-dark-map")
    ui.show("List")
    app.wait_until(lambda: len([row for row in ui.rows() if row.showing]) >= 4, 10, "the list shows rows")
    user.park_pointer()
    dark_list = screenshot("on-the-map-dark-list")
    check_list(dark_list, ui, "dark")

    write_gsettings_scheme(config_home, "default")
    wait_for_style(app, window, dark=False)
    light_list = screenshot("on-the-map-light-list")
    check_list(light_list, ui, "light")

    ui.find_any("Log Out", ("push button",)).doActionNamed("click")
    ui.find_any("Log In", ("push button",), timeout=15)
    user.park_pointer()
    light_login = screenshot("on-the-map-light-login")
    check_login_page(light_login, ui.accessible, window, "light")


def test_on_the_map_follows_the_portal_live(make_on_the_map_app, nominatim, start_portal, screenshot):
    portal = start_portal(DARK)
    app = make_on_the_map_app(geocoder_url=nominatim.url)
    app.environment.update(keyfile_environment(app.home / "config", "prefer-light"))
    app.start()
    window = window_box(app.display, app.window_id)
    wait_for_style(app, window, dark=True)
    screenshot("on-the-map-portal-dark")
    portal.set(LIGHT)
    wait_for_style(app, window, dark=False)
    screenshot("on-the-map-portal-light")
