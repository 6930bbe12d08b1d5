"""Fixtures for the end-to-end tests: a virtual display, local tile and Flickr servers, the real
app, real input, accessibility, and screenshots kept for people to look at."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from harness import on_the_map as otm
from harness.accessibility import AccessibleApp
from harness.app import App, app_binary
from harness.artifacts import ArtifactFolder, folder_name_for_test
from harness.flickr import FlickrServer
from harness.screenshots import capture_screen
from harness.tile_server import TileServer
from harness.user_input import UserInput
from harness.virtual_display import VirtualDisplay


def pytest_sessionstart(session) -> None:
    if not app_binary().exists():
        pytest.exit(f"no app binary at {app_binary()}: build it (swift build) or set VIRTUAL_TOURIST_BIN", 2)
    if "DBUS_SESSION_BUS_ADDRESS" not in os.environ:
        pytest.exit("run the end-to-end tests inside `dbus-run-session -- …` (single instance and AT-SPI need it)", 2)


@pytest.fixture
def display(tmp_path: Path):
    virtual = VirtualDisplay(tmp_path / "xvfb.log")
    virtual.start()
    yield virtual.name
    virtual.stop()


@pytest.fixture
def tiles():
    server = TileServer().start()
    yield server
    server.stop()


@pytest.fixture
def flickr():
    server = FlickrServer()
    yield server
    server.stop()


@pytest.fixture
def user(display: str) -> UserInput:
    return UserInput(display)


@pytest.fixture
def artifacts(request, tmp_path: Path) -> ArtifactFolder:
    base = Path(os.environ.get("VIRTUAL_TOURIST_ARTIFACTS", tmp_path / "artifacts"))
    return ArtifactFolder(base / folder_name_for_test(request.node.nodeid))


@pytest.fixture
def screenshot(display: str, artifacts: ArtifactFolder):
    """screenshot("name") saves <artifacts>/name.png and returns the image."""
    def take(name: str):
        time.sleep(0.3)  # let the last frame reach the screen
        return capture_screen(display, artifacts.path(f"{name}.png"))
    return take


@pytest.fixture
def make_app(tmp_path: Path, display: str, tiles: TileServer, flickr: FlickrServer, artifacts: ArtifactFolder):
    """Builds an App for this test (not started), talking to the local tile and Flickr servers; options: App's
    (extra_environment …) and app_class, a subclass of App to build. Every one is stopped at teardown."""
    apps: list[App] = []

    def make(app_class: type[App] = App, **options) -> App:
        options.setdefault("flickr_url", flickr.rest_url)
        app = app_class(tmp_path / f"home{len(apps)}", display, tiles.url_template, **options)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.stop()
        for launch in range(1, app.launches + 1):
            artifacts.keep_copy(app.home / f"app-{launch}.log")


@pytest.fixture
def app(make_app) -> App:
    return make_app().start()


@pytest.fixture
def accessible(app: App) -> AccessibleApp:
    return AccessibleApp()


# MARK: - On the Map (Tests/e2e/test_on_the_map*.py)


@pytest.fixture(scope="session")
def on_the_map_class(tmp_path_factory: pytest.TempPathFactory) -> otm.SeededClass:
    """The seeded class (accounts, ~100 locations), built once per session into a template database."""
    if not otm.server_binary().exists():
        pytest.skip(f"no on-the-map-server at {otm.server_binary()}: swift build, or set ON_THE_MAP_SERVER_BIN")
    return otm.seed_class(tmp_path_factory.mktemp("on-the-map-class"))


@pytest.fixture
def on_the_map_server(on_the_map_class: otm.SeededClass, tmp_path: Path, artifacts: ArtifactFolder):
    """The real on-the-map-server on 127.0.0.1 (a free port) over a fresh copy of the seeded class."""
    folder = tmp_path / "on-the-map-server"
    folder.mkdir()
    server = otm.OnTheMapServer(on_the_map_class.copy_to(folder / "class.sqlite"), folder / "server.log")
    server.start()
    yield server
    server.stop()
    artifacts.keep_copy(server.log_path)


@pytest.fixture
def nominatim():
    """Tests/FlickrTestSupport/Server/nominatim_server.py on a free port (skips until that file exists)."""
    if not otm.NOMINATIM_STUB.exists():
        pytest.skip(f"no Nominatim stub at {otm.NOMINATIM_STUB}")
    stub = otm.NominatimStub()
    yield stub
    stub.stop()


@pytest.fixture
def make_on_the_map_app(tmp_path: Path, display: str, tiles: TileServer, on_the_map_server, artifacts: ArtifactFolder):
    """Builds an OnTheMapApp (not started) against the seeded server and the tile server; options:
    geocoder_url, extra_environment, and app_class, a subclass of OnTheMapApp to build. Every one is stopped at
    teardown and its logs kept."""
    if not otm.app_binary().exists():
        pytest.skip(f"no on-the-map binary at {otm.app_binary()}: build it (swift build) or set ON_THE_MAP_BIN")
    apps: list[otm.OnTheMapApp] = []

    def make(app_class: type[otm.OnTheMapApp] = otm.OnTheMapApp, **options) -> otm.OnTheMapApp:
        app = app_class(tmp_path / f"on-the-map-home{len(apps)}", display, on_the_map_server.api_url,
                        tiles.url_template, **options)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.stop()
        for launch in range(1, app.launches + 1):
            artifacts.keep_copy(app.home / f"on-the-map-{launch}.log")
        artifacts.keep_copy(app.browser.record)


@pytest.fixture
def on_the_map_app(make_on_the_map_app, nominatim) -> otm.OnTheMapApp:
    """On the Map, started, with the Nominatim stub as its geocoder."""
    return make_on_the_map_app(geocoder_url=nominatim.url).start()


@pytest.fixture
def on_the_map_accessible(on_the_map_app) -> AccessibleApp:
    return AccessibleApp(otm.APP_NAME)
