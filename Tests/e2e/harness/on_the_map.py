"""On the Map's end-to-end pieces: the real On the Map server with a seeded class, the
Nominatim-compatible stub, and the real On the Map binary started with its own XDG folders.

The class is seeded once per test session into a template SQLite database (accounts through
`on-the-map-server user add`, locations over HTTP), then each test gets a fresh copy.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .browser import FakeBrowser
from .local_servers import FOLDER as TEST_SERVERS, PythonTestServer
from .processes import stop_process
from .waiting import GiveUp, wait_until
from .xdotool import xdotool

REPO = Path(__file__).resolve().parents[3]
APP_NAME = "on-the-map"
WINDOW_TITLE = "On the Map"
NOMINATIM_STUB = TEST_SERVERS / "nominatim_server.py"
PREFIX = b")]}'\n"  # starts every /v1/session and /v1/users answer


def server_binary() -> Path:
    """ON_THE_MAP_SERVER_BIN, else SwiftPM's debug build."""
    return Path(os.environ.get("ON_THE_MAP_SERVER_BIN", REPO / ".build" / "debug" / "on-the-map-server"))


def app_binary() -> Path:
    """ON_THE_MAP_BIN (CI: the meson-installed app), else SwiftPM's debug build."""
    return Path(os.environ.get("ON_THE_MAP_BIN", REPO / ".build" / "debug" / APP_NAME))


# MARK: - HTTP


