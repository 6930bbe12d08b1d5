"""The files the desktop sees: launcher, AppStream metainfo, icons, and the meson install."""

from __future__ import annotations

import configparser
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
APP_ID = "io.github.virtualtourist.VirtualTourist"
DESKTOP = REPO / "data" / f"{APP_ID}.desktop"
METAINFO = REPO / "data" / f"{APP_ID}.metainfo.xml"


def run(*command: str | os.PathLike, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True, cwd=cwd, timeout=900)


def desktop_entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(path)
    return parser["Desktop Entry"]


def test_desktop_file_is_valid() -> None:
    result = run("desktop-file-validate", DESKTOP)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip() == "", f"desktop-file-validate complained:\n{result.stdout}"


def test_metainfo_is_valid_without_warnings() -> None:
    result = run("appstreamcli", "validate", "--no-net", METAINFO)
    assert result.returncode == 0, result.stdout + result.stderr
    assert not re.search(r"^[EW]:", result.stdout, re.MULTILINE), result.stdout


def test_launcher_runs_the_app_with_its_icon() -> None:
    entry = desktop_entry(DESKTOP)
    assert entry["Exec"].split()[0] == "virtual-tourist"
    assert entry["Icon"] == APP_ID
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Virtual Tourist"


def test_versions_agree_across_meson_metainfo_and_the_app() -> None:
    meson_version = re.search(r"version:\s*'([^']+)'", (REPO / "meson.build").read_text()).group(1)
    releases = ElementTree.parse(METAINFO).getroot().find("releases")
    newest = releases.findall("release")[0].get("version")
    swift_version = re.search(r'version = "([^"]+)"', (REPO / "Sources/TouristUI/AppInfo.swift").read_text()).group(1)
    assert meson_version == newest == swift_version


def test_metainfo_names_the_launcher_and_binary() -> None:
    root = ElementTree.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == f"{APP_ID}.desktop"
    assert root.find("provides").findtext("binary") == "virtual-tourist"


def test_icons_are_real_svgs() -> None:
    for path in (REPO / f"data/icons/hicolor/scalable/apps/{APP_ID}.svg",
                 REPO / f"data/icons/hicolor/symbolic/apps/{APP_ID}-symbolic.svg"):
        root = ElementTree.parse(path).getroot()
        assert root.tag.endswith("svg"), path
        assert "<image" not in path.read_text(), f"{path.name} embeds a raster image"


@pytest.fixture(scope="module")
def installed_prefix() -> Path:
    """The prefix `.ci/test` installed into, or a fresh meson install into a temporary one."""
    if os.environ.get("VIRTUAL_TOURIST_PREFIX"):
        return Path(os.environ["VIRTUAL_TOURIST_PREFIX"])
    if shutil.which("meson") is None:
        pytest.skip("meson is not installed")
    folder = Path(tempfile.mkdtemp(prefix="vt-install-"))
    prefix = folder / "prefix"
    setup = run("meson", "setup", folder / "build", f"--prefix={prefix}", "--buildtype=debug",
                f"-Dswiftpm_scratch_path={REPO / '.build-meson' / 'swift'}", cwd=REPO)
    assert setup.returncode == 0, setup.stdout + setup.stderr
    install = run("meson", "install", "-C", folder / "build")
    assert install.returncode == 0, install.stdout + install.stderr
    return prefix


def test_meson_installs_everything_the_desktop_needs(installed_prefix: Path) -> None:
    share = installed_prefix / "share"
    binary = installed_prefix / "bin" / "virtual-tourist"
    assert binary.is_file() and os.access(binary, os.X_OK)
    for path in (share / "applications" / f"{APP_ID}.desktop",
                 share / "metainfo" / f"{APP_ID}.metainfo.xml",
                 share / "icons/hicolor/scalable/apps" / f"{APP_ID}.svg",
                 share / "icons/hicolor/symbolic/apps" / f"{APP_ID}-symbolic.svg"):
        assert path.is_file(), f"{path} was not installed"
    installed_desktop = share / "applications" / f"{APP_ID}.desktop"
    assert run("desktop-file-validate", installed_desktop).returncode == 0


def test_installed_binary_runs_from_anywhere(installed_prefix: Path, tmp_path: Path) -> None:
    """No SwiftPM resource bundle needs to sit beside the installed binary."""
    result = run(installed_prefix / "bin" / "virtual-tourist", "--version", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "virtual-tourist 0.1.0"
