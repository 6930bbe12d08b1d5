"""The translation pipeline as GNOME lays it out: po/POTFILES names every file with marked text (Swift, .ui), the template
meson generates holds every marked message, and each shipped translation is complete and well-formed."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PO = REPO / "po"
sys.path.insert(0, str(REPO / "Tests" / "e2e"))  # the end-to-end harness, which makes the template for both
from harness.catalogues import generate_template  # noqa: E402
# A call to tr( or trn( (not a longer name such as `str(` or `attr(`), and what follows it.
MARK = re.compile(r"(?<![\w.])(trn?)\(\s*(.)")
# A marked literal that xgettext, reading Swift as C, would mangle or cut.
UNREADABLE = re.compile(r'(?<![\w.])trn?\(\s*(?:"""|"[^"\n]*\\u\{)')


def potfiles() -> list[str]:
    lines = (PO / "POTFILES").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def sources_with_marks() -> set[str]:
    found = set()
    for path in sorted((REPO / "Sources").rglob("*.swift")):
        if path.parts[-2] == "Translations":
            continue  # where tr and trn are defined
        if MARK.search(path.read_text(encoding="utf-8")):
            found.add(str(path.relative_to(REPO)))
    for path in sorted((REPO / "data" / "ui").glob("*.ui")):
        if 'translatable="yes"' in path.read_text(encoding="utf-8"):
            found.add(str(path.relative_to(REPO)))
    return found


def test_potfiles_lists_exactly_the_files_with_marked_text() -> None:
    listed = potfiles()
    assert listed == sorted(listed), "keep po/POTFILES sorted"
    missing = sources_with_marks() - set(listed)
    assert not missing, f"files with tr()/trn() that po/POTFILES leaves out (their texts never reach translators): {sorted(missing)}"
    for name in listed:
        path = REPO / name
        assert path.is_file(), f"po/POTFILES names {name}, which does not exist"
        if path.suffix in (".swift", ".ui"):
            assert name in sources_with_marks(), f"po/POTFILES names {name}, which marks nothing"


def test_every_mark_is_one_literal_xgettext_can_read() -> None:
    problems = []
    for name in sorted(n for n in sources_with_marks() if n.endswith(".swift")):
        text = (REPO / name).read_text(encoding="utf-8")
        for match in MARK.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            if match.group(2) != '"':
                problems.append(f"{name}:{line}: {match.group(1)}() given a value, not a literal xgettext can see")
        for match in UNREADABLE.finditer(text):
            problems.append(f"{name}:{text.count(chr(10), 0, match.start()) + 1}: multi-line literal or \\u{{}} escape in a marked text")
    assert not problems, "\n".join(problems)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The template exactly as the build makes it (po/virtual-tourist.pot), made as the end-to-end tests make theirs."""
    made, warnings = generate_template(tmp_path_factory.mktemp("meson-pot"), PO, REPO)
    assert not warnings, "\n".join(warnings)
    return made


def messages(po_file: Path) -> set[str]:
    out = subprocess.run(["msgcat", "--no-wrap", "--sort-output", str(po_file)], capture_output=True, text=True, check=True).stdout
    return {m for m in re.findall(r'^msgid "(.*)"$', out, re.M) if m}


def test_template_holds_the_marked_texts_of_both_apps_and_their_launchers(template: Path) -> None:
    found = messages(template)
    # One text from each kind of source: Swift UI, a client's error, a launcher, the metainfo.
    for expected in ["Virtual Tourist", "On the Map", "Drop pins on a world map and browse Flickr photos taken nearby"]:
        assert expected in found, f"{expected!r} missing from the template"
    assert len(found) > 150, f"only {len(found)} messages in the template"


def linguas() -> list[str]:
    return [line.strip() for line in (PO / "LINGUAS").read_text().splitlines() if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize("language", linguas())
def test_translation_is_well_formed_and_complete(template: Path, language: str, tmp_path: Path) -> None:
    po_file = PO / f"{language}.po"
    check = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po_file)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    merged = tmp_path / f"{language}.po"
    subprocess.run(["msgmerge", "--quiet", "--no-fuzzy-matching", "-o", str(merged), str(po_file), str(template)], check=True)
    stats = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(merged)], capture_output=True, text=True)
    assert stats.returncode == 0, stats.stderr
    assert "untranslated" not in stats.stderr and "fuzzy" not in stats.stderr, \
        f"{language}.po against the current template: {stats.stderr.strip()}"
