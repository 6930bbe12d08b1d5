"""The apps' gettext catalogue as the end-to-end tests install it: every po/<lang>.po of po/LINGUAS compiled,
and a pseudo-translation (en@pseudo) in which every marked text reads ⟦…⟧, so a text shown without the
brackets was never marked (or not listed in po/POTFILES).

Both apps bind the catalogue from the first XDG_DATA_DIRS folder that holds one in the user's language
(Sources/Translations/Translations.swift); `Catalogues.environment` gives them that folder and the language.
"""

from __future__ import annotations

import functools
import re
import shutil
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
PO_FOLDER = REPO / "po"
DOMAIN = "virtual-tourist"
PSEUDO = "en@pseudo"
OPEN, CLOSE = "⟦", "⟧"
# printf directives as C and Swift's String(format:) read them: %d, %1$@, %.1f, %%.
FORMAT_DIRECTIVE = re.compile(r"%(?:\d+\$)?[-+ #0']*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t|L|q)?[a-zA-Z@%]")
# xgettext warns once per Swift file that it reads it as C, and per .ui file that it uses its own GtkBuilder rules
# (gettext 0.21 ships them as a fallback); any other warning is a text it could not read.
EXPECTED_XGETTEXT_WARNINGS = ("extension 'swift' is unknown", "will try C", "fallback ITS rule file")
# The languages the tests run the apps in: the locale gettext needs (never C) and the catalogue asked for.
LOCALES = {PSEUDO: "en_US.UTF-8", "de": "de_DE.UTF-8"}


class CatalogueError(AssertionError):
    """The catalogue could not be built or is not what the apps need: the message says which step and why."""


@dataclass(frozen=True)
class Message:
    """One entry of a compiled catalogue: its msgid (and msgid_plural) and translations (one per plural form)."""
    msgid: str
    plural: str | None
    translations: tuple[str, ...]
    context: str | None = None


class Catalogue:
    """A compiled .mo read back: what the apps will show for each English text."""

    def __init__(self, language: str, path: Path) -> None:
        self.language, self.path = language, path
        self.messages = {message.msgid: message for message in read_mo(path)
                         if message.msgid and message.context is None}

    def __len__(self) -> int:
        return len(self.messages)

    def __contains__(self, msgid: str) -> bool:
        return msgid in self.messages


@dataclass
class Catalogues:
    """<folder>/share/locale/<lang>/LC_MESSAGES/virtual-tourist.mo for every language, and how to run an app in one."""
    share: Path
    template: Path
    catalogues: dict[str, Catalogue]

    def __getitem__(self, language: str) -> Catalogue:
        return self.catalogues[language]

    def environment(self, language: str) -> dict[str, str]:
        """What an app's extra_environment needs to run in `language` with these catalogues."""
        return {"XDG_DATA_DIRS": f"{self.share}:/usr/local/share:/usr/share",
                "LANG": LOCALES.get(language, "en_US.UTF-8"), "LANGUAGE": language}


def build_catalogues(folder: Path, po_folder: Path = PO_FOLDER, source_root: Path = REPO) -> Catalogues:
    """Compiles po/<lang>.po for each language of po/LINGUAS, and the pseudo-translation of a template made
    from po/POTFILES as it is now (paths relative to `source_root`), into `folder`/share/locale. Raises
    CatalogueError naming the failing step."""
    locale = folder / "share" / "locale"
    catalogues = {}
    for language in linguas(po_folder):
        source = po_folder / f"{language}.po"
        if not source.exists():
            raise CatalogueError(f"po/LINGUAS lists {language!r} but {source} does not exist")
        catalogues[language] = Catalogue(language, compile_catalogue(source, locale, language))
    template = make_template(po_folder, source_root, folder / f"{DOMAIN}.pot")
    pseudo = pseudo_translate(template, folder / f"{PSEUDO}.po")
    catalogues[PSEUDO] = Catalogue(PSEUDO, compile_catalogue(pseudo, locale, PSEUDO))
    check_pseudo(catalogues[PSEUDO], template)
    return Catalogues(folder / "share", template, catalogues)


