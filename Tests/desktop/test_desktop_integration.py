"""What the desktop sees: the launcher, the AppStream metainfo, the icons, and the meson build and install.

Runs with any python3 that has pytest (stdlib otherwise). The install tests use the prefix named by
VIRTUAL_TOURIST_PREFIX (`.ci/test` runs `meson install` there first); without it they run
`meson setup` + `meson install` themselves into a temporary prefix (see `installed` below).
"""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
APP_ID = "io.github.virtualtourist.VirtualTourist"
BINARY = "virtual-tourist"
# The templates meson merges the translations into (po/); the installed files carry their names without ".in".
DESKTOP = REPO / "data" / f"{APP_ID}.desktop.in"
METAINFO = REPO / "data" / f"{APP_ID}.metainfo.xml.in"
SCALABLE_ICON = REPO / "data/icons/hicolor/scalable/apps" / f"{APP_ID}.svg"
SYMBOLIC_ICON = REPO / "data/icons/hicolor/symbolic/apps" / f"{APP_ID}-symbolic.svg"
# Shared with .ci/test, so a self-install reuses the SwiftPM build CI already made (and vice versa).
SWIFTPM_SCRATCH = REPO / ".build-meson" / "swift"
SVG = "{http://www.w3.org/2000/svg}"


def run(*command: str | os.PathLike, cwd: Path | None = None, timeout: int = 120) -> subprocess.CompletedProcess:
    return subprocess.run([str(part) for part in command], capture_output=True, text=True,
                          cwd=cwd, timeout=timeout)


def tool(name: str, package: str) -> str:
    path = shutil.which(name)
    assert path, f"{name} is not installed (apt-get install {package})"
    return path


def desktop_entry(path: Path) -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # keys are case-sensitive
    assert parser.read(path, encoding="utf-8"), f"cannot read {path}"
    return parser["Desktop Entry"]


def installed_name(template: Path) -> str:
    return template.name.removesuffix(".in")


def assert_desktop_file_valid(path: Path) -> None:
    if path.suffix == ".in":  # desktop-file-validate insists on the installed name
        folder = Path(tempfile.mkdtemp())
        path = Path(shutil.copy(path, folder / installed_name(path)))
    result = run(tool("desktop-file-validate", "desktop-file-utils"), path)
    complaints = [line for line in result.stdout.splitlines() if re.search(r": (error|warning): ", line)]
    assert result.returncode == 0 and not complaints, f"desktop-file-validate {path}:\n{result.stdout}{result.stderr}"


def assert_metainfo_valid(path: Path) -> None:
    result = run(tool("appstreamcli", "appstream"), "validate", "--no-net", "--explain", path)
    complaints = re.findall(r"^\s*[EW]: .*$", result.stdout, re.MULTILINE)
    assert result.returncode == 0 and not complaints, f"appstreamcli validate {path}:\n{result.stdout}{result.stderr}"


def meson_project_version() -> str:
    project_call = re.search(r"project\((.*?)\)", (REPO / "meson.build").read_text(), re.DOTALL).group(1)
    return re.search(r"version\s*:\s*'([^']+)'", project_call).group(1)


def version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


# MARK: - The source files


def test_desktop_file_passes_desktop_file_validate() -> None:
    assert_desktop_file_valid(DESKTOP)


def test_metainfo_passes_appstream_validation_without_warnings() -> None:
    assert_metainfo_valid(METAINFO)


def test_launcher_starts_the_binary_with_the_app_icon() -> None:
    entry = desktop_entry(DESKTOP)
    assert entry["Exec"].split()[0] == BINARY
    assert entry["Icon"] == APP_ID
    assert entry["Name"] == "Virtual Tourist"
    assert entry["Type"] == "Application"
    assert entry["Terminal"] == "false"
    assert entry["StartupNotify"] == "true"
    # SingleMainWindow is the spec's name, but Debian 12's validator rejects it; shells read either.
    assert "true" in (entry.get("SingleMainWindow"), entry.get("X-GNOME-SingleWindow"))
    assert entry["Categories"].strip(";") and entry["Keywords"].strip(";")


def test_launcher_opens_place_files_from_the_file_manager() -> None:
    entry = desktop_entry(DESKTOP)
    # %F: local paths, as many as chosen; GApplication's open signal takes them.
    assert entry["Exec"].split()[1:] == ["%F"]
    types = set(entry["MimeType"].strip(";").split(";"))
    assert types == {"application/gpx+xml", "application/vnd.google-earth.kml+xml", "application/vnd.google-earth.kmz",
                     "application/geo+json"}
    # Each is a type the desktop's MIME database knows, so "Open With" lists the app for such files.
    known = Path("/usr/share/mime/types").read_text().split()
    assert types <= set(known), types - set(known)


