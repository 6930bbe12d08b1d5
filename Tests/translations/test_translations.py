"""The translation pipeline as GNOME lays it out: po/POTFILES names every file with marked text (Swift, .ui), the template
meson generates holds every marked message, and each shipped translation is complete and well-formed."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PO = REPO / "po"
sys.path.insert(0, str(REPO / "Tests" / "e2e"))  # the end-to-end harness, which makes the template for both
from harness.catalogues import (FORMAT_DIRECTIVE, PSEUDO, Catalogue, Message, build_catalogues,  # noqa: E402
                                generate_template)
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


# A catalogue no translator would write, but one a future translation could: each formatted text names its arguments
# in reverse, repeats the first and leaves out the second of three or more.
SHUFFLED = "en@shuffled"


def shuffle_directives(text: str) -> str:
    found = [m for m in FORMAT_DIRECTIVE.finditer(text) if m.group() != "%%"]
    if not found:
        return text
    conversions, sequential = {}, 0
    for match in found:
        directive = match.group()
        number = re.match(r"%(\d+)\$", directive)
        if number:
            position = int(number.group(1))
        else:
            sequential += 1
            position = sequential
        conversions[position] = directive[-1]
    order = sorted(conversions, reverse=True)
    if len(order) >= 3:
        order.remove(2)
    named = [f"%{position}${conversions[position]}" for position in order + [order[-1]]]
    return "«" + " · ".join(named) + "»"


def po_quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def write_shuffled(messages: list[Message], output: Path) -> Path:
    """A catalogue of `messages` (msgid and msgid_plural) whose every form is shuffle_directives of its English."""
    lines = ['msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"',
             f'"Language: {SHUFFLED}\\n"', '"Plural-Forms: nplurals=2; plural=(n != 1);\\n"', ""]
    for message in messages:
        lines.append(f"msgid {po_quote(message.msgid)}")
        if message.plural is None:
            lines.append(f"msgstr {po_quote(shuffle_directives(message.msgid))}")
        else:
            lines.append(f"msgid_plural {po_quote(message.plural)}")
            lines.append(f"msgstr[0] {po_quote(shuffle_directives(message.msgid))}")
            lines.append(f"msgstr[1] {po_quote(shuffle_directives(message.plural))}")
        lines.append("")
    output.write_text("\n".join(lines), encoding="utf-8")
    return output


def test_every_catalogue_formats_every_message_with_its_arguments(tmp_path: Path) -> None:
    """Each shipped catalogue passes msgfmt --check-format; then every message of German, the pseudo-locale and a
    catalogue whose translations reorder, repeat and leave out arguments is formatted by the apps' own `formatted`
    (Tests/TranslationsTests/CatalogueFormatTests.swift, run on the debug build `swift test` made) with the arguments
    its English text takes: none crashes, and each argument a translation names appears in what it shows."""
    for language in linguas():
        check = subprocess.run(["msgfmt", "--check-format", "-o", "/dev/null", str(PO / f"{language}.po")],
                               capture_output=True, text=True)
        assert check.returncode == 0, f"{language}.po: {check.stderr}"
    catalogues = build_catalogues(tmp_path / "catalogues")
    shuffled_po = write_shuffled(list(catalogues[PSEUDO].messages.values()), tmp_path / f"{SHUFFLED}.po")
    shuffled_mo = tmp_path / f"{SHUFFLED}.mo"
    # Not --check-format: leaving an argument out is what this catalogue is for.
    subprocess.run(["msgfmt", "-o", str(shuffled_mo), str(shuffled_po)], check=True, capture_output=True)
    shuffled = Catalogue(SHUFFLED, shuffled_mo)
    reordered = [t for m in shuffled.messages.values() for t in m.translations if t.startswith("«%")]
    assert len(reordered) > 50 and any(t.startswith("«%2$") for t in reordered), reordered[:5]
    listing = [{"language": catalogue.language, "msgid": message.msgid, "plural": message.plural,
                "translations": list(message.translations)}
               for catalogue in [*catalogues.catalogues.values(), shuffled] for message in catalogue.messages.values()]
    languages = {entry["language"] for entry in listing}
    assert {"de", PSEUDO, SHUFFLED} <= languages, languages
    messages_file = tmp_path / "messages.json"
    messages_file.write_text(json.dumps(listing, ensure_ascii=False))
    run = subprocess.run(["swift", "test", "--skip-build", "--filter", "TranslationsTests.CatalogueFormatTests"],
                         cwd=REPO, capture_output=True, text=True, timeout=600,
                         env={**os.environ, "VIRTUAL_TOURIST_CATALOGUE_MESSAGES": str(messages_file)})
    output = run.stdout + run.stderr
    assert run.returncode == 0, f"formatting the catalogues' messages failed (swift test built? `swift build --build-tests`):\n{output[-4000:]}"
    assert re.search(r"Executed 1 test, with 0 failures", output) and "skipped" not in output, output[-2000:]
