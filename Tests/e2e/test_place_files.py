"""Issue 35, point 2: places in and out. Files other apps write (a GPS logger's GPX, Google Takeout's Saved Places,
Organic Maps' KML and KMZ) become pins after one question, from the command line, Open With or the menu's file
chooser; hostile files are refused whole; Export writes every pin to a file other programs (GPSBabel) read back."""

from __future__ import annotations

import csv
import io
import json
import shutil
import subprocess
import time
import xml.etree.ElementTree as ElementTree
import zipfile
from datetime import datetime
from pathlib import Path

import pytest

from harness import place_samples as samples
from harness.accessibility import AccessibleApp
from harness.app import App, app_binary
from harness.geo import screen_point
from harness.map import PIN_HEAD_ABOVE_TIP, map_box
from harness.screenshots import shows_near, wait_until_screen_shows
from harness.waiting import wait_until
from harness.xdotool import xdotool

APPLE_EPOCH = 978_307_200  # the store keeps dates as seconds since 2001-01-01 (Foundation's reference date)


class LaunchedWithFiles(App):
    """The app started as `virtual-tourist FILE…`, as a file manager's Open With starts it."""

    def start(self, wait_for_window: bool = True, files: tuple[Path, ...] = ()) -> "LaunchedWithFiles":
        assert self.process is None or self.process.poll() is not None, "already running"
        self.launches += 1
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen([str(app_binary()), *map(str, files)], env=self.environment,
                                            cwd=self.home, stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT)
        if wait_for_window:
            self.window_id = wait_until(self._find_window, 30,
                                        lambda: f"the app's window appeared; log:\n{self.log_tail()}")
        return self

    def open_again(self, *files: str, cwd: Path) -> subprocess.CompletedProcess:
        """`virtual-tourist FILE…` once more while this one runs (its session bus, its folders)."""
        return subprocess.run([str(app_binary()), *files], env=self.environment, cwd=cwd, stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, timeout=20)

    def named_pins(self) -> list[tuple[str, float, float]]:
        return self.query("SELECT place_name, latitude, longitude FROM pin ORDER BY latitude")


def expected(places: list[samples.Place]) -> list[tuple[str, float, float]]:
    return sorted(((p.name, p.latitude, p.longitude) for p in places), key=lambda row: row[1])


