import Foundation
@testable import Translations
import XCTest

/// Every message of every compiled catalogue, formatted by `formatted` with the arguments its English text takes:
/// the arguments a translation names all appear, with the type the English gives them, and nothing is left unfilled.
/// Tests/translations/test_translations.py compiles the catalogues (German, the pseudo-locale, and one whose
/// translations reorder, repeat and leave out arguments), lists their messages as JSON and runs this test on them.
final class CatalogueFormatTests: XCTestCase {
    private struct Message: Decodable {
        var language: String
        var msgid: String
        var plural: String?
        var translations: [String]
    }

    func testEveryTranslationFormatsWithTheArgumentsOfItsEnglishText() throws {
        guard let listing = ProcessInfo.processInfo.environment["VIRTUAL_TOURIST_CATALOGUE_MESSAGES"] else {
            throw XCTSkip("run by Tests/translations/test_translations.py, which compiles the catalogues it lists")
        }
        let messages = try JSONDecoder().decode([Message].self, from: Data(contentsOf: URL(fileURLWithPath: listing)))
        XCTAssertGreaterThan(messages.count, 100, "the listing holds the catalogues' messages")
        var problems: [String] = []
        var formattedCount = 0
        for message in messages {
            let english = [message.msgid] + (message.plural.map { [$0] } ?? [])
            // The arguments the code passes: what the English texts' directives take, by position.
            var kinds: [Int: Character] = [:]
            for text in english {
                for directive in TextFormat.directives(of: text) {
                    if let argument = directive.argument { kinds[argument] = directive.conversion }
                }
            }
            guard !kinds.isEmpty else { continue }
            let count = (kinds.keys.max() ?? -1) + 1
            // Numbers under 1,000, so the locale's grouping does not change how they read.
            let values: [FormatValue] = (0..<count).map { index in
                Self.isNumber(kinds[index]) ? .integer(701 + index) : .text("⟨argument \(index + 1)⟩")
            }
            for translation in message.translations + english {
                formattedCount += 1
                let output = TextFormat.fill(translation, values, locale: Locale(identifier: "de_DE"))
                for directive in TextFormat.directives(of: translation) {
                    guard let argument = directive.argument else { continue }
                    guard values.indices.contains(argument) else {
                        problems.append("\(message.language): “\(translation)” names argument \(argument + 1) of \(count) (“\(message.msgid)”)")
                        continue
                    }
                    if Self.isNumber(directive.conversion) != Self.isNumber(kinds[argument]) {
                        problems.append("\(message.language): “\(translation)” reads argument \(argument + 1) as %\(directive.conversion) (“\(message.msgid)”)")
                    }
                    let expected: String
                    switch values[argument] {
                    case .integer(let number): expected = String(number)
                    case .text(let text): expected = text
                    case .real: continue
                    }
                    if !output.contains(expected) {
                        problems.append("\(message.language): “\(translation)” → “\(output)” lacks argument \(argument + 1)")
                    }
                }
            }
        }
        XCTAssertGreaterThan(formattedCount, 100, "formatted texts were found")
        XCTAssertEqual(problems, [], problems.prefix(20).joined(separator: "\n"))
    }

    private static func isNumber(_ conversion: Character?) -> Bool {
        guard let conversion else { return false }
        return "diuxXo".contains(conversion)
    }
}