def linguas(po_folder: Path = PO_FOLDER) -> list[str]:
    words = []
    for line in (po_folder / "LINGUAS").read_text().splitlines():
        words += line.split("#", 1)[0].split()
    return words


def generate_template(build: Path, po_folder: Path = PO_FOLDER, source_root: Path = REPO) -> tuple[Path, list[str]]:
    """The template exactly as the build makes it: meson's `virtual-tourist-pot` target (po/meson.build holds
    xgettext's keywords), in the throw-away build folder `build`. Returns po/virtual-tourist.pot, which it writes,
    and xgettext's warnings other than EXPECTED_XGETTEXT_WARNINGS (each a text it could not read)."""
    run(["meson", "setup", str(build), str(source_root), f"-Dswiftpm_scratch_path={build / 'swift'}"], "meson setup")
    result = run(["ninja", "-C", str(build), f"{DOMAIN}-pot"], "xgettext (ninja virtual-tourist-pot)")
    made = po_folder / f"{DOMAIN}.pot"
    if not made.exists():
        raise CatalogueError("xgettext found no message in the files po/POTFILES lists: nothing to pseudo-translate")
    warnings = [line for line in (result.stdout + result.stderr).splitlines()
                if "warning" in line and not any(reason in line for reason in EXPECTED_XGETTEXT_WARNINGS)]
    return made, warnings


def make_template(po_folder: Path, source_root: Path, output: Path) -> Path:
    """generate_template's template (its warnings aside), copied to `output`."""
    made, _ = generate_template(output.parent / "meson-pot", po_folder, source_root)
    shutil.copyfile(made, output)
    return output


def pseudo_translate(template: Path, output: Path) -> Path:
    """msgen (each msgstr is its msgid), then msgfilter wraps every line of every msgstr in ⟦…⟧."""
    english = output.with_name("en-copied.po")
    header_fixed = output.with_name("template-with-header.pot")
    header_fixed.write_text(pseudo_header(template.read_text()))
    run(["msgen", str(header_fixed), "-o", str(english)], "msgen")
    run(["msgfilter", "--keep-header", "-i", str(english), "-o", str(output),
         "sed", "-e", f"s/^/{OPEN}/", "-e", f"s/$/{CLOSE}/"], "msgfilter")
    return output


def pseudo_header(template_text: str) -> str:
    """The template's header filled in for en@pseudo: English plural rule, UTF-8, not fuzzy (msgfmt drops fuzzy)."""
    header, separator, rest = template_text.partition("\n\n")
    header = header.replace("#, fuzzy\n", "")
    for field, value in (("Project-Id-Version", DOMAIN), ("Language", PSEUDO),
                         ("Content-Type", "text/plain; charset=UTF-8"),
                         ("Plural-Forms", "nplurals=2; plural=(n != 1);"),
                         ("PO-Revision-Date", "2026-01-01 00:00+0000"),
                         ("Last-Translator", "Tests/e2e/harness/catalogues.py"),
                         ("Language-Team", "none")):
        pattern = re.compile(rf'^"{re.escape(field)}: .*\\n"$', re.MULTILINE)
        line = f'"{field}: {value}\\n"'
        header = pattern.sub(lambda _: line, header) if pattern.search(header) else header + "\n" + line
    return header + separator + rest


def compile_catalogue(source: Path, locale: Path, language: str) -> Path:
    target = locale / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    target.parent.mkdir(parents=True, exist_ok=True)
    run(["msgfmt", "--check", "-o", str(target), str(source)], f"msgfmt --check {source.name}")
    return target