def http(method: str, url: str, body: object | None = None, headers: dict[str, str] | None = None,
         timeout: float = 20) -> tuple[int, object]:
    """One request; returns the status and the JSON answer (prefix skipped), or the text if not JSON."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method, headers={
        "Accept": "application/json", **({"Content-Type": "application/json"} if data else {}), **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    raw = raw[len(PREFIX):] if raw.startswith(PREFIX) else raw
    try:
        return status, json.loads(raw)
    except ValueError:
        return status, raw.decode(errors="replace")


@dataclass(frozen=True)
class Account:
    email: str
    password: str
    first_name: str
    last_name: str
    key: str = ""

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"


# MARK: - The server


class OnTheMapServer:
    """`on-the-map-server serve` on 127.0.0.1 over one SQLite file; stop() and start() keep the port."""

    def __init__(self, database: Path, log_path: Path, binary: Path | None = None,
                 extra_arguments: tuple[str, ...] = ()) -> None:
        self.binary = binary or server_binary()
        self.database = database
        self.log_path = log_path
        self.extra_arguments = extra_arguments
        self.port = 0
        self.process: subprocess.Popen | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_url(self) -> str:
        """What ON_THE_MAP_API_URL expects."""
        return f"{self.base_url}/v1/"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self, timeout: float = 30) -> "OnTheMapServer":
        assert not self.running, "already running"
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [str(self.binary), "serve", "--database", str(self.database), "--host", "127.0.0.1",
                 "--port", str(self.port), *self.extra_arguments,
                 # /metrics' fixed default port would collide between servers running side by side.
                 *(() if "--metrics-port" in self.extra_arguments else ("--metrics-port", "off"))],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, cwd=self.database.parent)

        def listening():
            if self.process.poll() is not None:
                raise GiveUp(f"on-the-map-server exited ({self.process.returncode}):\n{self.log_text()[-3000:]}")
            found = re.search(r"Listening on http://127\.0\.0\.1:(\d+)", self.log_text(offset))
            return found and int(found.group(1))
        self.port = wait_until(listening, timeout, lambda: f"on-the-map-server listens:\n{self.log_text()[-3000:]}")
        return self

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
            self.process = None

    def log_text(self, offset: int = 0) -> str:
        try:
            with open(self.log_path, "rb") as log:
                log.seek(offset)
                return log.read().decode(errors="replace")
        except OSError:
            return ""

    # MARK: The API, as any client sees it

    def add_user(self, account: Account) -> Account:
        """`user add` (the password on stdin); returns the account with its key."""
        result = subprocess.run(
            [str(self.binary), "user", "add", "--database", str(self.database), "--email", account.email,
             "--first-name", account.first_name, "--last-name", account.last_name],
            input=account.password + "\n", capture_output=True, text=True, timeout=60)
        found = re.search(r"with key (\S+?)\.?$", result.stdout.strip())
        assert result.returncode == 0 and found, f"user add {account.email}: {result.stdout}{result.stderr}"
        return Account(account.email, account.password, account.first_name, account.last_name, found.group(1))

    def log_in(self, email: str, password: str) -> tuple[int, object]:
        return http("POST", self.base_url + "/v1/session", {"udacity": {"username": email, "password": password}})

    def session_id(self, account: Account) -> str:
        status, body = self.log_in(account.email, account.password)
        assert status == 200, f"log in as {account.email}: {status} {body}"
        return body["session"]["id"]

    def post_location(self, posting: dict, session_id: str | None = None) -> tuple[int, object]:
        headers = {"X-Session-Id": session_id} if session_id else {}
        return http("POST", self.base_url + "/v1/StudentLocation", posting, headers)

    def update_location(self, object_id: str, posting: dict, session_id: str) -> tuple[int, object]:
        return http("PUT", f"{self.base_url}/v1/StudentLocation/{object_id}", posting, {"X-Session-Id": session_id})

    def locations(self, unique_key: str | None = None, limit: int = 1000) -> list[dict]:
        """Newest first, as the server lists them."""
        query = f"?order=-updatedAt&limit={limit}" + (f"&uniqueKey={unique_key}" if unique_key else "")
        status, body = http("GET", f"{self.base_url}/v1/StudentLocation{query}")
        assert status == 200, f"GET StudentLocation: {status} {body}"
        return body["results"]

    def sessions_of(self, account: Account) -> int:
        """How many live sessions the account has (read from the database: ids are stored hashed)."""
        connection = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=10)
        try:
            return connection.execute("SELECT COUNT(*) FROM session WHERE account_key = ?", (account.key,)).fetchone()[0]
        finally:
            connection.close()


# MARK: - The seeded class


@dataclass(frozen=True)
class Student:
    first_name: str
    last_name: str
    map_string: str
    latitude: float
    longitude: float
    media_url: str
    unique_key: str

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def is_web_link(self) -> bool:
        return re.match(r"https?://[^\s/]+", self.media_url) is not None

    def posting(self) -> dict:
        return {"uniqueKey": self.unique_key, "firstName": self.first_name, "lastName": self.last_name,
                "mapString": self.map_string, "mediaURL": self.media_url,
                "latitude": self.latitude, "longitude": self.longitude}


# Far from every other student and from Mountain View, so a click on their pin hits only theirs.
LONELY = [Student("Leilani", "Kahale", "Honolulu, Hawaii", 21.307, -157.858, "https://github.com/leilani-k", ""),
          Student("Tiare", "Pakarati", "Hanga Roa, Easter Island", -27.149, -109.425, "http://tiare.example.org/", "")]
# Links the server refuses nowadays but older servers (and Udacity's) stored: never opened, but for the last, which the
# app offers as https://, as browsers read it (test_on_the_map_messy_service).
NOT_WEB_LINKS = ["ftp://files.example.org/notes.txt", "not a link", "javascript:alert(1)", "www.example.com/no-scheme"]
CITIES = [
    ("New York", 40.71, -74.01), ("Boston", 42.36, -71.06), ("Chicago", 41.88, -87.63), ("Toronto", 43.65, -79.38),
    ("Austin", 30.27, -97.74), ("Atlanta", 33.75, -84.39), ("Denver", 39.74, -104.99), ("Mexico City", 19.43, -99.13),
    ("Bogotá", 4.71, -74.07), ("Lima", -12.05, -77.04), ("São Paulo", -23.55, -46.63), ("Buenos Aires", -34.60, -58.38),
    ("London", 51.51, -0.13), ("Dublin", 53.35, -6.26), ("Paris", 48.86, 2.35), ("Berlin", 52.52, 13.40),
    ("Madrid", 40.42, -3.70), ("Lisbon", 38.72, -9.14), ("Rome", 41.90, 12.50), ("Stockholm", 59.33, 18.07),
    ("Warsaw", 52.23, 21.01), ("Athens", 37.98, 23.73), ("Istanbul", 41.01, 28.98), ("Cairo", 30.04, 31.24),
    ("Lagos", 6.52, 3.38), ("Accra", 5.60, -0.19), ("Nairobi", -1.29, 36.82), ("Cape Town", -33.92, 18.42),
    ("Dubai", 25.20, 55.27), ("Karachi", 24.86, 67.01), ("Mumbai", 19.08, 72.88), ("Bengaluru", 12.97, 77.59),
    ("Delhi", 28.61, 77.21), ("Dhaka", 23.81, 90.41), ("Bangkok", 13.76, 100.50), ("Singapore", 1.35, 103.82),
    ("Jakarta", -6.21, 106.85), ("Manila", 14.60, 120.98), ("Hong Kong", 22.32, 114.17), ("Shanghai", 31.23, 121.47),
    ("Seoul", 37.57, 126.98), ("Tokyo", 35.68, 139.69), ("Sydney", -33.87, 151.21), ("Auckland", -36.85, 174.76),
]
FIRST = ["Amara", "Bjørn", "Chen", "Dmitri", "Elif", "Fatima", "Gabriel", "Hana", "Iker", "José", "Kofi", "Lucía",
         "Mateus", "Nadia", "Oluwaseun", "Priya", "Quentin", "Rania", "Søren", "Thandiwe", "Uma", "Viktor", "Wei",
         "Ximena", "Yusuf", "Zoë"]
LAST = ["Abebe", "Novak", "Okafor", "Haddad", "Ivanova", "Kowalski", "Nakamura", "Rossi", "Silva", "Müller",
        "Nguyen", "Singh", "Mensah", "García"]


def classmates(count: int = 95) -> list[Student]:
    """A deterministic class: names, places (a little apart within a city) and links of all kinds."""
    students = []
    for index in range(count):
        first, last = FIRST[index % len(FIRST)], LAST[(index * 5 + index // len(FIRST)) % len(LAST)]
        city, latitude, longitude = CITIES[(index * 7) % len(CITIES)]
        handle = f"{first}-{last}".lower().encode("ascii", "ignore").decode() + str(index)
        link = [f"https://github.com/{handle}", f"https://{handle}.example.org/portfolio",
                f"http://blog.example.net/{handle}"][index % 3]
        students.append(Student(first, last, city, round(latitude + (index % 5 - 2) * 0.11, 4),
                                round(longitude + (index % 3 - 1) * 0.13, 4), link, f"seed-{index:03d}"))
    return students


@dataclass
class SeededClass:
    """The template database and what is in it, newest update first."""
    database: Path
    students: list[Student]  # every location, newest first (as GET ?order=-updatedAt lists them)
    me: Account  # an account without a location: the tests log in as it
    with_accounts: list[Account]  # classmates who logged in and posted through the API
    updated_at: dict[str, int]  # uniqueKey -> updated_at (ms since the epoch)

    def copy_to(self, path: Path) -> Path:
        source = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
        target = sqlite3.connect(path)
        try:
            source.backup(target)
        finally:
            source.close()
            target.close()
        return path

    def student(self, full_name: str) -> Student:
        return next(student for student in self.students if student.full_name == full_name)


def seed_class(folder: Path, binary: Path | None = None) -> SeededClass:
    """Accounts through `user add`, their locations posted and updated over HTTP with their own
    sessions, the other classmates posted over HTTP by a server that allows anonymous writes; then,
    with the server stopped, the links today's server refuses and a spread of update times are
    written into the database (the only edits made behind the API's back)."""
    database = folder / "class.sqlite"
    server = OnTheMapServer(database, folder / "seed-server.log", binary, ("--allow-anonymous-writes",))
    me = server.add_user(Account("mae@example.org", "correct horse battery", "Mae", "Jemison"))
    with_accounts = [server.add_user(Account(email, "classmate passphrase", first, last)) for email, first, last in
                     [("ada@example.org", "Ada", "Lovelace"), ("grace@example.org", "Grace", "Hopper"),
                      ("katherine@example.org", "Katherine", "Johnson")]]
    places = [("London", 51.5, -0.12), ("Arlington, Virginia", 38.88, -77.1), ("Hampton, Virginia", 37.03, -76.35)]
    account_students = [Student(a.first_name, a.last_name, place, lat, lon, f"https://example.org/~{a.first_name.lower()}",
                                a.key) for a, (place, lat, lon) in zip(with_accounts, places)]
    bulk = classmates()
    lonely = [Student(s.first_name, s.last_name, s.map_string, s.latitude, s.longitude, s.media_url, f"lonely-{i}")
              for i, s in enumerate(LONELY)]
    server.start()
    try:
        for account, student in zip(with_accounts, account_students):
            session = server.session_id(account)
            first = dict(student.posting(), mapString="Somewhere else", latitude=0.5, longitude=0.5)
            status, created = server.post_location(first, session)
            assert status == 200, f"post {student.full_name}: {status} {created}"
            status, body = server.update_location(created["objectId"], student.posting(), session)
            assert status == 200, f"update {student.full_name}: {status} {body}"
        for student in bulk + lonely:
            status, body = server.post_location(student.posting())
            assert status == 200, f"post {student.full_name}: {status} {body}"
    finally:
        server.stop()

    # Newest first: a lonely pin, an account holder, a link that is not a web link, the other lonely pin…
    rest = bulk[:]
    ordered = [lonely[0], account_students[0], rest.pop(1), lonely[1]] + account_students[1:] + rest
    not_web = {ordered[2].unique_key: NOT_WEB_LINKS[0]}
    not_web.update({ordered[11 + 17 * i].unique_key: link for i, link in enumerate(NOT_WEB_LINKS[1:])})
    ordered = [Student(s.first_name, s.last_name, s.map_string, s.latitude, s.longitude, not_web.get(s.unique_key,
               s.media_url), s.unique_key) for s in ordered]
    newest = int(time.time() * 1000) - 90_000
    updated_at = {student.unique_key: newest - index * 47 * 60_000 for index, student in enumerate(ordered)}
    connection = sqlite3.connect(database)
    try:
        with connection:
            for student in ordered:
                connection.execute("UPDATE student_location SET media_url = ?, updated_at = ?, created_at = MIN(created_at, ?) "
                                   "WHERE unique_key = ?", (student.media_url, updated_at[student.unique_key],
                                                            updated_at[student.unique_key] - 86_400_000, student.unique_key))
            connection.execute("UPDATE location_revision SET value = value + 1")
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        connection.close()
    return SeededClass(database, ordered, me, with_accounts, updated_at)


# MARK: - The place search


class NominatimStub(PythonTestServer):
    """Tests/FlickrTestSupport/Server/nominatim_server.py: a Nominatim-compatible server on 127.0.0.1."""

    def __init__(self, places_file: Path | None = None) -> None:
        places = ["--places", str(places_file)] if places_file else []
        super().__init__(NOMINATIM_STUB.name, ["--host", "127.0.0.1", *places])

    @property
    def url(self) -> str:
        """What ON_THE_MAP_GEOCODER_URL expects."""
        return f"http://127.0.0.1:{self.port}/"

    def requests(self) -> list[dict]:
        return http("GET", self.url + "__requests")[1]


# MARK: - The app


class OnTheMapApp:
    """One user's On the Map: its own XDG folders, a fake browser, and local servers only."""

    def __init__(self, home: Path, display: str | None, api_url: str, tile_url: str, geocoder_url: str | None = None,
                 extra_environment: dict[str, str] | None = None) -> None:
        self.home, self.display = home, display
        for folder in ("data", "cache", "config", "runtime"):
            (home / folder).mkdir(parents=True, exist_ok=True)
        os.chmod(home / "runtime", 0o700)
        self.browser = FakeBrowser(home / "data", home / "config", home / "browser")
        self.environment = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8",
            "XDG_CACHE_HOME": str(home / "cache"), "XDG_RUNTIME_DIR": str(home / "runtime"),
            **self.browser.environment,
            "GSETTINGS_BACKEND": "memory",
            "ON_THE_MAP_API_URL": api_url,
            # Never the public Nominatim: without a stub, a closed local port (fails at once).
            "ON_THE_MAP_GEOCODER_URL": geocoder_url or "http://127.0.0.1:9/",
            "ON_THE_MAP_TILE_URL": tile_url,
            "ON_THE_MAP_LOG": "debug",
        }
        if display:  # None: no X at all (a Wayland run gives WAYLAND_DISPLAY in extra_environment)
            self.environment["DISPLAY"] = display
        if "DBUS_SESSION_BUS_ADDRESS" in os.environ:
            self.environment["DBUS_SESSION_BUS_ADDRESS"] = os.environ["DBUS_SESSION_BUS_ADDRESS"]
        self.environment.update(extra_environment or {})
        self.process: subprocess.Popen | None = None
        self.launches = 0
        self.window_id: str | None = None

    @property
    def log_path(self) -> Path:
        return self.home / f"on-the-map-{self.launches}.log"

    def start(self, wait_for_window: bool = True) -> "OnTheMapApp":
        """`wait_for_window`: find the window on the X display (xdotool); False where there is no X."""
        assert self.process is None or self.process.poll() is not None, "already running"
        self.launches += 1
        with open(self.log_path, "wb") as log:
            self.process = subprocess.Popen([str(app_binary())], env=self.environment, cwd=self.home,
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
        if wait_for_window:
            self.window_id = self.wait_until(self._find_window, 30, "the app's window appeared")
        return self

    def _find_window(self) -> str | None:
        if self.process.poll() is not None:
            raise GiveUp(f"the app exited ({self.process.returncode}); log:\n{self.log_tail()}")
        ids = xdotool(self.display, "search", "--onlyvisible", "--pid", self.process.pid, "--name",
                      f"^{WINDOW_TITLE}$", check=False).stdout.split()
        return ids[0] if ids else None

    def focus(self) -> None:
        xdotool(self.display, "windowfocus", "--sync", self.window_id)

    def key(self, *keys: str) -> None:
        """Keys into the focused widget of the app (GTK ignores synthetic events sent to a window)."""
        xdotool(self.display, "key", "--delay", 50, *keys)

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)
            self.process = None

    def log_text(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def log_tail(self, lines: int = 40) -> str:
        return "\n".join(self.log_text().splitlines()[-lines:])

    def wait_until(self, predicate, timeout: float, message):
        return wait_until(predicate, timeout,
                          lambda: f"{message() if callable(message) else message}; app log:\n{self.log_tail()}")
