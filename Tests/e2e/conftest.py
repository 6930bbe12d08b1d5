"""Fixtures for the end-to-end tests: a virtual display, local tile and Flickr servers, the real
app, real input, accessibility, and screenshots kept for people to look at."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

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
    """Builds an App for this test (not started), talking to the local tile and Flickr servers;
    every one is stopped at teardown."""
    apps: list[App] = []

    def make(**options) -> App:
        options.setdefault("flickr_url", flickr.rest_url)
        app = App(tmp_path / f"home{len(apps)}", display, tiles.url_template, **options)
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
