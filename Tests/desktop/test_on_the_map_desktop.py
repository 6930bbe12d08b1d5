"""What the desktop sees of On the Map: its launcher, AppStream metainfo, icons, and its place in the
meson build and install (beside Virtual Tourist, from the same SwiftPM scratch folder).

Shares the helpers and the `installed` fixture of test_desktop_integration.py: the install tests use
VIRTUAL_TOURIST_PREFIX (`.ci/test` installs both apps there) or self-install into a temporary prefix.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import xml.etree.ElementTree as ElementTree
from pathlib import Path

from test_desktop_integration import (REPO, SVG, Installation, assert_desktop_file_valid,  # noqa: F401
                                      assert_installed_with_translations, assert_metainfo_valid, configure,
                                      desktop_entry, installed, installed_name,
                                      meson_project_version, run, svg_colours, tool, version_key)

APP_ID = "io.github.virtualtourist.OnTheMap"
BINARY = "on-the-map"
DESKTOP = REPO / "data" / f"{APP_ID}.desktop.in"
METAINFO = REPO / "data" / f"{APP_ID}.metainfo.xml.in"
SCALABLE_ICON = REPO / "data/icons/hicolor/scalable/apps" / f"{APP_ID}.svg"
SYMBOLIC_ICON = REPO / "data/icons/hicolor/symbolic/apps" / f"{APP_ID}-symbolic.svg"
VIRTUAL_TOURIST_DESKTOP = REPO / "data" / "io.github.virtualtourist.VirtualTourist.desktop.in"


# MARK: - The source files


def test_desktop_file_passes_desktop_file_validate() -> None:
    assert_desktop_file_valid(DESKTOP)


def test_metainfo_passes_appstream_validation_without_warnings() -> None:
    assert_metainfo_valid(METAINFO)


def test_launcher_starts_on_the_map_with_its_icon() -> None:
    entry = desktop_entry(DESKTOP)
    assert entry["Exec"].split()[0] == BINARY
    assert entry["Icon"] == APP_ID
    assert entry["Name"] == "On the Map"
    assert entry["Type"] == "Application"
    assert entry["Terminal"] == "false"
    assert entry["StartupNotify"] == "true"
    assert "classmates" in entry["Comment"]
    assert {"Education", "Maps"} <= set(entry["Categories"].strip(";").split(";"))
    assert entry["Keywords"].strip(";")
    # Like Virtual Tourist: D-Bus activation only if both apps take it up together.
    assert entry.get("DBusActivatable") == desktop_entry(VIRTUAL_TOURIST_DESKTOP).get("DBusActivatable")


def test_versions_agree_across_meson_metainfo_and_the_app() -> None:
    releases = ElementTree.parse(METAINFO).getroot().find("releases").findall("release")
    newest_release = max(releases, key=lambda release: version_key(release.get("version"))).get("version")
    info = (REPO / "Sources/OnTheMapUI/OnTheMapInfo.swift").read_text()
    swift_version = re.search(r'static let version = "([^"]+)"', info).group(1)
    assert meson_project_version() == newest_release == swift_version


def test_metainfo_names_the_launcher_the_binary_and_a_homepage() -> None:
    root = ElementTree.parse(METAINFO).getroot()
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.find("launchable").get("type") == "desktop-id"
    assert root.findtext("launchable") == installed_name(DESKTOP)
    assert root.find("provides").findtext("binary") == BINARY
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.findtext("project_license") == "GPL-3.0-or-later"
    assert root.find("content_rating").get("type") == "oars-1.1"
    assert root.find("url[@type='homepage']").text.startswith("https://")
    assert len(root.find("description").findall("p")) >= 2


def test_app_icon_is_a_128px_vector_drawing() -> None:
    root = ElementTree.parse(SCALABLE_ICON).getroot()
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("128", "128", "0 0 128 128")
    assert not list(root.iter(f"{SVG}image")), "the icon embeds a raster image"
    assert not list(root.iter(f"{SVG}text")), "the icon contains text"
    assert len(svg_colours(root) - {"none"}) >= 3, "the full-colour icon should be in colour"
    assert SCALABLE_ICON.read_bytes() != (SCALABLE_ICON.parent / "io.github.virtualtourist.VirtualTourist.svg").read_bytes()


def test_symbolic_icon_is_16px_and_one_colour() -> None:
    root = ElementTree.parse(SYMBOLIC_ICON).getroot()
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("16", "16", "0 0 16 16")
    assert not list(root.iter(f"{SVG}image"))
    assert svg_colours(root) == {"#2e3436"}
    assert all(element.get("stroke") in (None, "none") for element in root.iter())


# MARK: - meson configuration (meson setup only; nothing is compiled)


def build_command(build_dir: Path, name: str) -> list[str]:
    targets = json.loads(run("meson", "introspect", build_dir, "--targets").stdout)
    target = next(target for target in targets if target["name"] == name)
    return target["target_sources"][0]["compiler"]


def test_meson_builds_on_the_map_from_the_same_swiftpm_scratch_folder_and_installs_it(tmp_path: Path) -> None:
    result = configure(tmp_path / "build", f"--prefix={tmp_path / 'prefix'}",
                       f"-Dswiftpm_scratch_path={tmp_path / 'scratch'}")
    assert result.returncode == 0, result.stdout + result.stderr
    on_the_map, virtual_tourist = (build_command(tmp_path / "build", name) for name in (BINARY, "virtual-tourist"))
    assert '--product "$7"' in on_the_map[2] and "--static-swift-stdlib" in on_the_map[2]
    # …, output, product, and the strip a release install runs ($8).
    assert on_the_map[-2] == BINARY and virtual_tourist[-2] == "virtual-tourist"
    assert Path(on_the_map[-1]).name == "strip" and virtual_tourist[-1] == on_the_map[-1]
    arguments = on_the_map[on_the_map.index("swift-build") + 1:]
    assert arguments[1] == "release" and arguments[3] == str(tmp_path / "scratch")
    # The same C flags as Virtual Tourist's, so the modules both link are not rebuilt in turn.
    assert on_the_map[:-3] == virtual_tourist[:-3]
    installed_files = json.loads(run("meson", "introspect", tmp_path / "build", "--installed").stdout).values()
    prefix = tmp_path / "prefix"
    for path in (prefix / "bin" / BINARY, prefix / "share/applications" / installed_name(DESKTOP),
                 prefix / "share/metainfo" / installed_name(METAINFO), prefix / "share/icons/hicolor/scalable/apps" / SCALABLE_ICON.name,
                 prefix / "share/icons/hicolor/symbolic/apps" / SYMBOLIC_ICON.name):
        assert str(path) in installed_files, f"{path} is not installed"
    tests = {test["name"] for test in json.loads(run("meson", "introspect", tmp_path / "build", "--tests").stdout)}
    assert {"validate-desktop-file-on-the-map", "validate-metainfo-on-the-map"} <= tests


# MARK: - The meson install


def test_meson_installs_on_the_map_and_everything_the_desktop_needs(installed: Installation) -> None:
    share = installed.prefix / "share"
    binary = installed.prefix / "bin" / BINARY
    assert binary.is_file() and os.access(binary, os.X_OK), f"{binary} missing or not executable ({installed.origin})"
    for path in (share / "icons/hicolor/scalable/apps" / SCALABLE_ICON.name,
                 share / "icons/hicolor/symbolic/apps" / SYMBOLIC_ICON.name):
        assert path.is_file(), f"{path} was not installed ({installed.origin})"
    assert_installed_with_translations(share, DESKTOP, METAINFO)
    assert_desktop_file_valid(share / "applications" / installed_name(DESKTOP))
    result = run(tool("appstreamcli", "appstream"), "validate-tree", "--no-net", installed.prefix)
    assert result.returncode == 0 and not re.search(r"^\s*[EW]: ", result.stdout, re.MULTILINE), \
        f"appstreamcli validate-tree ({installed.origin}):\n{result.stdout}{result.stderr}"


def test_the_installed_binary_reports_its_version_and_needs_no_toolchain_library(installed: Installation,
                                                                                 tmp_path: Path) -> None:
    binary = installed.prefix / "bin" / BINARY
    libraries = run("ldd", binary).stdout
    assert "not found" not in libraries, libraries
    toolchain = [line for line in libraries.splitlines()
                 if "/opt/swift" in line or "libswiftCore" in line or "libFoundation" in line]
    assert not toolchain, f"the binary loads the Swift runtime from the toolchain ({installed.origin}):\n" + "\n".join(toolchain)
    for needed in ("libgtk-3", "libosmgpsmap-1.0", "libgeonames", "libcurl"):
        assert needed in libraries, f"{needed} is what a distributor's package depends on:\n{libraries}"
    environment = {key: value for key, value in os.environ.items() if key != "LD_LIBRARY_PATH"}
    environment["PATH"] = "/usr/bin:/bin"
    result = subprocess.run([str(binary), "--version"], capture_output=True, text=True, env=environment,
                            cwd=tmp_path, timeout=60)
    assert result.returncode == 0, f"{installed.origin}\n{result.stdout}{result.stderr}"
    assert result.stdout.strip() == f"{BINARY} {meson_project_version()}"
