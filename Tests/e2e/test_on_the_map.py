"""On the Map end to end: the real app against the real server (a seeded class of 100), a local
tile server, the Nominatim stub and a fake browser; driven by real input (xdotool) and read through
accessibility (AT-SPI). The UI contract these tests encode is in `UI` below and in the tests:
accessible names and roles, nothing else."""

from __future__ import annotations

import json
import time
from http.server import BaseHTTPRequestHandler

import pytest

from harness.accessibility import AccessibleApp
from harness.geo import screen_point
from harness.map import PIN_HEAD_ABOVE_TIP, WORLD_CENTRE, WORLD_ZOOM, map_box
from harness.on_the_map import Account, OnTheMapApp, OnTheMapServer, SeededClass
from harness.screenshots import shows_near, wait_until_screen_shows
from harness.stand_in_api import StandInApi
from harness.user_input import UserInput
from harness.waiting import wait_until
from harness.xdotool import xdotool

ROW = "list item"
LINK_ROLES = ("push button", "link")


def same_text(text: str) -> str:
    """Case and typographic quotes don't matter: "Can’t" == "can't"."""
    return text.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"').lower()


class UI:
    """On the Map as a user and a screen reader meet it."""

    def __init__(self, app: OnTheMapApp, accessible: AccessibleApp, user: UserInput) -> None:
        self.app, self.accessible, self.user = app, accessible, user

    # MARK: Finding and clicking

    def find_any(self, name: str, roles: tuple[str, ...], within=None, timeout: float = 10.0):
        scope = within or self.accessible.node
        return wait_until(lambda: next((node for node in scope.findChildren(
            lambda n: n.name == name and n.roleName in roles, showingOnly=False) if node.showing), None),
            timeout, f"a showing {'/'.join(roles)} named {name!r}")

    def click_node(self, node) -> None:
        """A real click in the middle of the widget."""
        (x, y), (width, height) = node.position, node.size
        self.user.click(x + width // 2, y + height // 2)

    def type_into(self, name: str, text: str, roles: tuple[str, ...] = ("text",), within=None) -> None:
        """Click the entry, select what is there and type over it, as a user would."""
        node = self.find_any(name, roles, within)
        self.click_node(node)
        self.user.key("ctrl+a")
        if text:
            xdotool(self.app.display, "type", "--delay", 15, text)
        else:
            self.user.key("BackSpace")
        # A password entry reads as bullets through accessibility: only its length shows.
        secret = node.roleName == "password text"
        wait_until(lambda: (len(node.text) == len(text)) if secret else node.text == text, 5,
                   lambda: f"{name} reads {text!r} (it reads {node.text!r})")

    # MARK: Alerts

    def alert(self, timeout: float = 15.0):
        return self.accessible.alert(timeout)

    def no_alert(self) -> bool:
        return self.accessible.no_alert()

    def answer_alert(self, button: str) -> None:
        node, _ = self.alert()
        self.find_any(button, ("push button",), within=node).doActionNamed("click")
        wait_until(lambda: self.no_alert(), 5, f"the alert closed after {button}")

    # MARK: Pages

    def log_in(self, account: Account, with_enter: bool = False) -> None:
        self.type_into("Email", account.email)
        self.type_into("Password", account.password, ("password text",))
        if with_enter:
            self.user.key("Return")
        else:
            self.find_any("Log In", ("push button",)).doActionNamed("click")

    def wait_for_classmates(self) -> None:
        self.find_any("Log Out", ("push button",), timeout=30)
        self.find_any("Map", ("drawing area",), timeout=10)

    def show(self, page: str) -> None:
        self.find_any(page, ("radio button", "toggle button")).doActionNamed("click")

    def rows(self) -> list:
        return [node for node in self.accessible.node.findChildren(lambda n: n.roleName == ROW, showingOnly=False)]

    def dialog(self, title: str = "Add Location", timeout: float = 10.0):
        return wait_until(lambda: next((n for n in self.accessible.node.findChildren(
            lambda n: n.roleName == "dialog" and n.name == title, showingOnly=False) if n.showing), None),
            timeout, f"the {title} dialog is showing")

    def dialog_closed(self, title: str = "Add Location") -> bool:
        return not any(n.showing for n in self.accessible.node.findChildren(
            lambda n: n.roleName == "dialog" and n.name == title, showingOnly=False))

    def pin_head(self, latitude: float, longitude: float) -> tuple[int, int]:
        """Screen point on a pin's head, for the first start's view (zoom 2 around 20° N 0° E)."""
        x, y = screen_point(latitude, longitude, WORLD_CENTRE, WORLD_ZOOM, map_box(self.accessible))
        return round(x), round(y) - PIN_HEAD_ABOVE_TIP


@pytest.fixture
def ui(on_the_map_app: OnTheMapApp, on_the_map_accessible: AccessibleApp, user: UserInput) -> UI:
    return UI(on_the_map_app, on_the_map_accessible, user)


@pytest.fixture
def logged_in(ui: UI, on_the_map_class: SeededClass) -> UI:
    ui.log_in(on_the_map_class.me)
    ui.wait_for_classmates()
    return ui


def is_red(pixel: tuple[int, int, int]) -> bool:
    red, green, blue = pixel
    return red > 170 and green < 90 and blue < 90


def is_my_pin_colour(pixel: tuple[int, int, int]) -> bool:
    """The blue of my own pin (the test tiles' sea is a greyer blue, the classmates' pins red)."""
    red, green, blue = pixel
    return red < 60 and blue > 180 and blue - green > 70


def my_posting(server: OnTheMapServer, me: Account) -> list[dict]:
    return server.locations(me.key)


# MARK: - Logging in


def test_the_login_page_names_the_server_and_enables_log_in_only_with_both_fields(ui, on_the_map_server, screenshot):
    assert ui.find_any("Server", ("text",), timeout=10).text == on_the_map_server.api_url
    log_in = ui.find_any("Log In", ("push button",))
    screenshot("login-page")
    assert not log_in.sensitive, "nothing typed yet"
    ui.type_into("Email", "mae@example.org")
    assert not log_in.sensitive, "a password is needed too"
    ui.type_into("Password", "x", ("password text",))
    wait_until(lambda: log_in.sensitive, 5, "Log In is enabled")


def test_a_wrong_password_says_so_and_stays_on_the_login_page(ui, on_the_map_class, screenshot):
    me = on_the_map_class.me
    ui.log_in(Account(me.email, "not my password", me.first_name, me.last_name, me.key))
    _, text = ui.alert()
    screenshot("wrong-password")
    assert "wrong email or password" in same_text(text), text
    ui.answer_alert("OK")
    assert ui.find_any("Log In", ("push button",)).showing
    assert not ui.accessible.exists("Log Out", "push button")


def test_a_stopped_server_is_reported_as_unreachable(ui, on_the_map_class, on_the_map_server, screenshot):
    on_the_map_server.stop()
    ui.log_in(on_the_map_class.me)
    _, text = ui.alert()
    screenshot("server-stopped")
    assert "can't reach the server" in same_text(text), text
    ui.answer_alert("OK")
    on_the_map_server.start()
    assert ui.find_any("Email", ("text",)).text == on_the_map_class.me.email, "the email is kept"
    ui.log_in(on_the_map_class.me)  # the password again: the app may have cleared it
    ui.wait_for_classmates()


class FailingServer(StandInApi):
    """Answers every request with 500 and a JSON error, as a server with its database down."""

    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            def answer(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                body = b")]}'\n" + json.dumps({"status": 500, "error": "The database is down."}).encode()
                self.send_response(500)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            do_GET = do_POST = do_DELETE = do_PUT = answer

            def log_message(self, *arguments) -> None:
                pass
        super().__init__(Handler)


def test_a_failing_server_is_reported_as_a_server_failure(make_on_the_map_app, user, on_the_map_class, screenshot):
    failing = FailingServer()
    try:
        app = make_on_the_map_app(extra_environment={"ON_THE_MAP_API_URL": failing.api_url}).start()
        ui = UI(app, AccessibleApp("on-the-map"), user)
        ui.log_in(on_the_map_class.me)
        _, text = ui.alert()
        screenshot("server-failed")
        assert "the server failed" in same_text(text), text
    finally:
        failing.stop()


def test_enter_in_the_password_logs_in_and_shows_the_class_on_the_map(ui, on_the_map_class, tiles, screenshot):
    ui.log_in(on_the_map_class.me, with_enter=True)
    seen_spinner = wait_until(lambda: any(n.showing for n in ui.accessible.node.findChildren(
        lambda n: n.roleName == "animation", showingOnly=False)) or ui.accessible.exists("Log Out", "push button"),
        10, "a spinner while logging in, or the class")
    assert seen_spinner
    ui.wait_for_classmates()
    for name in ("Log Out", "Refresh", "Add Location"):
        assert ui.find_any(name, ("push button",)).sensitive
    ui.find_any("Map", ("radio button", "toggle button"))
    ui.find_any("List", ("radio button", "toggle button"))
    assert xdotool(ui.app.display, "getwindowname", ui.app.window_id).stdout.strip() == "On the Map"
    tiles.wait_for_tile_requests(count=4)
    lonely = on_the_map_class.students[:1] + on_the_map_class.students[3:4]
    heads = [ui.pin_head(student.latitude, student.longitude) for student in lonely]
    wait_until_screen_shows(ui.app, lambda image: all(shows_near(image, head, is_red) for head in heads),
                            "the map drew the class's pins")
    image = screenshot("map-with-the-class")
    for student in lonely:
        x, y = ui.pin_head(student.latitude, student.longitude)
        assert any(is_red(image.getpixel((x + dx, y + dy))) for dx in range(-6, 7) for dy in range(-6, 7)), \
            f"a red pin for {student.full_name} at {x},{y}"


# MARK: - The map and the list


def test_clicking_a_pin_shows_the_student_and_opens_their_link(logged_in, on_the_map_class, tiles, screenshot):
    ui = logged_in
    leilani = on_the_map_class.students[0]
    tiles.wait_for_tile_requests(count=4)
    head = ui.pin_head(leilani.latitude, leilani.longitude)
    wait_until_screen_shows(ui.app, lambda image: shows_near(image, head, is_red),
                            f"the map drew {leilani.full_name}'s pin")
    ui.user.click(*head)
    ui.find_any(leilani.full_name, ("label",))
    link = ui.find_any(leilani.media_url, LINK_ROLES)
    screenshot("pin-popover")
    ui.click_node(link)
    assert ui.app.browser.wait_for_url() == leilani.media_url


def test_the_list_is_newest_first_and_rows_open_their_links(logged_in, on_the_map_server, screenshot):
    ui = logged_in
    ui.show("List")
    newest = [f"{s['firstName']} {s['lastName']}" for s in on_the_map_server.locations()[:12]]
    rows = wait_until(lambda: (r := ui.rows()) and len(r) >= 100 and r, 15, "the list shows the class")
    assert len(rows) == 100
    for row, name in zip(rows, newest):
        assert row.name.startswith(name + ","), f"{row.name!r} should be {name}'s row"
    screenshot("list")

    first = on_the_map_server.locations()[0]
    ui.click_node(rows[0])
    assert ui.app.browser.wait_for_url() == first["mediaURL"]

    second = on_the_map_server.locations()[1]
    rows[1].grabFocus()
    ui.user.key("Return")
    assert ui.app.browser.wait_for_url(count=2) == second["mediaURL"]


def test_a_row_whose_link_is_not_a_web_link_opens_nothing(logged_in, on_the_map_class, screenshot):
    ui = logged_in
    ui.show("List")
    student = on_the_map_class.students[2]
    assert not student.is_web_link
    row = wait_until(lambda: next((r for r in ui.rows() if r.name.startswith(student.full_name + ",")), None), 15,
                     f"{student.full_name}'s row")
    ui.click_node(row)
    _, text = ui.alert()
    screenshot("not-a-web-link")
    assert "not a web" in same_text(text), text
    ui.answer_alert("OK")
    time.sleep(1.5)  # a pause, not a wait: it proves that no browser opens afterwards either
    assert ui.app.browser.opened() == []


def test_sign_up_opens_the_servers_sign_up_page_in_the_browser(ui, on_the_map_server):
    ui.click_node(ui.find_any("Sign Up", LINK_ROLES))
    assert ui.app.browser.wait_for_url() == on_the_map_server.base_url + "/signup"


# MARK: - Adding my location


def find_place(ui: UI, place: str) -> object:
    """Add Location, type the place, Find on the Map; returns the dialog at step 2."""
    ui.find_any("Add Location", ("push button",)).doActionNamed("click")
    dialog = ui.dialog()
    ui.type_into("Location", place, within=dialog)
    ui.find_any("Find on the Map", ("push button",), within=dialog).doActionNamed("click")
    ui.find_any("Link to share", ("text",), within=dialog, timeout=20)
    return dialog


def submit(ui: UI, dialog, link: str) -> None:
    ui.type_into("Link to share", link, within=dialog)
    ui.find_any("Submit", ("push button",), within=dialog).doActionNamed("click")


def test_posting_a_place_found_offline_puts_me_on_the_map_and_first_in_the_list(logged_in, on_the_map_class,
                                                                                on_the_map_server, screenshot):
    ui, me = logged_in, on_the_map_class.me
    dialog = find_place(ui, "Mountain View")
    screenshot("step-2-mountain-view")
    submit(ui, dialog, "https://github.com/mae-jemison")
    wait_until(lambda: ui.dialog_closed(), 20, "the dialog closed after a successful post")
    mine = my_posting(on_the_map_server, me)
    assert len(mine) == 1
    assert abs(mine[0]["latitude"] - 37.39) < 0.05 and abs(mine[0]["longitude"] + 122.08) < 0.05, mine
    assert "mountain view" in mine[0]["mapString"].lower()
    assert mine[0]["mediaURL"] == "https://github.com/mae-jemison"
    assert (mine[0]["firstName"], mine[0]["lastName"]) == (me.first_name, me.last_name)
    # My pin is drawn in its own colour, where the first start's view shows it or, if the app
    # centres the map on a new post, in the middle of the map.
    left, top, right, bottom = map_box(ui.accessible)
    candidates = [ui.pin_head(mine[0]["latitude"], mine[0]["longitude"]),
                  ((left + right) // 2, (top + bottom) // 2 - PIN_HEAD_ABOVE_TIP)]
    wait_until_screen_shows(ui.app, lambda image: any(is_my_pin_colour(image.getpixel((x - 7, y)))
                                                      for x, y in candidates), "the map drew my pin")
    image = screenshot("map-with-my-pin")
    assert any(is_my_pin_colour(image.getpixel((x - 7, y))) for x, y in candidates), \
        f"a pin in my colour at one of {candidates}: {[image.getpixel((x - 7, y)) for x, y in candidates]}"
    ui.show("List")
    wait_until(lambda: (r := ui.rows()) and r[0].name.startswith(me.full_name), 15, "my row is first in the list")
    screenshot("list-with-my-row")


def test_an_address_found_by_nominatim_is_posted_and_a_second_post_overwrites_it(logged_in, on_the_map_class,
                                                                               on_the_map_server, nominatim, screenshot):
    ui, me = logged_in, on_the_map_class.me
    dialog = find_place(ui, "1600 Amphitheatre Parkway, Mountain View")
    assert any("amphitheatre" in (r["q"] or "").lower() for r in nominatim.requests()), "the stub was asked"
    submit(ui, dialog, "https://example.org/mae")
    wait_until(lambda: ui.dialog_closed(), 20, "the dialog closed")
    first = my_posting(on_the_map_server, me)
    assert len(first) == 1 and abs(first[0]["latitude"] - 37.422) < 0.01 and abs(first[0]["longitude"] + 122.084) < 0.01

    dialog = find_place(ui, "Eiffel Tower")
    submit(ui, dialog, "https://example.org/mae-in-paris")
    _, text = ui.alert()
    screenshot("overwrite-question")
    assert "already posted a location" in same_text(text), text
    ui.answer_alert("Overwrite")
    wait_until(lambda: ui.dialog_closed(), 20, "the dialog closed after overwriting")
    second = my_posting(on_the_map_server, me)
    assert len(second) == 1, "still one location for my key"
    assert second[0]["objectId"] == first[0]["objectId"]
    assert abs(second[0]["latitude"] - 48.858) < 0.01 and second[0]["mediaURL"] == "https://example.org/mae-in-paris"
    assert second[0]["updatedAt"] > first[0]["updatedAt"]


def test_cancel_at_every_step_posts_nothing(logged_in, on_the_map_class, on_the_map_server):
    ui, me = logged_in, on_the_map_class.me
    ui.find_any("Add Location", ("push button",)).doActionNamed("click")
    dialog = ui.dialog()
    ui.find_any("Cancel", ("push button",), within=dialog).doActionNamed("click")
    wait_until(lambda: ui.dialog_closed(), 10, "Cancel at step 1 closed the dialog")

    dialog = find_place(ui, "Mountain View")
    ui.type_into("Link to share", "https://example.org/never", within=dialog)
    ui.find_any("Cancel", ("push button",), within=dialog).doActionNamed("click")
    wait_until(lambda: ui.dialog_closed(), 10, "Cancel at step 2 closed the dialog")
    assert my_posting(on_the_map_server, me) == []

    session = on_the_map_server.session_id(me)  # I posted from another computer meanwhile
    status, _ = on_the_map_server.post_location({"uniqueKey": me.key, "firstName": me.first_name, "lastName": me.last_name,
                                                 "mapString": "Houston", "mediaURL": "https://example.org/houston",
                                                 "latitude": 29.76, "longitude": -95.37}, session)
    assert status == 200
    dialog = find_place(ui, "Mountain View")
    submit(ui, dialog, "https://example.org/mountain-view")
    ui.answer_alert("Cancel")
    assert [s["mapString"] for s in my_posting(on_the_map_server, me)] == ["Houston"], "not overwritten"


def test_an_invalid_link_or_a_place_not_found_is_explained(logged_in, screenshot):
    ui = logged_in
    ui.find_any("Add Location", ("push button",)).doActionNamed("click")
    dialog = ui.dialog()
    ui.type_into("Location", "Qwzxq Nowhereville", within=dialog)
    ui.find_any("Find on the Map", ("push button",), within=dialog).doActionNamed("click")
    _, text = ui.alert(timeout=20)
    screenshot("place-not-found")
    assert "qwzxq nowhereville" in same_text(text), text
    ui.answer_alert("OK")

    ui.type_into("Location", "Mountain View", within=dialog)
    ui.find_any("Find on the Map", ("push button",), within=dialog).doActionNamed("click")
    for link in ("", "not a link"):
        ui.type_into("Link to share", link, within=ui.dialog())
        ui.find_any("Submit", ("push button",), within=dialog).doActionNamed("click")
        _, text = ui.alert()
        assert "link" in same_text(text), text
        ui.answer_alert("OK")
    screenshot("after-invalid-links")


def test_a_failed_post_keeps_the_dialog_and_what_i_typed(logged_in, on_the_map_class, on_the_map_server, screenshot):
    ui = logged_in
    dialog = find_place(ui, "Mountain View")
    on_the_map_server.stop()
    submit(ui, dialog, "https://example.org/kept")
    _, text = ui.alert(timeout=30)
    screenshot("post-failed")
    ui.answer_alert("OK")
    assert not ui.dialog_closed(), "the dialog stays open"
    assert ui.find_any("Link to share", ("text",), within=dialog).text == "https://example.org/kept"
    on_the_map_server.start()
    ui.find_any("Submit", ("push button",), within=dialog).doActionNamed("click")
    wait_until(lambda: ui.dialog_closed(), 20, "a second Submit posted once the server was back")
    assert [s["mediaURL"] for s in my_posting(on_the_map_server, on_the_map_class.me)] == ["https://example.org/kept"]


# MARK: - Logging out


def test_log_out_returns_to_the_login_page_and_ends_the_session_on_the_server(logged_in, on_the_map_class,
                                                                              on_the_map_server, screenshot):
    ui, me = logged_in, on_the_map_class.me
    assert on_the_map_server.sessions_of(me) == 1
    ui.find_any("Log Out", ("push button",)).doActionNamed("click")
    ui.find_any("Log In", ("push button",), timeout=15)
    screenshot("logged-out")
    wait_until(lambda: on_the_map_server.sessions_of(me) == 0, 10, "the server ended the session")
