"""Issue 33: both apps in other languages, started for real.

The pseudo-locale walk runs each app in en@pseudo, where every marked text reads ⟦…⟧ (harness/catalogues.py),
opens every page and dialog a user can reach, and reads every showing text through AT-SPI: accessible names and
descriptions (GTK gives a widget's tooltip as its description). A text that is neither bracketed, nor the test's
own data (place, student and photographer names, links, photo titles), nor GTK's own (ALLOWED_GTK_TEXTS) was never
marked, or sits in a file po/POTFILES does not list: the failure lists page → text → where the sources (Swift,
GtkBuilder files) have it.

The German walk runs the same pages under LANGUAGE=de: a few key texts per page read as po/de.po translates them,
no text po/de.po translates is still shown in English, and GTK's own buttons read German (the locale is live).
"""

from __future__ import annotations

import html
import re
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Callable, Iterator

import pytest

from harness import on_the_map as otm
from harness import place_samples
from harness.accessibility import AccessibleApp
from harness.app import APP_NAME, App
from harness.catalogues import (CLOSE, OPEN, PSEUDO, REPO, Catalogue, Catalogues, build_catalogues, gtk_messages,
                                gtk_translation)
from harness.geo import screen_point
from harness.map import PIN_HEAD_ABOVE_TIP, WORLD_CENTRE, WORLD_ZOOM
from harness.own_pictures import PicturesFolder, offset
from harness.user_input import UserInput
from harness.waiting import wait_until
from harness.xdotool import xdotool
from test_place_files import LaunchedWithFiles

GERMAN = "de"
PARIS = ("Paris, Île-de-France, France", 48.8566, 2.3522)
SYDNEY = ("Sydney, New South Wales, Australia", -33.8688, 151.2093)  # Flickr has no photo of it: "No Images"
# The user's own photos near Sydney (file, km north, km east, EXIF date): its empty album invites to show them.
OWN_PHOTOS = [("harbour.jpg", 0.5, 0.5, "2021:03:15 09:30:00"), ("IMG_1.jpg", -1.0, 0.0, "2019:06:01 12:00:00"),
              ("opera.jpg", 0.0, 2.0, "2017:08:20 16:45:00")]
GPX_FILE, HOSTILE_FILE = "20230601-waypoints.gpx", "laughs.gpx"  # a GPS logger's 3 waypoints; the billion laughs

# GTK's own texts, which come from gtk30.mo (there is none for en@pseudo, so they stay English). Each is GTK's
# msgid (its mnemonic underscore dropped), with %s where GTK puts the app's (bracketed) text; the test checks
# that GTK really has each, so the list cannot hide an app's text.
ALLOWED_GTK_TEXTS = {
    "Close": "the header bar's close button; the About window's Close",
    "Minimize": "the header bar's window button",
    "Maximize": "the header bar's window button",
    "Restore": "the header bar's window button, once maximized",
    "About %s": "the About window's title",
    "Credits": "the About window's tab",
    "License": "the About window's tab",
    "Created by": "the About window's Credits heading",
    "Translated by": "the About window's Credits heading",
    "Shortcuts": "the keyboard shortcuts window's title",
    "Search Shortcuts": "the keyboard shortcuts window's search",
    "Website": "the About window's link when an app gives it no label of its own",
    "Error": "a message dialog's accessible name, from its kind (On the Map's alerts)",
    "Warning": "a message dialog's accessible name, from its kind",
    "Question": "a message dialog's accessible name, from its kind",
    "Information": "a message dialog's accessible name, from its kind",
    "Spinner": "an idle spinner's accessible name (the apps name it while it spins)",
    "Provides visual indication of progress": "a spinner's accessible description",
    "Forward": "the accessible name GTK gives the go-next icon (On the Map's list rows)",
}
# The GPL notice the About window writes from GTK_LICENSE_GPL_3_0 (GTK's text, with its link).
GTK_LICENSE_NOTICE = re.compile(r"This program comes with absolutely no warranty\..*", re.DOTALL)
# The keyboard shortcuts window writes its keys itself: GTK's "keyboard label" texts (Ctrl, Escape, Home …),
# letters, digits and function keys. Allowed on that page only: elsewhere "Back" or "Delete" would be the app's.
SHORTCUTS_PAGE = "keyboard-shortcuts"
KEY_CAP = re.compile(r"[A-Z0-9]|F\d{1,2}|Menu|[-+=?←→↑↓]")  # and X's name of the menu key
# Names of icons (the search entry's icons are named after them): never shown as text.
ICON_NAME = re.compile(r"[a-z0-9-]+-symbolic")
# Creative Commons' license codes read the same in every language (Sources/FlickrClient/FlickrLicense.swift).
CREATIVE_COMMONS = re.compile(r"CC(?:0| BY(?:-(?:NC|SA|ND))*) \d\.\d")

WRAPPED = re.compile(f"{OPEN}[^{OPEN}{CLOSE}]*{CLOSE}")
NUMBER = re.compile(r"\d+(?:[.,\u00a0\u202f]\d+)*(?:[kKM](?![^\W\d_]))?")
LINK = re.compile(f"(?:https?|ftp|javascript|mailto|file|data):[^\\s{OPEN}{CLOSE}]*|[\\w.+-]+@[\\w-]+(?:\\.[\\w-]+)+"
                  f"|www\\.[^\\s{OPEN}{CLOSE}]+")
LETTER = re.compile(r"[^\W\d_]")


# MARK: - The catalogues and the language an app runs in


@pytest.fixture(scope="session")
def catalogues(tmp_path_factory: pytest.TempPathFactory) -> Catalogues:
    """po/<lang>.po of po/LINGUAS and the pseudo-translation of today's po/POTFILES, built once per session."""
    return build_catalogues(tmp_path_factory.mktemp("catalogues"))


def strip_mnemonic(text: str) -> str:
    """What GTK shows for a label with use-underline: "_Save" → "Save", "__" → "_"."""
    return re.sub(r"_(.)", r"\1", text)


