"""Issue 33: in a right-to-left language (Hebrew) both windows mirror as GTK mirrors them — the header bar's order,
the map's controls, the buttons — measured through accessibility against the same window in English, and kept
as screenshots to look at."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from harness.accessibility import AccessibleApp
from harness.on_the_map import APP_NAME as ON_THE_MAP
from harness.user_input import UserInput
from harness.waiting import wait_until
from test_on_the_map import UI

ENGLISH = {"LANG": "en_US.UTF-8", "LANGUAGE": "en"}
HEBREW = {"LANG": "he_IL.UTF-8", "LANGUAGE": "he"}
# How far a widget's centre may sit from its mirror image: a margin or a spacing that differs between the sides.
SLACK = 24


@pytest.fixture(scope="module")
def hebrew(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Hebrew as a user with a Hebrew catalogue of ours meets it. GLib lets GTK translate its own texts (and take the
    direction from them) only when the app has a catalogue for the language, so a header-only one stands in for a
    translation: our texts stay English, GTK's turn Hebrew and right-to-left."""
    share = tmp_path_factory.mktemp("hebrew") / "share"
    folder = share / "locale/he/LC_MESSAGES"
    folder.mkdir(parents=True)
    source = folder / "virtual-tourist.po"
    source.write_text('msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: he\\n"\n',
                      encoding="utf-8")
    subprocess.run(["msgfmt", "--check", "-o", str(folder / "virtual-tourist.mo"), str(source)], check=True)
    return {**HEBREW, "XDG_DATA_DIRS": f"{share}:/usr/local/share:/usr/share"}


def centres(accessible: AccessibleApp, widgets: list[tuple[str, str]]) -> tuple[dict[str, float], float]:
    """Each widget's horizontal centre as a fraction-free offset from the window's left edge, and the window's width."""
    frame = wait_until(lambda: next((n for n in accessible.node.findChildren(
        lambda n: n.roleName == "frame", showingOnly=False) if n.showing), None), 10, "the window is showing")
    (left, _), (width, _) = frame.position, frame.size
    found = {}
    for name, role in widgets:
        x, _, w, _ = accessible.extents(name, role)
        found[name] = x + w / 2 - left
    return found, width


def assert_mirrored(english: tuple[dict[str, float], float], hebrew: tuple[dict[str, float], float]) -> None:
    (ltr, width), (rtl, rtl_width) = english, hebrew
    assert abs(width - rtl_width) <= 2, f"the window changed width between languages: {width} → {rtl_width}"
    problems = [f"{name}: {ltr[name]:.0f} px from the left in English, {rtl[name]:.0f} in Hebrew "
                f"(its mirror is {width - ltr[name]:.0f})"
                for name in ltr if abs(rtl[name] - (width - ltr[name])) > SLACK]
    assert not problems, "not mirrored:\n" + "\n".join(problems)
    assert any(abs(ltr[name] - width / 2) > width / 4 for name in ltr), "every widget measured sits mid-window"


def test_virtual_tourist_mirrors_in_hebrew(make_app, hebrew, screenshot) -> None:
    widgets = [("Search for a place", "text"), ("Zoom In", "push button"), ("Zoom Out", "push button"),
               ("© OpenStreetMap contributors", "label")]
    measured = []
    for environment, name in ((ENGLISH, "english"), (hebrew, "hebrew")):
        app = make_app(extra_environment=environment).start()
        accessible = AccessibleApp()
        accessible.find("Zoom In", "push button")
        time.sleep(0.5)  # the window's first allocation settles
        measured.append(centres(accessible, widgets))
        screenshot(f"virtual-tourist-{name}")
        app.quit()
    assert_mirrored(*measured)


def test_on_the_map_mirrors_in_hebrew(make_on_the_map_app, on_the_map_class, hebrew, display, screenshot) -> None:
    widgets = [("Log Out", "push button"), ("Refresh", "push button"), ("Add Location", "push button")]
    measured = []
    for environment, name in ((ENGLISH, "english"), (hebrew, "hebrew")):
        app = make_on_the_map_app(extra_environment=environment).start()
        ui = UI(app, AccessibleApp(ON_THE_MAP), UserInput(display))
        ui.log_in(on_the_map_class.me)
        ui.wait_for_classmates()
        time.sleep(0.5)
        measured.append(centres(ui.accessible, widgets))
        screenshot(f"on-the-map-{name}")
        app.stop()
    assert_mirrored(*measured)