def seconds_since_2001(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() - APPLE_EPOCH


class Dialogs:
    """Alerts, the file chooser, the menu and the in-app notification, as a user meets them."""

    def __init__(self, app: LaunchedWithFiles) -> None:
        self.app = app
        self.accessible = AccessibleApp()

    def alert(self, timeout: float = 20.0) -> tuple[object, str]:
        return self.accessible.alert(timeout)

    def no_alert(self) -> bool:
        return self.accessible.no_alert()

    def answer(self, button: str) -> None:
        node, _ = self.alert()
        wait_until(lambda: next(n for n in node.findChildren(
            lambda n: n.name == button and n.roleName == "push button", showingOnly=False) if n.showing), 5,
            f"the alert has a {button} button").doActionNamed("click")
        # Not "no alert": with files queued, the next question may show at once.
        self.app.wait_until(lambda: not node.showing, 5, f"the alert closed after {button}")

    def notification(self, text: str, timeout: float = 15.0) -> str:
        """Waits until a label starts with `text`, and returns it."""
        return self.app.wait_until(
            lambda: next((label for label in self.accessible.labels() if label.startswith(text)), None), timeout,
            lambda: f"the notification says {text!r} (labels: {self.accessible.labels()})")

    def menu(self, item: str) -> None:
        """Main Menu, then one of its items, with real clicks' accessible actions."""
        button = next(n for n in self.accessible.node.findChildren(
            lambda n: n.name == "Main Menu" and n.roleName in ("toggle button", "push button"), showingOnly=False)
            if n.showing)
        button.doActionNamed("click")
        entry = self.app.wait_until(lambda: next((n for n in self.accessible.node.findChildren(
            lambda n: n.name == item, showingOnly=False) if n.showing), None), 5, f"the menu shows {item!r}")
        entry.doActionNamed("click")

    def choose_file(self, title: str, path: Path, save: bool = False) -> None:
        """In GTK's file chooser titled `title`: the path typed (Ctrl+L's location for Open, the name field for
        Save), then Enter."""
        window = self.app.wait_until(lambda: xdotool(self.app.display, "search", "--onlyvisible", "--name",
                                                     f"^{title}$", check=False).stdout.split(), 10,
                                     f"the file chooser {title!r} opened")[0]
        xdotool(self.app.display, "windowfocus", "--sync", window)
        time.sleep(0.5)  # the chooser gives its entry the keyboard once it is mapped
        xdotool(self.app.display, "key", "--delay", 50, "ctrl+a" if save else "ctrl+l")
        if save:
            xdotool(self.app.display, "key", "BackSpace")
        xdotool(self.app.display, "type", "--delay", 20, str(path))
        # Enter must take the path as typed, not with a completion the chooser's entry appended.
        self.app.wait_until(lambda: any(n.showing and n.text == str(path) for n in self.accessible.node.findChildren(
            lambda n: n.roleName == "text", showingOnly=False)), 5, f"the chooser's entry reads {path}")
        # The chooser takes Enter only once it has looked the typed file up and made its button sensitive.
        accept = "Export" if save else "Import"
        self.app.wait_until(lambda: any(n.showing and n.sensitive for n in self.accessible.node.findChildren(
            lambda n: n.name == accept and n.roleName == "push button", showingOnly=False)), 5,
            f"the chooser's {accept} button is sensitive")
        xdotool(self.app.display, "key", "Return")
        self.app.wait_until(lambda: not xdotool(self.app.display, "search", "--onlyvisible", "--name", f"^{title}$",
                                                check=False).stdout.split(), 10, f"the file chooser {title!r} closed")


def is_pin_red(pixel: tuple[int, int, int]) -> bool:
    red, green, blue = pixel[:3]
    return red > 170 and green < 90 and blue < 90


def import_question(dialogs: Dialogs, title: str) -> str:
    _, text = dialogs.alert()
    assert text.startswith(title), f"the question is {title!r}: {text!r}"
    return text


@pytest.fixture
def downloads(tmp_path: Path) -> Path:
    folder = tmp_path / "Downloads"
    folder.mkdir()
    return folder


def test_a_gps_loggers_waypoints_opened_from_the_command_line_become_pins_and_undo_removes_them(
        make_app, downloads, screenshot):
    gpx = samples.gps_logger_gpx(downloads / "20230601-waypoints.gpx")
    app = make_app(LaunchedWithFiles).start(files=(gpx,))
    dialogs = Dialogs(app)

    text = import_question(dialogs, "Import 3 places?")
    assert "From “20230601-waypoints.gpx”. They will be pins on your map, each with its album." in text
    assert "already on your map" not in text and "passed over" not in text, text
    screenshot("question")
    assert app.pins() == [], "nothing lands before the user says Import"
    dialogs.answer("Import")

    pins = app.wait_until(lambda: len(p := app.named_pins()) == 3 and p, 10, "three pins were stored")
    assert pins == expected(samples.LOGGER_WAYPOINTS)
    rows = app.query("SELECT place_name, place_name_source, created_at FROM pin")
    for place in samples.LOGGER_WAYPOINTS:
        assert (place.name, "online", pytest.approx(seconds_since_2001(place.time), abs=0.001)) in rows, rows
    dialogs.notification("3 places imported")

    # The map moves to show them all, and each is drawn there.
    viewport = app.wait_until(lambda: (v := app.viewport()) and v[2] >= 5 and v, 10, "the map showed the new pins")
    assert 45.9 < viewport[0] < 47.4 and 7.6 < viewport[1] < 8.6, f"centred among the pins: {viewport}"
    box = map_box(dialogs.accessible)
    heads = [(round(x), round(y) - PIN_HEAD_ABOVE_TIP) for x, y in
             (screen_point(p.latitude, p.longitude, viewport[:2], viewport[2], box) for p in samples.LOGGER_WAYPOINTS)]
    assert all(box[0] < x < box[2] and box[1] < y < box[3] for x, y in heads), f"every pin on the map: {heads}"
    wait_until_screen_shows(app, lambda image: all(shows_near(image, head, is_pin_red) for head in heads),
                            "every imported pin is drawn")
    screenshot("imported")

    dialogs.accessible.click("Undo")
    app.wait_until(lambda: app.pins() == [], 5, "Undo deleted the imported pins")
    wait_until_screen_shows(app, lambda image: not any(shows_near(image, head, is_pin_red) for head in heads),
                            "the map no longer draws them")
    screenshot("undone")
    assert app.process.poll() is None


def test_a_second_virtual_tourist_file_asks_in_the_running_window(make_app, downloads, screenshot):
    samples.gps_logger_gpx(downloads / "other.gpx", samples.OTHER_WAYPOINTS)
    app = make_app(LaunchedWithFiles).start()
    dialogs = Dialogs(app)
    assert dialogs.no_alert()

    # Relative to the second process's folder, as a shell in ~/Downloads passes it.
    second = app.open_again("other.gpx", cwd=downloads)
    assert second.returncode == 0, f"the second instance handed over and exited: {second.stderr[-2000:]}"
    text = import_question(dialogs, "Import 2 places?")
    assert "From “other.gpx”." in text
    assert app.windows() == [app.window_id], "no second window: the running one asks"
    screenshot("asked-in-running-window")
    dialogs.answer("Import")
    app.wait_until(lambda: app.named_pins() == expected(samples.OTHER_WAYPOINTS), 10, "both pins were stored")


def test_google_takeout_saved_places_chosen_in_the_menus_file_chooser(make_app, downloads, screenshot):
    takeout = samples.takeout_saved_places(downloads / "Saved Places.json")
    app = make_app(LaunchedWithFiles).start()
    dialogs = Dialogs(app)

    dialogs.menu("Import Places…")
    screenshot("file-chooser")
    dialogs.choose_file("Import Places", takeout)
    text = import_question(dialogs, "Import 2 places?")
    assert "From “Saved Places.json”." in text
    assert "1 entry is not a place with a position and will be passed over." in text, text
    screenshot("question")
    dialogs.answer("Import")

    app.wait_until(lambda: app.named_pins() == expected(samples.TAKEOUT_PLACES), 10, "both saved places are pins")
    assert not app.query("SELECT 1 FROM pin WHERE abs(latitude) < 0.001 AND abs(longitude) < 0.001"), \
        "Takeout's [0, 0] for a lost place is no pin in the Gulf of Guinea"
    created = dict(app.query("SELECT place_name, created_at FROM pin"))
    assert created["Empire State Building"] == pytest.approx(seconds_since_2001("2024-01-15T08:30:00.123Z"), abs=0.001)
    dialogs.notification("2 places imported")


def test_organic_maps_kml_and_kmz_skip_what_is_already_on_the_map(make_app, downloads, screenshot):
    kml = samples.organic_maps_kml(downloads / "France trip.kml")
    kmz = samples.organic_maps_kmz(downloads / "France trip.kmz")
    app = make_app(LaunchedWithFiles).start(files=(kml,))
    dialogs = Dialogs(app)

    text = import_question(dialogs, "Import 3 places?")
    assert "1 entry is not a place with a position and will be passed over." in text, "the line along the Seine"
    dialogs.answer("Import")
    app.wait_until(lambda: app.named_pins() == expected(samples.ORGANIC_MAPS_PLACES), 10, "the KML's places are pins")

    # The KMZ holds the same places and one more: only that one is new (Ctrl+O, the menu's shortcut).
    app.key("ctrl+o")
    dialogs.choose_file("Import Places", kmz)
    text = import_question(dialogs, "Import 1 place?")
    assert "3 places are already on your map and will be skipped." in text, text
    screenshot("kmz-question")
    dialogs.answer("Import")
    everything = expected(samples.ORGANIC_MAPS_PLACES + [samples.ORGANIC_MAPS_EXTRA])
    app.wait_until(lambda: app.named_pins() == everything, 10, "the KMZ's one new place is a pin")
    dialogs.notification("1 place imported")

    # The same files again: nothing new in them. (That the text names the file:
    # test_nothing_to_import_and_exported_name_the_file.)
    for path, count in ((kml, 3), (kmz, 4)):
        app.key("ctrl+o")
        dialogs.choose_file("Import Places", path)
        _, text = dialogs.alert()
        assert text.startswith("Nothing to import"), text
        assert f"All {count} places in “" in text and "” are already on your map." in text, text
        screenshot(f"nothing-to-import-{path.suffix[1:]}")
        dialogs.answer("OK")
    assert app.named_pins() == everything


def test_hostile_files_are_refused_whole_with_a_reason(make_app, downloads, screenshot):
    good = samples.gps_logger_gpx(downloads / "good.gpx")
    laughs = samples.billion_laughs_gpx(downloads / "laughs.gpx")
    off_map = samples.off_the_map_kml(downloads / "off the map.kml")
    # Three files at once, as a file manager's Open With passes a selection: asked about one after another.
    app = make_app(LaunchedWithFiles).start(files=(good, laughs, off_map))
    dialogs = Dialogs(app)
    import_question(dialogs, "Import 3 places?")
    dialogs.answer("Import")
    app.wait_until(lambda: len(app.pins()) == 3, 10, "the good file's places are pins")
    before = app.query("SELECT id, latitude, longitude, place_name FROM pin ORDER BY id")

    _, text = dialogs.alert()
    assert text.startswith("“laughs.gpx” could not be imported"), text
    assert "declares XML entities" in text and "Nothing was imported." in text, text
    screenshot("billion-laughs")
    dialogs.answer("OK")

    _, text = dialogs.alert()
    assert text.startswith("“off the map.kml” could not be imported"), text
    assert "The place “Nowhere” lies off the map (latitude 95" in text and "longitude 200" in text, text
    assert "Nothing was imported" in text, text
    screenshot("off-the-map")
    dialogs.answer("OK")

    assert app.query("SELECT id, latitude, longitude, place_name FROM pin ORDER BY id") == before, \
        "neither file changed the database (not even the off-the-map file's good place)"
    assert app.process.poll() is None, "the app is still running"


def test_nothing_to_import_and_exported_name_the_file(make_app, downloads, tmp_path, screenshot):
    gpx = samples.gps_logger_gpx(downloads / "logger.gpx")
    app = make_app(LaunchedWithFiles).start(files=(gpx,))
    dialogs = Dialogs(app)
    import_question(dialogs, "Import 3 places?")
    dialogs.answer("Import")
    app.wait_until(lambda: len(app.pins()) == 3, 10, "three pins")

    assert app.open_again(str(gpx), cwd=downloads).returncode == 0
    _, text = dialogs.alert()
    screenshot("nothing-to-import")
    dialogs.answer("OK")
    app.key("shift+ctrl+e")
    dialogs.choose_file("Export Places", tmp_path / "mine.kmz", save=True)
    notification = dialogs.notification("3 places exported to")
    screenshot("exported")
    assert (tmp_path / "mine.kmz").exists()
    assert "Nothing to import All 3 places in “logger.gpx” are already on your map." == text
    assert notification == "3 places exported to “mine.kmz”"


def gpsbabel_places(input_format: str, path: Path) -> list[tuple[str, float, float]]:
    result = subprocess.run(["gpsbabel", "-i", input_format, "-f", str(path), "-o", "unicsv", "-F", "-"],
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, f"gpsbabel read {path.name}: {result.stderr}"
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    return sorted(((row["Name"], float(row["Latitude"]), float(row["Longitude"])) for row in rows),
                  key=lambda row: row[1])


def kml_places(document: bytes) -> list[tuple[str, float, float]]:
    places = []
    for placemark in ElementTree.fromstring(document).iter():
        if placemark.tag.endswith("}Placemark"):
            name = next(e.text for e in placemark.iter() if e.tag.endswith("}name"))
            longitude, latitude = next(e.text for e in placemark.iter() if e.tag.endswith("}coordinates")) \
                .strip().split(",")[:2]
            places.append((name, float(latitude), float(longitude)))
    return sorted(places, key=lambda r: r[1])


def assert_same_places(found: list[tuple[str, float, float]], pins: list[tuple[str, float, float]], what: str,
                       tolerance: float = 0.0) -> None:
    assert [name for name, _, _ in found] == [name for name, _, _ in pins], f"{what}: names {found}"
    for (name, latitude, longitude), (_, pin_latitude, pin_longitude) in zip(found, pins):
        assert abs(latitude - pin_latitude) <= tolerance and abs(longitude - pin_longitude) <= tolerance, \
            f"{what}: {name} at {latitude}, {longitude}, the pin at {pin_latitude}, {pin_longitude}"


def test_export_writes_every_pin_that_other_programs_and_a_fresh_library_read_back(
        make_app, downloads, tmp_path, screenshot):
    app = make_app(LaunchedWithFiles).start(files=(samples.gps_logger_gpx(downloads / "logger.gpx"),
                                                   samples.takeout_saved_places(downloads / "Saved Places.json")))
    dialogs = Dialogs(app)
    for title in ("Import 3 places?", "Import 2 places?"):
        import_question(dialogs, title)
        dialogs.answer("Import")
    pins = app.wait_until(lambda: len(p := app.named_pins()) == 5 and p, 10, "five pins to export")
    assert pins == expected(samples.LOGGER_WAYPOINTS + samples.TAKEOUT_PLACES)

    exports = tmp_path / "Exports"
    exports.mkdir()
    gpx, geojson, kml, kmz = (exports / f"places.{kind}" for kind in ("gpx", "geojson", "kml", "kmz"))
    dialogs.menu("Export Places…")
    dialogs.choose_file("Export Places", gpx, save=True)
    dialogs.notification("5 places exported to “")  # its file name: test_nothing_to_import_and_exported_name_the_file
    screenshot("exported")
    for path in (geojson, kml, kmz):
        app.key("shift+ctrl+e")
        dialogs.choose_file("Export Places", path, save=True)
        app.wait_until(path.exists, 10, f"{path.name} was written")
    assert sorted(p.name for p in exports.iterdir()) == ["places.geojson", "places.gpx", "places.kml", "places.kmz"], \
        "each file written whole under its name, no temporary left beside it"

    # Each parses, and holds every pin's name and exact position.
    gpx_ns = {"g": "http://www.topografix.com/GPX/1/1"}
    root = ElementTree.parse(gpx).getroot()
    assert_same_places(sorted(((w.findtext("g:name", namespaces=gpx_ns), float(w.get("lat")), float(w.get("lon")))
                               for w in root.findall("g:wpt", gpx_ns)), key=lambda r: r[1]), pins, "the GPX")
    features = json.loads(geojson.read_text(encoding="utf-8"))["features"]
    assert_same_places(sorted(((f["properties"]["name"], f["geometry"]["coordinates"][1],
                                f["geometry"]["coordinates"][0]) for f in features), key=lambda r: r[1]),
                       pins, "the GeoJSON")
    assert_same_places(kml_places(kml.read_bytes()), pins, "the KML")
    with zipfile.ZipFile(kmz) as archive:
        assert archive.namelist()[0] == "doc.kml", f"a KMZ's first entry is its KML: {archive.namelist()}"
        assert_same_places(kml_places(archive.read("doc.kml")), pins, "the KMZ's doc.kml")

    # GPSBabel, another program, reads the same (its CSV rounds to 6 decimals).
    if shutil.which("gpsbabel"):
        for input_format, path in (("gpx", gpx), ("geojson", geojson), ("kml", kml)):
            assert_same_places(gpsbabel_places(input_format, path), pins, f"GPSBabel's {input_format}", 1e-6)

    # A fresh library (another user's home) opens the exported GPX: the same pins, names and times.
    times = sorted(app.query("SELECT place_name, created_at FROM pin"))
    assert app.quit() == 0  # else the fresh start would hand its file to this one (one instance per session)
    fresh = make_app(LaunchedWithFiles).start(files=(gpx,))
    fresh_dialogs = Dialogs(fresh)
    import_question(fresh_dialogs, "Import 5 places?")
    fresh_dialogs.answer("Import")
    fresh.wait_until(lambda: len(fresh.pins()) == 5, 10, "the fresh library has five pins")
    assert fresh.named_pins() == pins
    fresh_times = sorted(fresh.query("SELECT place_name, created_at FROM pin"))
    assert [name for name, _ in fresh_times] == [name for name, _ in times]
    assert all(abs(a - b) < 0.001 for (_, a), (_, b) in zip(fresh_times, times)), (fresh_times, times)
    screenshot("round-trip")



# MARK: Issue 46 — UTF-16 files, names that reverse text or fill the window, a one-place file opened again


def test_a_google_earth_kml_in_utf16_becomes_pins_with_its_names(make_app, downloads, screenshot):
    kml = samples.google_earth_kml(downloads / "Saved.kml")
    assert kml.read_bytes().startswith(b"\xff\xfe<\x00?\x00x\x00m\x00l\x00"), "UTF-16LE with its byte-order mark"
    app = make_app(LaunchedWithFiles).start(files=(kml,))
    dialogs = Dialogs(app)

    text = import_question(dialogs, "Import 3 places?")
    assert "From “Saved.kml”." in text, text
    screenshot("question")
    dialogs.answer("Import")
    app.wait_until(lambda: app.named_pins() == expected(samples.GOOGLE_EARTH_PLACES), 10,
                   lambda: f"the UTF-16 file's places are pins with their names: {app.named_pins()}")
    dialogs.notification("3 places imported")


def place_rows(accessible: AccessibleApp) -> list[str]:
    """My Places' rows by place name (a row reads "NAME, N photos")."""
    return [n.name.rsplit(", ", 1)[0] for n in accessible.node.findChildren(lambda n: n.roleName == "list item",
                                                                            showingOnly=False)
            if n.showing and (n.name.endswith(" photos") or n.name.endswith(" photo"))]


def label_width(accessible: AccessibleApp, text: str) -> int:
    return next(n.size[0] for n in accessible.node.findChildren(lambda n: n.roleName == "label" and n.name == text,
                                                                showingOnly=False) if n.showing)


def test_names_that_reverse_text_or_fill_the_window_are_stored_plain_and_capped(make_app, downloads, screenshot):
    gpx = samples.tricky_names_gpx(downloads / "tricky.gpx")
    plain = "Lisbon gpj.exe"
    capped = samples.LONG_NAME[:199].rstrip() + "…"
    app = make_app(LaunchedWithFiles).start(files=(gpx,))
    dialogs = Dialogs(app)
    import_question(dialogs, "Import 2 places?")
    dialogs.answer("Import")
    app.wait_until(lambda: len(app.pins()) == 2, 10, "both waypoints are pins")

    names = sorted(name for (name,) in app.query("SELECT place_name FROM pin"))
    assert not any("\u202e" in name for name in names), f"no right-to-left override is stored: {names!r}"
    assert names == sorted([plain, capped]), names
    assert max(len(name) for name in names) == 200, "the long name is cut to 200 characters, its last an ellipsis"
    width = app.window_geometry()[2]

    # My Places shows the names as stored, the long one cut short on screen, not widening the window.
    app.key("F9")
    accessible = dialogs.accessible
    rows = app.wait_until(lambda: len(r := place_rows(accessible)) == 2 and r, 10, "My Places lists both places")
    assert rows == [capped, plain], f"newest first, as stored: {rows!r}"
    screenshot("my-places")
    assert app.window_geometry()[2] == width, "a long name does not stretch the window"
    assert label_width(accessible, capped) < width, "the long name is ellipsized within the sidebar"

    # Its album's title is cut short too.
    app.key("Return")
    accessible.find("Back", "push button")
    app.wait_until(lambda: capped in accessible.labels(), 10, "the long name's album is open")
    screenshot("album")
    assert app.window_geometry()[2] == width, "the album's title does not stretch the window"
    assert label_width(accessible, capped) < width, "the album's title is ellipsized"
    assert app.process.poll() is None


def test_a_one_place_file_opened_again_says_its_place_is_on_the_map(make_app, downloads, screenshot):
    gpx = samples.gps_logger_gpx(downloads / "lisbon.gpx", samples.OTHER_WAYPOINTS[:1])
    app = make_app(LaunchedWithFiles).start(files=(gpx,))
    dialogs = Dialogs(app)
    import_question(dialogs, "Import 1 place?")
    dialogs.answer("Import")
    app.wait_until(lambda: app.named_pins() == expected(samples.OTHER_WAYPOINTS[:1]), 10, "its place is a pin")

    # The message uses only the file's name, its second argument: issue 46 found it crashed the app.
    assert app.open_again(str(gpx), cwd=downloads).returncode == 0
    _, text = dialogs.alert()
    screenshot("nothing-to-import")
    assert app.process.poll() is None, f"the app is alive; log:\n{app.log_tail()}"
    assert text == "Nothing to import The place in “lisbon.gpx” is already on your map.", text
    dialogs.answer("OK")
    assert app.named_pins() == expected(samples.OTHER_WAYPOINTS[:1])
    assert app.process.poll() is None


def test_the_exports_name_follows_the_type_chosen_in_the_file_chooser(make_app, downloads, tmp_path, screenshot):
    """Issue 46 point 5: the chooser offers "My Places.gpx"; choosing KML placemarks in its type list writes KML,
    named "My Places.kml" — and the offered name kept with its type writes GPX."""
    app = make_app(LaunchedWithFiles).start(files=(samples.gps_logger_gpx(downloads / "logger.gpx"),))
    dialogs = Dialogs(app)
    import_question(dialogs, "Import 3 places?")
    dialogs.answer("Import")
    app.wait_until(lambda: len(app.pins()) == 3, 10, "three pins")

    app.key("shift+ctrl+e")
    accessible = dialogs.accessible
    name_field = app.wait_until(lambda: next((n for n in accessible.node.findChildren(
        lambda n: n.roleName == "text", showingOnly=False) if n.showing and n.text == "My Places.gpx"), None), 10,
        "the chooser offers the name “My Places.gpx”")
    types = app.wait_until(lambda: next((n for n in accessible.node.findChildren(
        lambda n: n.roleName == "combo box", showingOnly=False) if n.showing and any(
            item.name == "KML placemarks" for item in n.findChildren(lambda i: i.roleName == "menu item",
                                                                     showingOnly=False))), None), 10,
        "the chooser lists the types")
    types.doActionNamed("press")
    accessible.find("KML placemarks", "menu item").doActionNamed("click")
    app.wait_until(lambda: types.querySelection().getSelectedChild(0).name == "KML placemarks", 5, "KML is chosen")
    # Into this test's folder, the name as offered: the chooser's location is its own business.
    window = xdotool(app.display, "search", "--onlyvisible", "--name", "^Export Places$").stdout.split()[0]
    xdotool(app.display, "windowfocus", "--sync", window)
    name_field.queryEditableText().setTextContents(str(tmp_path / "My Places.gpx"))
    screenshot("export-kml-chosen")
    accessible.find("Export", "push button").doActionNamed("click")
    notification = dialogs.notification("3 places exported to")
    assert notification == "3 places exported to “My Places.kml”"
    written = tmp_path / "My Places.kml"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("My Places")) == ["My Places.kml"]
    assert_same_places(kml_places(written.read_bytes()), app.named_pins(), "the KML the type chosen wrote")
