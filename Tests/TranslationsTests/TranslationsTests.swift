import Foundation
import Translations
import XCTest

/// The apps' gettext set-up against a real catalogue compiled by msgfmt, in real locales (de_DE, en_US: .ci/setup
/// makes them). Each test restores the process's locale variables afterwards.
final class TranslationsTests: XCTestCase {
    private var share: URL!
    private let saved = ["LC_ALL", "LANGUAGE"].map { ($0, ProcessInfo.processInfo.environment[$0]) }

    override func setUpWithError() throws {
        share = FileManager.default.temporaryDirectory.appending(path: "translations-\(UUID().uuidString)/share")
        let folder = share.appending(path: "locale/de/LC_MESSAGES")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let source = folder.appending(path: "virtual-tourist.po")
        try """
        msgid ""
        msgstr ""
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Language: de\\n"
        "Plural-Forms: nplurals=2; plural=(n != 1);\\n"

        msgid "New Collection"
        msgstr "Neue Sammlung"

        msgid "%d photo"
        msgid_plural "%d photos"
        msgstr[0] "%d Foto"
        msgstr[1] "%d Fotos"

        """.write(to: source, atomically: true, encoding: .utf8)
        let msgfmt = Process()
        msgfmt.executableURL = URL(fileURLWithPath: "/usr/bin/msgfmt")
        msgfmt.arguments = ["--check", "-o", folder.appending(path: "virtual-tourist.mo").path, source.path]
        try msgfmt.run()
        msgfmt.waitUntilExit()
        XCTAssertEqual(msgfmt.terminationStatus, 0, "msgfmt (gettext) is installed and compiles the catalogue")
    }

    override func tearDownWithError() throws {
        for (name, value) in saved {
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        Translations.setUp(environment: [:])
        try? FileManager.default.removeItem(at: share.deletingLastPathComponent())
    }

    private func setUpLocale(_ locale: String, language: String?) {
        setenv("LC_ALL", locale, 1)
        if let language { setenv("LANGUAGE", language, 1) } else { unsetenv("LANGUAGE") }
        Translations.setUp(environment: ["XDG_DATA_DIRS": share.path + ":/usr/share", "LANGUAGE": language ?? ""])
    }

    func testGermanTextsAndPluralsComeFromTheCatalogueInXDGDataDirs() throws {
        setUpLocale("de_DE.UTF-8", language: "de")
        XCTAssertEqual(tr("New Collection"), "Neue Sammlung")
        XCTAssertEqual(trn("%d photo", "%d photos", count: 1), "1 Foto")
        XCTAssertEqual(trn("%d photo", "%d photos", count: 28), "28 Fotos")
        XCTAssertEqual(tr("Not in the catalogue"), "Not in the catalogue", "a missing text falls back to English")
    }

    func testTheCLocaleKeepsEnglishAndInternationalFormats() {
        setUpLocale("C", language: "de")
        XCTAssertEqual(tr("New Collection"), "New Collection", "gettext ignores LANGUAGE in the C locale")
        XCTAssertEqual((1234.5).formatted(.number.locale(Translations.formattingLocale)), "1,234.5")
        XCTAssertFalse(Translations.usesMiles)
    }

    func testNumbersFollowTheLocaleAndMilesFollowItsMeasurementSystem() {
        setUpLocale("de_DE.UTF-8", language: nil)
        XCTAssertEqual((1234.5).formatted(.number.locale(Translations.formattingLocale)), "1.234,5")
        XCTAssertFalse(Translations.usesMiles)
        setUpLocale("en_US.UTF-8", language: nil)
        XCTAssertEqual((1234.5).formatted(.number.locale(Translations.formattingLocale)), "1,234.5")
        XCTAssertTrue(Translations.usesMiles)
    }

    func testTheMessagesLocaleAloneChoosesTheLanguageWhenLANGUAGEIsUnset() {
        setUpLocale("de_DE.UTF-8", language: nil)
        XCTAssertEqual(tr("New Collection"), "Neue Sammlung")
    }
}
