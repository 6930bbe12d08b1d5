import Foundation

/// A value a translated text's directive (`%d`, `%@`, `%2$@`, `%.1f`) takes.
public enum FormatValue: Sendable, Equatable {
    case integer(Int)
    case real(Double)
    case text(String)
}

/// What `formatted` accepts as an argument.
public protocol FormatArgument: Sendable {
    var formatValue: FormatValue { get }
}

extension Int: FormatArgument { public var formatValue: FormatValue { .integer(self) } }
extension Int32: FormatArgument { public var formatValue: FormatValue { .integer(Int(self)) } }
extension Int64: FormatArgument { public var formatValue: FormatValue { .integer(Int(self)) } }
extension UInt: FormatArgument { public var formatValue: FormatValue { .integer(Int(clamping: self)) } }
extension Double: FormatArgument { public var formatValue: FormatValue { .real(self) } }
extension String: FormatArgument { public var formatValue: FormatValue { .text(self) } }
extension Substring: FormatArgument { public var formatValue: FormatValue { .text(String(self)) } }

/// `text` (a translated message with printf directives) with its directives filled from `arguments`, numbers
/// written the user's way. Translations may reorder (`%2$@ … %1$d`), repeat or leave out arguments, and a broken
/// one may name an argument that does not exist or the wrong type: Foundation's `String(format:)` then reads its
/// variadic list wrongly and crashes on Linux, so each directive is filled here by position, one value at a time.
/// A directive naming no argument is left as written.
public func formatted(_ text: String, _ arguments: any FormatArgument...) -> String {
    TextFormat.fill(text, arguments.map(\.formatValue), locale: Translations.formattingLocale)
}

public enum TextFormat {
    /// One printf directive of a text, as C and gettext's `c-format` read it.
    public struct Directive: Equatable, Sendable {
        /// The argument it takes, counted from 0; nil for `%%`.
        public var argument: Int?
        /// The conversion (`d`, `f`, `@`, `s` …), after any length modifier.
        public var conversion: Character
        /// Flags, width and precision as written (`-5`, `.1`), for numbers.
        public var options: String
        /// Where it is in the text.
        public var range: Range<String.Index>
    }

    /// The directives of `text` in order, with the argument each takes (numbered ones by number, the others in turn).
    public static func directives(of text: String) -> [Directive] {
        var found: [Directive] = []
        var next = 0
        var index = text.startIndex
        while let percent = text[index...].firstIndex(of: "%") {
            guard let directive = parse(text, at: percent, next: &next) else {
                index = text.index(after: percent)
                continue
            }
            found.append(directive)
            index = directive.range.upperBound
        }
        return found
    }

    static func fill(_ text: String, _ values: [FormatValue], locale: Locale) -> String {
        var output = ""
        var index = text.startIndex
        for directive in directives(of: text) {
            output += text[index..<directive.range.lowerBound]
            index = directive.range.upperBound
            guard let argument = directive.argument else {
                output += "%"
                continue
            }
            guard values.indices.contains(argument) else {
                output += text[directive.range]
                continue
            }
            output += render(values[argument], as: directive, locale: locale)
        }
        return output + text[index...]
    }

    private static let flags: Set<Character> = ["-", "+", " ", "#", "0", "'"]
    private static let lengths: Set<Character> = ["h", "l", "q", "L", "z", "j", "t"]
    private static let conversions: Set<Character> = ["d", "i", "u", "x", "X", "o", "c", "f", "F", "e", "E", "g", "G", "a", "A", "s", "S", "@", "%"]

    private static func parse(_ text: String, at percent: String.Index, next: inout Int) -> Directive? {
        var cursor = text.index(after: percent)
        func take(while accept: (Character) -> Bool) -> Substring {
            let start = cursor
            while cursor < text.endIndex, accept(text[cursor]) { cursor = text.index(after: cursor) }
            return text[start..<cursor]
        }
        var position: Int?
        let digits = take(while: \.isASCIIDigit)
        if !digits.isEmpty, cursor < text.endIndex, text[cursor] == "$", let number = Int(digits), number > 0 {
            position = number - 1
            cursor = text.index(after: cursor)
        } else {
            cursor = text.index(after: percent)
        }
        let options = take { flags.contains($0) } + take(while: \.isASCIIDigit)
            + (cursor < text.endIndex && text[cursor] == "." ? take { $0 == "." } + take(while: \.isASCIIDigit) : "")
        _ = take { lengths.contains($0) }
        guard cursor < text.endIndex, conversions.contains(text[cursor]) else { return nil }
        let conversion = text[cursor]
        let range = percent..<text.index(after: cursor)
        if conversion == "%" { return Directive(argument: nil, conversion: "%", options: "", range: range) }
        let argument: Int
        if let position { argument = position } else { argument = next; next += 1 }
        return Directive(argument: argument, conversion: conversion, options: String(options.filter { $0 != "'" }),
                         range: range)
    }

    private static func render(_ value: FormatValue, as directive: Directive, locale: Locale) -> String {
        let options = directive.options
        switch (directive.conversion, value) {
        case ("f", .real(let real)), ("F", .real(let real)), ("e", .real(let real)), ("E", .real(let real)),
             ("g", .real(let real)), ("G", .real(let real)):
            return String(format: "%\(options)\(directive.conversion)", locale: locale, real)
        case ("f", .integer(let integer)), ("F", .integer(let integer)), ("e", .integer(let integer)),
             ("g", .integer(let integer)):
            return String(format: "%\(options)\(directive.conversion)", locale: locale, Double(integer))
        case ("d", .integer(let integer)), ("i", .integer(let integer)), ("u", .integer(let integer)):
            return String(format: "%\(options)ld", locale: locale, integer)
        case ("x", .integer(let integer)), ("X", .integer(let integer)), ("o", .integer(let integer)):
            return String(format: "%\(options)l\(directive.conversion)", locale: locale, integer)
        case (_, .integer(let integer)):
            return String(integer)
        case (_, .real(let real)):
            return String(real)
        case (_, .text(let text)):
            return text
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