def test_versions_agree_across_meson_metainfo_and_the_app() -> None:
    meson_version = meson_project_version()
    releases = ElementTree.parse(METAINFO).getroot().find("releases").findall("release")
    newest_release = max(releases, key=lambda release: version_key(release.get("version"))).get("version")
    app_info = (REPO / "Sources/TouristUI/AppInfo.swift").read_text()
    swift_version = re.search(r'static let version = "([^"]+)"', app_info).group(1)
    assert meson_version == newest_release == swift_version, \
        f"meson.build {meson_version}, metainfo {newest_release}, AppInfo.swift {swift_version}"


def test_metainfo_names_the_launcher_the_binary_and_the_licenses() -> None:
    root = ElementTree.parse(METAINFO).getroot()
    assert root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    assert root.find("launchable").get("type") == "desktop-id"
    assert root.findtext("launchable") == installed_name(DESKTOP)
    assert root.find("provides").findtext("binary") == BINARY
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.findtext("project_license") == "GPL-3.0-or-later"
    assert root.find("content_rating").get("type") == "oars-1.1"


def svg_colours(root: ElementTree.Element) -> set[str]:
    colours = set()
    for element in root.iter():
        styles = [element.get("fill"), element.get("stroke")]
        styles += re.findall(r"(?:fill|stroke)\s*:\s*([^;]+)", element.get("style") or "")
        colours |= {style.strip().lower() for style in styles if style}
    return colours


def test_app_icon_is_a_128px_vector_drawing() -> None:
    root = ElementTree.parse(SCALABLE_ICON).getroot()
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("128", "128", "0 0 128 128")
    assert not list(root.iter(f"{SVG}image")), "the icon embeds a raster image"
    assert not list(root.iter(f"{SVG}text")), "the icon contains text"
    assert len(svg_colours(root) - {"none"}) >= 3, "the full-colour icon should be in colour"


def test_symbolic_icon_is_16px_and_one_colour() -> None:
    root = ElementTree.parse(SYMBOLIC_ICON).getroot()
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("16", "16", "0 0 16 16")
    assert not list(root.iter(f"{SVG}image"))
    assert svg_colours(root) == {"#2e3436"}
    # GTK recolours symbolic icons by forcing fill, so strokes would turn into filled shapes.
    assert all(element.get("stroke") in (None, "none") for element in root.iter())


def test_no_swift_module_reads_its_resource_bundle() -> None:
    """Why the install has no GRDB_GRDB.resources beside the binary: no code ever asks for it."""
    checkouts = [path for path in (REPO / ".build/checkouts", SWIFTPM_SCRATCH / "checkouts") if path.is_dir()]
    grdb = next((path / "GRDB.swift" for path in checkouts if (path / "GRDB.swift").is_dir()), None)
    if grdb is None:
        pytest.skip("no GRDB checkout yet (run swift build or meson compile first)")
    sources = list((REPO / "Sources").rglob("*.swift")) + list((grdb / "GRDB").rglob("*.swift"))
    assert len(sources) > 50
    readers = [str(path) for path in sources if "Bundle.module" in path.read_text(errors="replace")]
    assert not readers, f"these read a SwiftPM resource bundle, which meson does not install: {readers}"


# MARK: - meson configuration (meson setup only; nothing is compiled)


def configure(build_dir: Path, *options: str) -> subprocess.CompletedProcess:
    return run(tool("meson", "meson"), "setup", build_dir, *options, cwd=REPO)


def swift_build_command(build_dir: Path) -> list[str]:
    targets = json.loads(run("meson", "introspect", build_dir, "--targets").stdout)
    target = next(target for target in targets if target["name"] == BINARY)
    return target["target_sources"][0]["compiler"]


@pytest.mark.parametrize("buildtype, configuration",
                         [("debug", "debug"), ("debugoptimized", "release"), ("release", "release"), ("plain", "release")])
def test_meson_buildtype_picks_the_swiftpm_configuration(tmp_path: Path, buildtype: str, configuration: str) -> None:
    result = configure(tmp_path / "build", f"--buildtype={buildtype}")
    assert result.returncode == 0, result.stdout + result.stderr
    command = swift_build_command(tmp_path / "build")
    script, arguments = command[2], command[command.index("swift-build") + 1:]
    assert '"$1" build -c "$2"' in script
    assert arguments[1] == configuration
    assert arguments[2] == str(REPO)
    assert arguments[3] == str(tmp_path / "build" / "swiftpm"), "default scratch path is inside the build dir"