class Language:
    """The language an app runs in, for finding its widgets: English while a text is not marked yet (the checks
    report it), else what the catalogue says."""

    def __init__(self, code: str, catalogue: Catalogue) -> None:
        self.code, self.catalogue = code, catalogue
        self.shown: dict[str, str] = {}  # English as shown (mnemonic dropped) → translation as shown
        for message in catalogue.messages.values():
            if message.translations[0]:
                self.shown.setdefault(strip_mnemonic(message.msgid), strip_mnemonic(message.translations[0]))

    def names(self, english: str) -> set[str]:
        """The names a widget showing `english` may have: its translation, or English while unmarked."""
        return {english} | ({self.shown[english]} if english in self.shown else set())

    def translated(self, english: str) -> str | None:
        return self.shown.get(english)

    def gtk(self, english: str) -> set[str]:
        """The names of one of GTK's own texts (gtk30.mo), e.g. "Close" → {"Close", "Schließen"}."""
        found = gtk_translation(self.code, english) or gtk_translation(self.code, f"_{english}")
        return {english} | ({strip_mnemonic(found)} if found else set())


@dataclass(frozen=True)
class Formatted:
    """A text the app formats from a catalogue's msgid: its arguments (None: any text, e.g. a date) and the count
    that picks a plural form."""
    msgid: str
    arguments: tuple[str | None, ...]
    count: int | None = None

    def pattern(self, language: Language) -> re.Pattern:
        """What the app shows in `language` (English while the msgid has no translation), as a pattern."""
        message = language.catalogue.messages.get(self.msgid)
        text = self.msgid
        if message is not None and any(message.translations):
            form = 0 if self.count == 1 or len(message.translations) == 1 else 1
            text = message.translations[form] or message.translations[0]
        parts, sequential = [], iter(self.arguments)
        for piece in re.split(r"(%(?:\d+\$)?[@d])", text):
            if not re.fullmatch(r"%(?:\d+\$)?[@d]", piece):
                parts.append(re.escape(piece))
                continue
            position = re.match(r"%(\d+)\$", piece)
            argument = self.arguments[int(position.group(1)) - 1] if position else next(sequential)
            parts.append(".+?" if argument is None else re.escape(argument))
        return re.compile("".join(parts))

    def translated(self, language: Language) -> bool:
        message = language.catalogue.messages.get(self.msgid)
        return message is not None and any(message.translations)


# MARK: - Reading what shows, through AT-SPI


def has_state(node, state: str) -> bool:
    """Whether the node has an AT-SPI state ("showing", "focused" …); False once it is gone."""
    import pyatspi  # after dogtail (AccessibleApp) has prepared the environment
    try:
        return node.getState().contains(getattr(pyatspi, f"STATE_{state.upper()}"))
    except Exception:
        return False


def showing_descendants(root) -> Iterator:
    """Every showing node under `root` (its windows, for the app), depth first. A node that is not showing hides
    its whole subtree, so only what a user can see is read, and hidden pages cost nothing."""
    def visit(node) -> Iterator:
        if not has_state(node, "showing"):
            return
        try:
            children = [node.getChildAtIndex(index) for index in range(node.childCount)]
        except Exception:  # the node went away while it was read (a popover closing): nothing shows there
            return
        yield node
        for child in children:
            if child is not None:
                yield from visit(child)

    for index in range(root.childCount):
        child = root.getChildAtIndex(index)
        if child is not None:
            yield from visit(child)


def showing_texts(root) -> list[tuple[str, str]]:
    """(role, text) of every showing node under `root`: names and descriptions (tooltips), each once."""
    found: dict[tuple[str, str], None] = {}
    for node in showing_descendants(root):
        try:
            role, texts = node.getRoleName(), (node.name, node.description)
        except Exception:
            continue
        for text in texts:
            if text and text.strip():
                found.setdefault((role, text.strip()), None)
    return list(found)


def showing_nodes(root, predicate: Callable, limit: int | None = None) -> list:
    """Showing nodes under `root` for which predicate(node) holds (the first `limit` of them)."""
    matches = []
    for node in showing_descendants(root):
        try:
            if predicate(node):
                matches.append(node)
        except Exception:
            continue
        if limit is not None and len(matches) >= limit:
            break
    return matches


# MARK: - Judging a page's texts


@dataclass
class UserData:
    """Texts the test put into the app or the servers: never translated. `strings` may sit inside a longer
    text; `lines` are patterns a whole line must match (e.g. the cities the search suggests)."""
    strings: set[str] = field(default_factory=set)
    lines: list[re.Pattern] = field(default_factory=list)

    def pattern(self) -> re.Pattern | None:
        strings = sorted((s for s in self.strings if s), key=len, reverse=True)
        if not strings:
            return None
        return re.compile(r"(?<!\w)(?:" + "|".join(re.escape(s) for s in strings) + r")(?!\w)")


def reduce_line(line: str, data: re.Pattern | None) -> str:
    """The line with its bracketed texts, the test's data, links and numbers each replaced by %s (nested brackets,
    "⟦updated ⟦5 minutes ago⟧⟧", fold from the inside out)."""
    line = CREATIVE_COMMONS.sub("%s", LINK.sub("%s", line))
    if data is not None:
        line = data.sub("%s", line)
    while (folded := WRAPPED.sub("%s", line)) != line:
        line = folded
    line = NUMBER.sub("%s", line)
    return re.sub(r"\s+", " ", line).strip()


def key_caps() -> set[str]:
    return {msgid for context, msgid in gtk_messages(GERMAN) if context == "keyboard label"}


def before_links(catalogue: Catalogue) -> set[str]:
    """The About window cuts a credit's trailing web address off as a link, and the closing bracket with it:
    "⟦Nominatim, © OpenStreetMap contributors" is what shows of "⟦… https://nominatim.org/⟧"."""
    return {OPEN + found.group(1) for message in catalogue.messages.values() for translation in message.translations
            if (found := re.fullmatch(f"{OPEN}(.*?) +https?://\\S+{CLOSE}", translation))}


