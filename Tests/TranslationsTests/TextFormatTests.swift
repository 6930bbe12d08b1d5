import Foundation
@testable import Translations
import XCTest

/// `formatted` fills what a translation asks for, whatever order, repetition or omission it chose, and never
/// reads an argument that is not there (Foundation's String(format:) on Linux crashes on "%2$@" alone).
final class TextFormatTests: XCTestCase {
    private let english = Locale(identifier: "en_001"), german = Locale(identifier: "de_DE")

    func testAMessageThatUsesOnlyItsSecondArgumentNamesIt() {
        XCTAssertEqual(TextFormat.fill("The place in “%2$@” is already on your map.", [.integer(1), .text("lisbon.gpx")], locale: english),
                       "The place in “lisbon.gpx” is already on your map.")
    }

    func testReorderedArgumentsFollowTheirNumbers() {
        XCTAssertEqual(TextFormat.fill("%2$@: %1$d Orte", [.integer(12), .text("Paris")], locale: german), "Paris: 12 Orte")
    }

    func testARepeatedArgumentIsWrittenEachTime() {
        XCTAssertEqual(TextFormat.fill("%1$@ (%1$@)", [.text("Lyon")], locale: english), "Lyon (Lyon)")
    }

    func testSequentialDirectivesTakeTheArgumentsInTurn() {
        XCTAssertEqual(TextFormat.fill("%d of %d — %@", [.integer(3), .integer(30), .text("Rome")], locale: english), "3 of 30 — Rome")
    }

    func testADirectiveNamingNoArgumentIsLeftAsWritten() {
        XCTAssertEqual(TextFormat.fill("%1$@ and %3$@", [.text("one")], locale: english), "one and %3$@")
        XCTAssertEqual(TextFormat.fill("%@ %@", [], locale: english), "%@ %@")
    }

    func testTheWrongTypeIsWrittenAsItsValue() {
        XCTAssertEqual(TextFormat.fill("%d photos", [.text("many")], locale: english), "many photos")
        XCTAssertEqual(TextFormat.fill("in %@", [.integer(2019)], locale: english), "in 2019")
    }

    func testPercentSignsAndStrayPercentsStay() {
        XCTAssertEqual(TextFormat.fill("%d%% done, 100% sure", [.integer(40)], locale: english), "40% done, 100% sure")
        XCTAssertEqual(TextFormat.fill("ends with %", [], locale: english), "ends with %")
    }

    func testNumbersFollowTheLocaleAndTheirPrecision() {
        XCTAssertEqual(TextFormat.fill("%.1f km", [.real(2.25)], locale: german), "2,2 km")
        XCTAssertEqual(TextFormat.fill("%.2f", [.real(1.5)], locale: english), "1.50")
        XCTAssertEqual(TextFormat.fill("%d photos", [.integer(1234)], locale: english), "1,234 photos", "as String(format:locale:) groups")
        XCTAssertEqual(TextFormat.fill("%d Fotos", [.integer(1234)], locale: german), "1.234 Fotos")
    }

    func testATextArgumentIsNeverReadAsADirective() {
        XCTAssertEqual(TextFormat.fill("“%@” could not be imported", [.text("100%d %@.gpx")], locale: english),
                       "“100%d %@.gpx” could not be imported")
    }

    func testDirectivesNameTheArgumentEachTakes() {
        let found = TextFormat.directives(of: "%2$@ %1$d %% %@ %.1f")
        XCTAssertEqual(found.map(\.argument), [1, 0, nil, 0, 1])
        XCTAssertEqual(found.map(\.conversion), ["@", "d", "%", "@", "f"])
    }

    func testTheCountedFormOfAPluralIsFilled() {
        XCTAssertEqual(trn("%d photo", "%d photos", count: 3), "3 photos")
    }
}