def test_meson_setup_without_options_builds_the_optimised_self_contained_app(tmp_path: Path) -> None:
    result = configure(tmp_path / "build")
    assert result.returncode == 0, result.stdout + result.stderr
    command = swift_build_command(tmp_path / "build")
    arguments = command[command.index("swift-build") + 1:]
    assert arguments[1] == "release", "the README's `meson setup build` installs a release build"
    assert "--static-swift-stdlib" in command[2], "the Swift runtime is linked into the binary"


def test_meson_bakes_the_flickr_key_into_the_c_shims_and_installs_the_binary(tmp_path: Path) -> None:
    result = configure(tmp_path / "build", "-Dflickr_api_key=0123abcdef", f"--prefix={tmp_path / 'prefix'}",
                       f"-Dswiftpm_scratch_path={tmp_path / 'scratch'}")
    assert result.returncode == 0, result.stdout + result.stderr
    command = swift_build_command(tmp_path / "build")
    assert '-Xcc "$5"' in command[2]
    assert '-DVT_BUILD_FLICKR_API_KEY="0123abcdef"' in command
    assert str(tmp_path / "scratch") in command
    installed = json.loads(run("meson", "introspect", tmp_path / "build", "--installed").stdout)
    assert installed.values() and str(tmp_path / "prefix" / "bin" / BINARY) in installed.values()
    tests = {test["name"] for test in json.loads(run("meson", "introspect", tmp_path / "build", "--tests").stdout)}
    assert {"validate-desktop-file", "validate-metainfo"} <= tests


def test_meson_refuses_a_key_that_would_break_the_c_string(tmp_path: Path) -> None:
    result = configure(tmp_path / "build", '-Dflickr_api_key=abc"def')
    assert result.returncode != 0
    assert "flickr_api_key" in result.stdout + result.stderr


# MARK: - The meson install


@dataclass
class Installation:
    prefix: Path
    origin: str  # says in failure messages whether CI or this test run made the install


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installation:
    prefix = os.environ.get("VIRTUAL_TOURIST_PREFIX")
    if prefix:
        return Installation(Path(prefix), f"installed by CI into VIRTUAL_TOURIST_PREFIX={prefix}")

    # ---- SELF-INSTALL: VIRTUAL_TOURIST_PREFIX is not set, so build and install here. ----
    # This compiles the app with SwiftPM (reusing .build-meson/swift; slow the first time).
    meson = tool("meson", "meson")
    folder = tmp_path_factory.mktemp("meson-self-install")
    build, prefix_path = folder / "build", folder / "prefix"
    setup = run(meson, "setup", build, f"--prefix={prefix_path}", "--buildtype=debug",
                f"-Dswiftpm_scratch_path={SWIFTPM_SCRATCH}", cwd=REPO)
    assert setup.returncode == 0, "self-install: meson setup failed\n" + setup.stdout + setup.stderr
    install = run(meson, "install", "-C", build, timeout=3600)
    assert install.returncode == 0, "self-install: meson install failed\n" + install.stdout[-6000:] + install.stderr
    return Installation(prefix_path, f"self-installed by this test run into {prefix_path}")


def test_meson_installs_the_binary_and_everything_the_desktop_needs(installed: Installation) -> None:
    share = installed.prefix / "share"
    binary = installed.prefix / "bin" / BINARY
    assert binary.is_file() and os.access(binary, os.X_OK), f"{binary} missing or not executable ({installed.origin})"
    for path in (share / "applications" / installed_name(DESKTOP),
                 share / "metainfo" / installed_name(METAINFO),
                 share / "icons/hicolor/scalable/apps" / SCALABLE_ICON.name,
                 share / "icons/hicolor/symbolic/apps" / SYMBOLIC_ICON.name):
        assert path.is_file(), f"{path} was not installed ({installed.origin})"
    assert_installed_with_translations(share, DESKTOP, METAINFO)
    # Both apps' window layouts, and every shipped language's catalogue, where the programs look for them.
    assert (share / "virtual-tourist" / "virtual-tourist.gresource").is_file(), f"no layouts ({installed.origin})"
    for language in (REPO / "po" / "LINGUAS").read_text().split():
        catalogue = share / "locale" / language / "LC_MESSAGES" / "virtual-tourist.mo"
        assert catalogue.is_file(), f"{catalogue} was not installed ({installed.origin})"