def unmarked_lines(page: str, text: str, data: UserData, pattern: re.Pattern | None,
                   cut_before_links: set[str] = frozenset()) -> list[str]:
    """The lines of `text` a user would read in English although the app runs in en@pseudo."""
    if GTK_LICENSE_NOTICE.fullmatch(text) or ICON_NAME.fullmatch(text) or text in cut_before_links:
        return []
    if page == SHORTCUTS_PAGE and (KEY_CAP.fullmatch(text) or text in key_caps()):
        return []
    problems = []
    for line in text.split("\n"):
        if any(expression.fullmatch(line) for expression in data.lines):
            continue
        reduced = reduce_line(line, pattern)
        if not LETTER.search(reduced.replace("%s", "")):
            continue  # numbers, punctuation, data and bracketed texts only
        if strip_mnemonic(reduced) in ALLOWED_GTK_TEXTS or reduced in ALLOWED_GTK_TEXTS:
            continue
        problems.append(line)
    return problems


def listed_in_potfiles() -> set[str]:
    lines = (REPO / "po" / "POTFILES").read_text().splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


SWIFT_LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
MARKED_BEFORE = re.compile(r'\btrn?\(\s*$|\btrn\(\s*"(?:[^"\\]|\\.)*"\s*,\s*$')
FORMAT_PLACEHOLDER = re.compile(r"%(?:\d+\$)?(?:@|l{0,2}d|\.?\d*f)|\\\([^)]*\)")


@dataclass(frozen=True)
class SourceText:
    """A string literal in Sources/ or a text in a GtkBuilder file under data/: where it is, whether it is marked
    (and listed in po/POTFILES), and the texts it can show."""
    place: str  # path:line and whether it is marked
    text: str
    pattern: re.Pattern | None  # for a format: any text it can become once its placeholders are filled

    @property
    def without_links(self) -> str:
        """The text as the About window shows a credit: its web address made a separate link."""
        return re.sub(r" +", " ", re.sub(r"https?://\S+", "", self.text)).strip()


BUILDER_TEXT = re.compile(r"<(property|attribute|item|col)\b([^>]*)>([^<]+)</\1>")


def source_texts(listed: set[str]) -> list[SourceText]:
    """Every text the apps' sources hold: Swift string literals and GtkBuilder files' texts."""
    found = []
    for path in sorted((REPO / "Sources").rglob("*.swift")):
        relative = str(path.relative_to(REPO))
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if line.lstrip().startswith("//"):
                continue
            for literal in SWIFT_LITERAL.finditer(line):
                marked = MARKED_BEFORE.search(line[:literal.start()]) is not None
                text = _swift_unescape(literal.group(1))
                found.append(_source_text(relative, number, strip_mnemonic(text) if marked else text, marked,
                                          listed, "tr()"))
    for path in sorted((REPO / "data").rglob("*.ui")):
        relative = str(path.relative_to(REPO))
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            for element in BUILDER_TEXT.finditer(line):
                marked = 'translatable="yes"' in element.group(2)
                text = html.unescape(element.group(3))
                found.append(_source_text(relative, number, strip_mnemonic(text) if marked else text, marked,
                                          listed, 'translatable="yes"'))
    return found


def _source_text(relative: str, number: int, text: str, marked: bool, listed: set[str], mark: str) -> SourceText:
    state = ("not marked" if not marked else f"{mark}, but po/POTFILES does not list the file"
             if relative not in listed else f"{mark} in a listed file: shown before Translations.setUp()?")
    pieces = FORMAT_PLACEHOLDER.split(text)
    pattern = None
    if len(pieces) > 1 and len(LETTER.findall("".join(pieces))) >= 3:
        pattern = re.compile("(.+?)".join(re.escape(piece) for piece in pieces), re.DOTALL)
    return SourceText(f"{relative}:{number} {state}", text, pattern)


def _swift_unescape(raw: str) -> str:
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "'": "'", "0": "\0", "r": "\r"}
    return re.sub(r"\\u\{([0-9a-fA-F]+)\}|\\(.)",
                  lambda m: chr(int(m.group(1), 16)) if m.group(1) else escapes.get(m.group(2), m.group(2)), raw)


def where_in_sources(text: str, literals: list[SourceText]) -> str:
    """Where the sources have this text: a literal (or GtkBuilder text) that is it, or a format that makes it;
    whether that is marked (tr/trn, translatable="yes") and in a file po/POTFILES lists."""
    for template in ALLOWED_GTK_TEXTS:
        if "%s" in template and (found := re.fullmatch(re.escape(template).replace("%s", "(.+)"), text)):
            return f"GTK's {template!r} around {found.group(1)!r}: " + where_in_sources(found.group(1), literals)
    exact = sorted((literal.place for literal in literals if text in (literal.text, literal.without_links)),
                   key=lambda place: "not marked" not in place)  # the unmarked one first: most likely the cause
    if exact:
        return "; ".join(dict.fromkeys(exact[:3]))
    formats = [literal.place + " (a format)" for literal in literals
               if literal.pattern is not None and literal.pattern.fullmatch(text)]
    if formats:
        return "; ".join(dict.fromkeys(formats[:3]))
    return "no text in Sources/ or data/ makes it (markup, a multi-line literal, or pieces joined?)"


# MARK: - One walk through an app's pages


