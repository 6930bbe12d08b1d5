import PlainText
import XCTest

final class PlainTextTests: XCTestCase {
    func testOverridesEmbeddingsAndIsolatesAreStripped() {
        // "gpx.exe" written backwards behind a right-to-left override shows as "exe.xpg": the trick of issue 46.
        XCTAssertEqual(PlainText.name("Trap \u{202E}exe.xpg"), "Trap exe.xpg")
        XCTAssertEqual(PlainText.name("\u{202A}a\u{202B}b\u{202C}c\u{202D}d\u{202E}e"), "abcde")
        XCTAssertEqual(PlainText.name("\u{2066}a\u{2067}b\u{2068}c\u{2069}"), "abc")
    }

    func testDirectionalMarksStay() {
        let name = "\u{200F}שלום\u{200E} Café \u{061C}مرحبا"
        XCTAssertEqual(PlainText.name(name), name)
    }

    func testControlCharactersGoAndLineBreaksAndTabsBecomeOneSpace() {
        XCTAssertEqual(PlainText.name("Bell\u{07}ed\u{00}\u{7F}\u{9B}"), "Belled")
        XCTAssertEqual(PlainText.name("Two\nlines\r\nand\ta\u{0085}tab\u{2028}end"), "Two lines and a tab end")
        XCTAssertEqual(PlainText.name("  spaced \u{202E}  out \n\n "), "spaced out")
    }

    func testALoneNoBreakSpaceStaysAndARunIsOneSpace() {
        XCTAssertEqual(PlainText.name("10\u{00A0}km"), "10\u{00A0}km")
        XCTAssertEqual(PlainText.name("10\u{00A0}\u{2009} km"), "10 km")
    }

    func testEmojiAndJoinersStay() {
        let name = "👨‍👩‍👧 Familie 🇵🇹 می‌خواهم"
        XCTAssertEqual(PlainText.name(name), name)
    }

    func testNothingLeftIsEmpty() {
        XCTAssertEqual(PlainText.name(" \u{202E}\n\t\u{00} "), "")
        XCTAssertNil(PlainText.nonEmptyName(" \u{202E}\n\t\u{00} "), "a name that is no name")
        XCTAssertNil(PlainText.nonEmptyName(nil))
        XCTAssertEqual(PlainText.nonEmptyName(" Porto\u{202E} "), "Porto")
    }

    func testALongNameIsCutToTheCapWithAnEllipsis() {
        let name = PlainText.name(String(repeating: "Lisboa ", count: 1_466))  // 10,262 characters
        XCTAssertEqual(name.count, PlainText.maximumNameLength)
        XCTAssertTrue(name.hasSuffix("…"))
        XCTAssertFalse(name.dropLast().hasSuffix(" "), "no space before the ellipsis")
        XCTAssertEqual(PlainText.name(String(repeating: "a", count: PlainText.maximumNameLength)).count,
                       PlainText.maximumNameLength, "a name at the cap is kept whole")
        XCTAssertFalse(PlainText.name(String(repeating: "a", count: PlainText.maximumNameLength)).hasSuffix("…"))
    }

    func testACharacterStackedWithCombiningMarksCannotPassTheCap() {
        let name = PlainText.name("Z" + String(repeating: "\u{0301}", count: 10_000) + "agreb")
        XCTAssertLessThanOrEqual(name.unicodeScalars.count, PlainText.maximumNameScalars)
        XCTAssertEqual(name, "…", "one character over the code point cap is not cut in half")
        let cut = PlainText.name(String(repeating: "e\u{0301}", count: 600))
        XCTAssertEqual(cut.count, PlainText.maximumNameLength)
        XCTAssertLessThanOrEqual(cut.unicodeScalars.count, PlainText.maximumNameScalars)
    }

    func testCleaningIsIdempotent() {
        for text in ["Trap \u{202E}exe.xpg", String(repeating: "Lisboa ", count: 100), " a \n b "] {
            let once = PlainText.name(text)
            XCTAssertEqual(PlainText.name(once), once)
        }
    }
}