def check_pseudo(pseudo: Catalogue, template: Path) -> None:
    """Every message of the template is in the pseudo catalogue, each line bracketed, with its plural forms
    and format directives as in English (so the apps' String(format:) still fills them)."""
    expected = template_msgids(template)
    problems = [f"missing: {msgid!r}" for msgid in expected if msgid not in pseudo]
    for message in pseudo.messages.values():
        sources = (message.msgid,) if message.plural is None else (message.msgid, message.plural)
        if len(message.translations) != len(sources):
            problems.append(f"{message.msgid!r}: {len(message.translations)} forms for {len(sources)}")
            continue
        for source, translation in zip(sources, message.translations):
            if unwrap(translation) != source:
                problems.append(f"{source!r} became {translation!r}")
            elif FORMAT_DIRECTIVE.findall(translation) != FORMAT_DIRECTIVE.findall(source):
                problems.append(f"{source!r}: directives {FORMAT_DIRECTIVE.findall(translation)}")
    if problems:
        raise CatalogueError("the pseudo-translation is broken:\n  " + "\n  ".join(problems[:20]))


def unwrap(text: str) -> str | None:
    """The English inside a pseudo-translated text (every line bracketed), or None when a line is not."""
    lines = []
    for line in text.split("\n"):
        if not (line.startswith(OPEN) and line.endswith(CLOSE)):
            return None
        lines.append(line[len(OPEN):-len(CLOSE)])
    return "\n".join(lines)


def template_msgids(template: Path) -> set[str]:
    """The template's msgids without a context (as Catalogue keeps them), decoded from PO quoting."""
    msgids, current, collecting, in_context = set(), [], False, False
    for line in template.read_text().splitlines() + [""]:
        if line.startswith("msgctxt "):
            in_context = True
        elif line.startswith("msgid "):
            current, collecting = [line[6:]], True
        elif collecting and line.startswith('"'):
            current.append(line)
        elif collecting:
            text = "".join(_po_unquote(part) for part in current)
            if text and not in_context:
                msgids.add(text)
            collecting, in_context = False, False
    return msgids


def _po_unquote(quoted: str) -> str:
    body = quoted.strip()[1:-1]
    escapes = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
    return re.sub(r"\\(.)", lambda found: escapes.get(found.group(1), found.group(1)), body)


def read_mo(path: Path) -> list[Message]:
    """A GNU .mo file's entries (Python's gettext module drops msgid_plural, which the checks need)."""
    data = path.read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    count, originals, translations = struct.unpack(order + "III", data[8:20])
    messages = []
    for index in range(count):
        length, offset = struct.unpack(order + "II", data[originals + 8 * index:originals + 8 * index + 8])
        original = data[offset:offset + length].decode()
        length, offset = struct.unpack(order + "II", data[translations + 8 * index:translations + 8 * index + 8])
        translated = data[offset:offset + length].decode()
        msgid, _, plural = original.partition("\0")
        context, _, msgid = msgid.rpartition("\x04")
        messages.append(Message(msgid, plural if "\0" in original else None, tuple(translated.split("\0")),
                                context or None))
    return messages


def run(command: list[str], step: str) -> subprocess.CompletedProcess:
    if shutil.which(command[0]) is None:
        raise CatalogueError(f"{command[0]} is not installed (.ci/packages lists it); the {step} step needs it")
    result = subprocess.run(command, capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        # xgettext warns once per Swift file that it reads it as C (the house's way): not the news.
        news = [line for line in result.stderr.splitlines() if "extension 'swift' is unknown" not in line]
        raise CatalogueError(f"{step} failed ({result.returncode}):\n" + "\n".join(news).strip())
    return result


@functools.lru_cache(maxsize=None)
def gtk_messages(language: str) -> dict[tuple[str | None, str], str]:
    """GTK's own catalogue (gtk30.mo) in `language`: (context, msgid) → translation; empty where GTK has none."""
    for folder in (Path("/usr/share/locale"), Path("/usr/local/share/locale")):
        path = folder / language / "LC_MESSAGES" / "gtk30.mo"
        if path.exists():
            return {(message.context, message.msgid): message.translations[0] for message in read_mo(path)}
    return {}


def gtk_translation(language: str, msgid: str, context: str | None = None) -> str | None:
    """GTK's own translation of one of its texts, e.g. "_Close" → "_Schließen": proof that the locale is
    live, and how to find GTK's buttons in that language."""
    return gtk_messages(language).get((context, msgid))