class Walk:
    """Drives an app in one language and records, per page, every showing text, with a screenshot of each."""

    def __init__(self, language: Language, user: UserInput, display: str, screenshot) -> None:
        self.language, self.user, self.display, self.screenshot = language, user, display, screenshot
        self.accessible: AccessibleApp | None = None
        self.pages: dict[str, list[tuple[str, str]]] = {}

    def attach(self, program: str) -> None:
        """Reads the app (started again: its new process) from the accessibility bus."""
        self.accessible = AccessibleApp(program)

    def page(self, name: str) -> None:
        time.sleep(0.2)  # GTK's transitions end and AT-SPI's last events arrive
        self.pages[name] = showing_texts(self.accessible.node)
        self.screenshot(f"{self.language.code}-{name}")

    def first(self, predicate: Callable):
        """The first showing node for which predicate(node) holds, or None."""
        return next(iter(showing_nodes(self.accessible.node, predicate, limit=1)), None)

    def wait_for(self, predicate: Callable, what: str, timeout: float = 10.0):
        return wait_until(lambda: self.first(predicate), timeout, what)

    def find(self, english: str, roles: tuple[str, ...], timeout: float = 10.0, gtk: bool = False):
        """A showing widget whose name is `english` in this language (or English, while unmarked); `gtk`: one of
        GTK's own texts, translated by gtk30.mo."""
        names = self.language.gtk(english) if gtk else self.language.names(english)
        return self.wait_for(lambda n: n.name in names and n.getRoleName() in roles,
                             f"a showing {'/'.join(roles)} named {sorted(names)}", timeout)

    def shows(self, english: str, roles: tuple[str, ...]) -> bool:
        names = self.language.names(english)
        return self.first(lambda n: n.name in names and n.getRoleName() in roles) is not None

    def press(self, english: str, roles: tuple[str, ...] = ("push button",), action: str = "click",
              gtk: bool = False) -> None:
        self.find(english, roles, gtk=gtk).doActionNamed(action)

    def click(self, node, button: int = 1) -> None:
        """A real click in the middle of the widget."""
        (x, y), (width, height) = node.position, node.size
        self.user.click(x + width // 2, y + height // 2, button=button)

    def key_into_window(self, window_node, *keys: str) -> None:
        """Keys into a dialog's own window (no window manager here gives it the focus)."""
        found = xdotool(self.display, "search", "--onlyvisible", "--name", f"^{re.escape(window_node.name)}$",
                        check=False).stdout.split()
        if found:
            xdotool(self.display, "windowfocus", "--sync", found[-1])
        xdotool(self.display, "key", "--delay", 50, *keys)

    def gone(self, node, what: str) -> None:
        wait_until(lambda: not has_state(node, "showing"), 10, f"{what} closed")


# MARK: - Virtual Tourist


class TranslatedTourist(LaunchedWithFiles):
    """Virtual Tourist whose window may carry a translated title (the harness looks for the English one); it can
    be started with files to import, as test_place_files starts it."""

    def _find_window(self) -> str | None:
        from harness.waiting import GiveUp
        if self.process.poll() is not None:
            raise GiveUp(f"the app exited ({self.process.returncode}); log:\n{self.log_tail()}")
        ids = xdotool(self.display, "search", "--onlyvisible", "--pid", self.process.pid, "--name", ".",
                      check=False).stdout.split()
        return ids[0] if ids else None


@pytest.fixture
def make_tourist(make_app, catalogues: Catalogues):
    """make_tourist(language): conftest's make_app, running in `language` with the session's catalogues."""
    def make(language: str) -> TranslatedTourist:
        return make_app(app_class=TranslatedTourist, extra_environment=catalogues.environment(language))
    return make


def map_box(walk: Walk) -> tuple[int, int, int, int]:
    (x, y), (width, height) = (node := walk.find("Map", ("drawing area",))).position, node.size
    return x, y, x + width, y + height


def walk_virtual_tourist(app: TranslatedTourist, walk: Walk, flickr) -> UserData:
    """Every page of Virtual Tourist a user reaches; returns the data the test gave it (and GeoNames')."""
    data = UserData(strings={PARIS[0], SYDNEY[0]})
    # The first start: an empty map with its hint, the main menu and everything it opens.
    app.start()
    walk.attach(APP_NAME)
    walk.find("Map", ("drawing area",), timeout=20)
    walk.page("map-first-start")
    open_main_menu(walk)
    walk.page("main-menu")
    walk.press("Preferences", ("push button", "menu item"))
    dialog = walk.find("Preferences", ("dialog", "frame"))
    walk.page("preferences")
    walk.press("Cancel")
    walk.gone(dialog, "Preferences")
    open_main_menu(walk)
    walk.press("Keyboard Shortcuts", ("push button", "menu item"))
    main_window = app_window_name(walk)
    shortcuts = walk.wait_for(lambda n: n.getRoleName() in ("frame", "dialog", "window") and n.name != main_window,
                              "the shortcuts window opened")
    walk.page("keyboard-shortcuts")
    walk.key_into_window(shortcuts, "Escape")
    walk.gone(shortcuts, "the keyboard shortcuts window")
    open_main_menu(walk)
    walk.press("About Virtual Tourist", ("push button", "menu item"))
    about = walk.wait_for(lambda n: n.getRoleName() == "dialog", "the About window opened")
    walk.page("about")
    walk.press("Credits", ("toggle button", "radio button", "push button"), gtk=True)
    walk.page("about-credits")
    walk.key_into_window(about, "Escape")
    walk.gone(about, "the About window")
    assert app.quit() == 0

    # Two places: Paris with photos, Sydney without any.
    with sqlite3.connect(app.database_path) as database:
        for index, (name, latitude, longitude) in enumerate((PARIS, SYDNEY)):
            database.execute("INSERT INTO pin(latitude, longitude, created_at, place_name, place_name_source) "
                             "VALUES (?, ?, ?, ?, 'offline')", (latitude, longitude, 800_000_000.0 + index, name))
    flickr.control({"totals": {f"{SYDNEY[1]:.4f},{SYDNEY[2]:.4f}": 0}})
    pictures = PicturesFolder(app.home)
    for name, north, east, taken in OWN_PHOTOS:
        pictures.add_tagged(name, offset(SYDNEY[1], SYDNEY[2], north, east), taken)
    data.strings |= {name for name, *_ in OWN_PHOTOS} | {"~/Pictures", str(pictures.folder)}
    app.start()
    walk.attach(APP_NAME)
    box = map_box(walk)
    walk.page("map-with-pins")

    # A pin's menu (its secondary click).
    x, y = screen_point(PARIS[1], PARIS[2], WORLD_CENTRE, WORLD_ZOOM, box)
    walk.user.click(round(x), round(y) - PIN_HEAD_ABOVE_TIP, button=3)
    walk.find("Delete Pin", ("menu item",))
    walk.page("pin-menu")
    walk.press("Delete Pin", ("menu item",))
    app.wait_until(lambda: len(app.pins()) == 1, 5, "Delete Pin deleted Paris")
    walk.find("Undo", ("push button",))
    walk.page("pin-deleted")
    walk.press("Undo")
    app.wait_until(lambda: len(app.pins()) == 2, 5, "Undo restored Paris")

    # The search: cities suggested while typing, then Enter without online search.
    app.key("ctrl+f")
    entry = walk.find("Search for a place", ("text",))
    app.wait_until(lambda: has_state(entry, "focused"), 5, "Ctrl+F reached the search")
    xdotool(app.display, "type", "--delay", 40, "Paris")
    app.wait_until(lambda: place_rows(walk, "Paris"), 10, "cities are suggested")
    walk.find("Press Enter to search for addresses and landmarks too", ("label",))
    walk.page("search-suggestions")
    data.strings |= geonames_texts(walk)
    app.key("Return")
    walk.find("Online search unavailable — showing cities", ("label",), timeout=15)
    walk.page("search-offline")
    data.strings |= geonames_texts(walk)
    app.key("Escape")
    app.wait_until(lambda: not place_rows(walk, "Paris"), 5, "Escape closed the results")
    app.key("ctrl+a", "BackSpace", "Escape")

    # My Places, its sort menu, and the album of Paris (second, newest first) with the keyboard.
    app.key("F9")
    app.wait_until(lambda: len(place_rows(walk, "Paris", "Sydney")) == 2, 10, "My Places lists both places")
    walk.page("my-places")
    walk.press("Sort Places", ("combo box",), action="press")
    by_name = walk.find("By Name", ("menu item",))
    walk.page("my-places-sort-menu")
    walk.user.key("Escape")
    walk.gone(by_name, "the sort menu")
    walk.click(place_rows(walk, "Paris")[0])  # a click selects a place, Enter opens it
    app.key("Return")
    walk.find("Back", ("push button",))
    pin_id = app.query("SELECT id FROM pin WHERE place_name = ?", (PARIS[0],))[0][0]
    app.wait_until(lambda: (p := app.photos(pin_id)) and all(path for _, _, path in p)
                   and has_state(walk.find("New Collection", ("push button",)), "sensitive")
                   and not walk.shows("Photo loading", ("list item",)), 30, "the album of Paris is complete")
    walk.page("album")

    # A photo's menu, the viewer, and the notification a removal shows.
    tiles = photo_tiles(walk)
    walk.click(tiles[2], button=3)
    walk.find("View Larger", ("menu item",))
    walk.page("photo-menu")
    walk.press("View Larger", ("menu item",))
    main_window = app_window_name(walk)
    viewer = walk.wait_for(lambda n: n.getRoleName() == "frame" and n.name != main_window, "the photo viewer opened")
    app.wait_until(lambda: not showing_nodes(viewer, lambda n: n.getRoleName() == "animation" and n.name), 15,
                   "the viewer shows the bigger size")
    walk.page("photo-viewer")
    walk.key_into_window(viewer, "Escape")
    walk.gone(viewer, "the photo viewer")
    count = len(app.photos(pin_id))
    walk.click(photo_tiles(walk)[0])
    app.wait_until(lambda: len(app.photos(pin_id)) == count - 1, 5, "a click removed a photo")
    walk.find("Undo", ("push button",))
    walk.page("notification")
    walk.press("Undo")
    app.wait_until(lambda: len(app.photos(pin_id)) == count, 5, "Undo restored the photo")

    # Sydney's album: No Images.
    walk.press("Back")
    app.wait_until(lambda: not walk.shows("Back", ("push button",)), 5, "back on the map")
    walk.click(place_rows(walk, "Sydney")[0])
    app.key("Return")
    walk.find("No Images", ("label",), timeout=20)
    walk.find("Show My Photos", ("push button",))
    walk.page("album-no-images")
    walk_own_photos(app, walk)
    assert app.quit() == 0

    photos = app.query("SELECT coalesce(title, ''), coalesce(owner_name, '') FROM photo")
    data.strings |= {text for row in photos for text in row if text}
    data.strings |= walk_place_files(app, walk)
    return data


def walk_own_photos(app: TranslatedTourist, walk: Walk) -> None:
    """From Sydney's album and its invitation: the user's photos shown, one hidden, My Places counting them, and
    Preferences' Your Photos section."""
    count = len(OWN_PHOTOS)
    walk.press("Show My Photos")
    heading = Formatted("Your Photos (%@)", (str(count),)).pattern(walk.language)
    walk.wait_for(lambda n: n.getRoleName() == "label" and heading.fullmatch(n.name), "the user's photos show", 20)
    app.wait_until(lambda: len(own_tiles(walk)) == count, 10, "every near photo has its tile")
    walk.page("album-own-photos")
    walk.click(own_tiles(walk)[0])
    app.wait_until(lambda: len(own_tiles(walk)) == count - 1, 5, "a click hid one of the user's photos")
    walk.find("Undo", ("push button",))
    walk.page("own-photo-hidden")
    walk.press("Undo")
    app.wait_until(lambda: len(own_tiles(walk)) == count, 5, "Undo showed the photo again")

    walk.press("Back")
    yours = Formatted("%@ of yours", (str(count),), count).pattern(walk.language)
    app.wait_until(lambda: (rows := place_rows(walk, "Sydney")) and yours.search(rows[0].name), 10,
                   "My Places counts the user's photos near Sydney")
    walk.page("my-places-own-photos")

    open_main_menu(walk)
    walk.press("Preferences", ("push button", "menu item"))
    dialog = walk.find("Preferences", ("dialog", "frame"))
    walk.find("Show your own photos in albums", ("toggle button", "check box"))
    status = Formatted("%@ photo", (str(count),), count).pattern(walk.language)
    walk.wait_for(lambda n: n.getRoleName() == "label" and status.search(n.name), "the index's status line shows")
    walk.find("Default", ("label",))
    walk.page("preferences-own-photos")
    walk.press("Cancel")
    walk.gone(dialog, "Preferences")


def own_tiles(walk: Walk) -> list:
    """The album's tiles of the user's photos (named after their files)."""
    names = tuple(name for name, *_ in OWN_PHOTOS)
    return showing_nodes(walk.accessible.node, lambda n: n.getRoleName() == "list item"
                         and any(name in n.name for name in names))


def walk_place_files(app: TranslatedTourist, walk: Walk) -> set[str]:
    """Started with a GPS logger's file and a hostile one: the question, the notification, the refusal. Returns
    the data it gave the app."""
    downloads = app.home / "Downloads"
    downloads.mkdir(exist_ok=True)
    good = place_samples.gps_logger_gpx(downloads / GPX_FILE)
    hostile = place_samples.billion_laughs_gpx(downloads / HOSTILE_FILE)
    app.start(files=(good, hostile))
    walk.attach(APP_NAME)
    question = alert(walk)
    walk.find("Import", ("push button",))
    walk.page("import-question")
    walk.press("Import")
    walk.gone(question, "the import question")
    app.wait_until(lambda: len(app.pins()) == 2 + len(place_samples.LOGGER_WAYPOINTS), 10, "the waypoints are pins")
    walk.find("Undo", ("push button",))
    walk.page("places-imported")
    refusal = walk.wait_for(lambda n: n.getRoleName() == "alert" and has_state(n, "showing")
                            and any(HOSTILE_FILE in text for _, text in showing_texts(n)), "the refusal shows", 20)
    walk.page("import-refused")
    walk.press("OK")
    walk.gone(refusal, "the refusal")
    assert app.quit() == 0
    return {GPX_FILE, HOSTILE_FILE} | {place.name for place in place_samples.LOGGER_WAYPOINTS}


def geonames_texts(walk: Walk) -> set[str]:
    """The cities the search found (GeoNames' names of places, regions and countries): data, not the app's text."""
    results = walk.find("Places found", ("list box", "list"))
    return {text for _, text in showing_texts(results)}


def app_window_name(walk: Walk) -> str:
    windows = [walk.accessible.node.getChildAtIndex(index) for index in range(walk.accessible.node.childCount)]
    return next((w.name for w in windows if w is not None and w.getRoleName() == "frame"), "")


def open_main_menu(walk: Walk) -> None:
    walk.press("Main Menu", ("toggle button", "push button"))
    walk.find("Preferences", ("push button", "menu item"))


def place_rows(walk: Walk, *places: str) -> list:
    """Showing list rows that name one of `places` (My Places' rows, the search's cities), in any language."""
    return showing_nodes(walk.accessible.node, lambda n: n.getRoleName() == "list item"
                         and any(place in n.name for place in places))


def photo_tiles(walk: Walk) -> list:
    places = (PARIS[0], SYDNEY[0])
    return showing_nodes(walk.accessible.node, lambda n: n.getRoleName() == "list item"
                         and not any(place in n.name for place in places))


# MARK: - On the Map


class TranslatedOnTheMap(otm.OnTheMapApp):
    """On the Map whose window may carry a translated title (the harness looks for "On the Map" exactly)."""

    def _find_window(self) -> str | None:
        from harness.waiting import GiveUp
        if self.process.poll() is not None:
            raise GiveUp(f"the app exited ({self.process.returncode}); log:\n{self.log_tail()}")
        ids = xdotool(self.display, "search", "--onlyvisible", "--pid", self.process.pid, "--name", ".",
                      check=False).stdout.split()
        return ids[0] if ids else None


@pytest.fixture
def make_on_the_map(make_on_the_map_app, catalogues: Catalogues):
    """make_on_the_map(language): conftest's make_on_the_map_app, running in `language` with the session's
    catalogues."""
    def make(language: str) -> TranslatedOnTheMap:
        return make_on_the_map_app(app_class=TranslatedOnTheMap, extra_environment=catalogues.environment(language))
    return make


def type_into(walk: Walk, english: str, text: str, roles: tuple[str, ...] = ("text",)) -> None:
    node = walk.find(english, roles)
    walk.click(node)
    walk.user.key("ctrl+a")
    xdotool(walk.display, "type", "--delay", 15, text)
    secret = node.getRoleName() == "password text"
    wait_until(lambda: len(node.text) == len(text) if secret else node.text == text, 5, f"{english} reads {text!r}")


def alert(walk: Walk):
    return walk.wait_for(lambda n: n.getRoleName() == "alert", "an alert is showing", 20)


def walk_on_the_map(app: TranslatedOnTheMap, walk: Walk, seeded: otm.SeededClass, server) -> UserData:
    """Every page of On the Map a user reaches; returns the data the test gave it."""
    app.start()
    walk.attach(otm.APP_NAME)
    walk.find("Log In", ("push button",), timeout=20)
    walk.page("login")

    walk.press("Main Menu", ("toggle button", "push button"))
    walk.find("About On the Map", ("push button", "menu item"))
    walk.page("main-menu")
    walk.press("About On the Map", ("push button", "menu item"))
    about = walk.wait_for(lambda n: n.getRoleName() == "dialog", "the About window opened")
    walk.page("about")
    walk.press("Credits", ("toggle button", "radio button", "push button"), gtk=True)
    walk.page("about-credits")
    walk.key_into_window(about, "Escape")
    walk.gone(about, "the About window")

    me = seeded.me
    type_into(walk, "Email", me.email)
    type_into(walk, "Password", "not my password", ("password text",))
    walk.press("Log In")
    failure = alert(walk)
    walk.page("failed-login")
    walk.find("OK", ("push button",)).doActionNamed("click")
    walk.gone(failure, "the alert")

    type_into(walk, "Password", me.password, ("password text",))
    walk.press("Log In")
    walk.find("Log Out", ("push button",), timeout=30)
    box = map_box(walk)
    walk.page("map")

    leilani = seeded.students[0]
    x, y = screen_point(leilani.latitude, leilani.longitude, WORLD_CENTRE, WORLD_ZOOM, box)
    head = (round(x), round(y) - PIN_HEAD_ABOVE_TIP)
    popover = wait_until(lambda: clicked_popover(walk, head, leilani.full_name), 20, f"{leilani.full_name}'s popover")
    walk.page("pin-popover")
    walk.user.key("Escape")
    walk.gone(popover, "the pin's popover")

    walk.press("List", ("radio button", "toggle button"))
    newest = seeded.students[0].full_name
    wait_until(lambda: showing_nodes(walk.accessible.node, lambda n: n.getRoleName() == "list item"
                                     and n.name.startswith(newest)), 15, "the list shows the class, newest first")
    walk.page("list")
    walk.press("Map", ("radio button", "toggle button"))

    walk.press("Add Location")
    dialog = walk.find("Add Location", ("dialog",))
    walk.page("add-location-place")
    type_into(walk, "Location", "Mountain View")
    walk.press("Find on the Map")
    walk.find("Link to share", ("text",), timeout=20)
    walk.page("add-location-link")
    walk.press("Cancel")
    walk.gone(dialog, "Add Location")

    walk.press("Log Out")
    walk.find("Log In", ("push button",), timeout=15)
    walk.page("logged-out")

    names = {s.full_name for s in seeded.students} | {s.map_string for s in seeded.students}
    initials = {(s.first_name[:1] + s.last_name[:1]).upper() for s in seeded.students}  # the list's avatars
    links = {s.media_url for s in seeded.students}
    return UserData(strings=names | links | initials | {me.full_name, me.email, server.api_url, server.base_url},
                    lines=[re.compile(r"Mountain View\b.*")])


def clicked_popover(walk: Walk, head: tuple[int, int], name: str):
    """Clicks the pin's head (again, while the map may still be drawing it) until its popover names the student."""
    walk.user.click(*head)
    time.sleep(0.4)
    labels = showing_nodes(walk.accessible.node, lambda n: n.getRoleName() == "label" and n.name == name)
    if not labels:
        return None
    node = labels[0]
    while node is not None and node.getRoleName() not in ("popup menu", "panel", "window", "frame"):
        node = node.parent
    return node or labels[0]


# MARK: - The checks


def unmarked_report(pages: dict[str, list[tuple[str, str]]], data: UserData, catalogue: Catalogue) -> list[str]:
    pattern = data.pattern()
    cut = before_links(catalogue)
    literals = source_texts(listed_in_potfiles())
    report, seen = [], set()
    for page, texts in pages.items():
        for role, text in texts:
            for line in unmarked_lines(page, text, data, pattern, cut):
                if line in seen:
                    continue
                seen.add(line)
                report.append(f"{page} → {role} {line!r} → {where_in_sources(line, literals)}")
    return report


def check_allowed_gtk_texts() -> None:
    """Each allowed text is GTK's own (a msgid of gtk30.mo), so the list cannot hide an app's text."""
    gtk_msgids = {strip_mnemonic(msgid) for _, msgid in gtk_messages(GERMAN)}
    assert gtk_msgids, "GTK's German catalogue (gtk30.mo) is not installed: the allow-list cannot be checked"
    not_gtk = [text for text in ALLOWED_GTK_TEXTS if text not in gtk_msgids]
    assert not not_gtk, f"not GTK's own texts, remove them from ALLOWED_GTK_TEXTS: {not_gtk}"


def pseudo(catalogues: Catalogues) -> Language:
    return Language(PSEUDO, catalogues[PSEUDO])


def german(catalogues: Catalogues) -> Language:
    if GERMAN not in catalogues.catalogues:
        pytest.skip("po/LINGUAS lists no de: no German catalogue to check")
    if not len(catalogues[GERMAN]):
        pytest.skip("po/de.po has no translated messages yet: the German walk starts once it has some")
    return Language(GERMAN, catalogues[GERMAN])


def test_the_allowed_texts_are_gtks_own():
    check_allowed_gtk_texts()


def test_every_text_virtual_tourist_shows_is_marked_for_translation(make_tourist, flickr, user, display, screenshot,
                                                                    catalogues):
    walk = Walk(pseudo(catalogues), user, display, screenshot)
    data = walk_virtual_tourist(make_tourist(PSEUDO), walk, flickr)
    report = unmarked_report(walk.pages, data, catalogues[PSEUDO])
    assert not report, ("Virtual Tourist shows texts that are not marked for translation (page → role text → "
                        "source):\n  " + "\n  ".join(report))


def test_every_text_on_the_map_shows_is_marked_for_translation(make_on_the_map, on_the_map_class, on_the_map_server,
                                                               user, display, screenshot, catalogues):
    walk = Walk(pseudo(catalogues), user, display, screenshot)
    data = walk_on_the_map(make_on_the_map(PSEUDO), walk, on_the_map_class, on_the_map_server)
    report = unmarked_report(walk.pages, data, catalogues[PSEUDO])
    assert not report, ("On the Map shows texts that are not marked for translation (page → role text → "
                        "source):\n  " + "\n  ".join(report))


# Per page: English texts (as shown) that must read German, and GTK's own texts that must read German too.
TOURIST_GERMAN = {
    "map-first-start": (["My Places", "Main Menu", "Press and hold anywhere on the map to drop a pin."], ["Close"]),
    "main-menu": (["Preferences", "Keyboard Shortcuts", "About Virtual Tourist", "Import Places…", "Export Places…"],
                  []),
    "preferences": (["Preferences", "Flickr API Key", "Cancel", "Save"], []),
    "keyboard-shortcuts": (["Zoom in", "Close the viewer"], []),  # (its group titles are not on AT-SPI)
    "about": (["Website"], ["Credits"]),
    "about-credits": (["Map data", "Place names"], []),
    "map-with-pins": (["Search for a place", "Map"], []),
    "pin-menu": (["Delete Pin"], []),
    "pin-deleted": (["Undo"], []),
    "search-suggestions": (["Press Enter to search for addresses and landmarks too"], []),
    "search-offline": (["Online search unavailable — showing cities"], []),
    "my-places": (["My Places", "Sort Places"], []),
    "my-places-sort-menu": (["Newest First", "By Name"], []),
    "album": (["Back", "New Collection"], []),
    "photo-menu": (["View Larger"], []),
    "photo-viewer": (["Open on Flickr"], []),
    "notification": (["Photo removed", "Undo"], []),
    "album-no-images": (["No Images", "Nobody has shared photos taken near this place on Flickr yet. Try a pin nearby.",
                         "Your own photos taken here can show in this album. Virtual Tourist looks for geotagged "
                         "photos in your Pictures folder; they stay on this computer.", "Show My Photos"], []),
    "album-own-photos": (["From Flickr", "From your computer, taken near this place. Removing one here only hides it "
                          "from this album: the file stays where it is.",
                          Formatted("Your Photos (%@)", (str(len(OWN_PHOTOS)),)),
                          Formatted("%1$@, taken %2$@", (OWN_PHOTOS[0][0], None))], []),
    "own-photo-hidden": (["Photo removed from this album. The file is still on your computer.", "Undo"], []),
    "my-places-own-photos": ([Formatted("%@ of yours", (str(len(OWN_PHOTOS)),), len(OWN_PHOTOS))], []),
    "preferences-own-photos": (["Your Photos", "Show your own photos in albums", "Geotagged photos in the folders "
                                "below are shown above Flickr's in the album of a place nearby. They stay on this "
                                "computer; nothing is copied, changed or uploaded.", "Default", "Add Folder…",
                                Formatted("%@ photo", (str(len(OWN_PHOTOS)),), len(OWN_PHOTOS))], []),
    "import-question": ([Formatted("Import %d place?", ("3",), 3),
                         Formatted("From “%@”. They will be pins on your map, each with its album.", (GPX_FILE,)),
                         "Import", "Cancel"], []),
    "places-imported": ([Formatted("%d place imported", ("3",), 3), "Undo"], []),
    "import-refused": ([Formatted("“%@” could not be imported", (HOSTILE_FILE,)), "OK"], []),
}
ON_THE_MAP_GERMAN = {
    "login": (["Log In", "Email", "Password", "Sign Up", "Don't have an account?"], ["Close"]),
    "main-menu": (["About On the Map", "Quit"], []),
    "about": ([], ["Credits"]),
    "about-credits": (["City names"], []),
    "failed-login": (["Wrong email or password", "OK"], []),
    "map": (["Log Out", "Refresh", "Add Location", "Map", "List"], []),
    "pin-popover": (["Open in your browser"], []),
    "list": (["Students"], []),
    "add-location-place": (["Add Location", "Where are you studying today?", "Find on the Map", "Cancel"], []),
    "add-location-link": (["Link to share", "Submit", "Change Place"], []),
    "logged-out": (["Log In"], []),
}


def german_report(language: Language, pages: dict[str, list[tuple[str, str]]],
                  expected: dict[str, tuple[list[str | Formatted], list[str]]]) -> list[str]:
    report = []
    for page, (all_texts, gtk_texts) in expected.items():
        shown = {text for _, text in pages.get(page, [])}
        shown |= {line for text in shown for line in text.split("\n")}
        texts = [text for text in all_texts if isinstance(text, str)]
        formats = [text for text in all_texts if isinstance(text, Formatted)]
        untranslated = [english for english in texts if language.translated(english) is None]
        untranslated += [formatted.msgid for formatted in formats if not formatted.translated(language)]
        missing = [f"{english!r} as {language.translated(english)!r}" for english in texts
                   if english not in untranslated and language.translated(english) not in shown]
        # A formatted text (a count, a file's name, a date inside) shows within a line: its pattern is searched.
        missing += [f"{formatted.msgid!r} as /{formatted.pattern(language).pattern}/" for formatted in formats
                    if formatted.translated(language)
                    and not any(formatted.pattern(language).search(text) for text in shown)]
        for english in gtk_texts:
            german_text = strip_mnemonic(gtk_translation(GERMAN, english) or gtk_translation(GERMAN, f"_{english}") or "")
            if german_text and german_text not in shown:
                missing.append(f"GTK's {english!r} as {german_text!r} (is the locale live?)")
        if untranslated:
            report.append(f"{page} → po/de.po has no German for {untranslated}")
        if missing:
            report.append(f"{page} → should show {', '.join(missing)}; it shows {sorted(shown)[:30]}")
    # Nothing po/de.po translates may still show in English (e.g. a text made before Translations.setUp()).
    english: dict[tuple[str, str], list[str]] = {}
    for page, texts in pages.items():
        for role, text in texts:
            german_text = language.translated(text)
            if german_text is not None and german_text != text and "%" not in text:
                english.setdefault((role, text), []).append(page)
    for (role, text), where in english.items():
        report.append(f"{', '.join(where)} → {role} {text!r} shows in English; po/de.po has "
                      f"{language.translated(text)!r}")
    return report


def test_virtual_tourist_reads_german(make_tourist, flickr, user, display, screenshot, catalogues):
    language = german(catalogues)
    walk = Walk(language, user, display, screenshot)
    walk_virtual_tourist(make_tourist(GERMAN), walk, flickr)
    report = german_report(language, walk.pages, TOURIST_GERMAN)
    assert not report, "Virtual Tourist under LANGUAGE=de:\n  " + "\n  ".join(report)


def test_on_the_map_reads_german(make_on_the_map, on_the_map_class, on_the_map_server, user, display, screenshot,
                                 catalogues):
    language = german(catalogues)
    walk = Walk(language, user, display, screenshot)
    walk_on_the_map(make_on_the_map(GERMAN), walk, on_the_map_class, on_the_map_server)
    report = german_report(language, walk.pages, ON_THE_MAP_GERMAN)
    assert not report, "On the Map under LANGUAGE=de:\n  " + "\n  ".join(report)