def assert_installed_with_translations(share: Path, desktop: Path, metainfo: Path) -> None:
    """The installed launcher and metainfo are the templates with every shipped language merged in."""
    installed = desktop_entry(share / "applications" / installed_name(desktop))
    template = desktop_entry(desktop)
    assert {key: installed[key] for key in template} == dict(template), "the installed launcher differs from its template"
    for language in (REPO / "po" / "LINGUAS").read_text().split():
        for key in ("Name", "Comment", "Keywords"):
            assert installed.get(f"{key}[{language}]"), f"the installed launcher has no {key}[{language}]"
        assert installed[f"Comment[{language}]"] != template["Comment"], f"Comment[{language}] is untranslated"
        root = ElementTree.parse(share / "metainfo" / installed_name(metainfo)).getroot()
        lang = "{http://www.w3.org/XML/1998/namespace}lang"
        assert [e for e in root.findall("summary") if e.get(lang) == language], f"the metainfo has no summary in {language}"
        assert [e for e in root.iter("p") if e.get(lang) == language], f"the metainfo's description has no {language} text"


def test_installed_desktop_file_and_metainfo_validate(installed: Installation) -> None:
    assert_desktop_file_valid(installed.prefix / "share" / "applications" / installed_name(DESKTOP))
    # validate-tree also checks that the launchable names a desktop file installed in the tree.
    result = run(tool("appstreamcli", "appstream"), "validate-tree", "--no-net", installed.prefix)
    assert result.returncode == 0 and not re.search(r"^\s*[EW]: ", result.stdout, re.MULTILINE), \
        f"appstreamcli validate-tree ({installed.origin}):\n{result.stdout}{result.stderr}"


def test_installed_binary_reports_its_version_from_any_directory(installed: Installation, tmp_path: Path) -> None:
    result = run(installed.prefix / "bin" / BINARY, "--version", cwd=tmp_path, timeout=60)
    assert result.returncode == 0, f"{installed.origin}\n{result.stdout}{result.stderr}"
    assert result.stdout.strip() == f"{BINARY} {meson_project_version()}"


def assert_installed_lean(folder: Path) -> None:
    """A release install ships its programs as distributions do: no debug information, no symbol table."""
    for binary in sorted(folder.iterdir()):
        sections = run("readelf", "--section-headers", "--wide", binary).stdout
        kept = [name for name in (".debug_info", ".debug_line", ".symtab") if f" {name} " in sections]
        assert not kept, f"{binary.name} is installed with {', '.join(kept)}"
        assert binary.stat().st_size < 100_000_000, f"{binary.name} is {binary.stat().st_size / 1e6:.0f} MB"


def test_the_installed_binary_is_optimised_and_needs_no_toolchain_library(installed: Installation) -> None:
    build = os.environ.get("VIRTUAL_TOURIST_MESON_BUILD")
    if build:  # the build CI installed from: its configuration is what was installed
        command = swift_build_command(Path(build))
        assert command[command.index("swift-build") + 1:][1] == "release", f"not optimised ({installed.origin})"
        assert_installed_lean(installed.prefix / "bin")
    binary = installed.prefix / "bin" / BINARY
    libraries = run("ldd", binary).stdout
    assert "not found" not in libraries, libraries
    toolchain = [line for line in libraries.splitlines()
                 if "/opt/swift" in line or "libswiftCore" in line or "libFoundation" in line]
    assert not toolchain, f"the binary loads the Swift runtime from the toolchain ({installed.origin}):\n" + "\n".join(toolchain)
    for needed in ("libgtk-3", "libosmgpsmap-1.0", "libsqlite3"):
        assert needed in libraries, f"{needed} is what a distributor's package depends on:\n{libraries}"
    # Every request goes through AsyncHTTPClient: libcurl and the TLS, LDAP, Kerberos and SSH libraries it
    # brings would cost each start ~5 ms to load, for nothing.
    assert "libcurl" not in libraries, f"the app links libcurl (FoundationNetworking came back?):\n{libraries}"
    # With the toolchain out of reach it still starts.
    environment = {key: value for key, value in os.environ.items() if key != "LD_LIBRARY_PATH"}
    environment["PATH"] = "/usr/bin:/bin"
    result = subprocess.run([str(binary), "--version"], capture_output=True, text=True, env=environment, timeout=60)
    assert result.returncode == 0 and result.stdout.startswith(BINARY), result.stdout + result.stderr
