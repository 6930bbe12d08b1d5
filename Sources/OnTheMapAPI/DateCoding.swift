import Foundation

/// Dates on the wire: ISO 8601 in UTC with milliseconds, `2026-11-23T05:30:07.123Z`, as Parse wrote them.
public enum OnTheMapDateFormat {
    private static let withMilliseconds = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)
    private static let withoutMilliseconds = Date.ISO8601FormatStyle(timeZone: .gmt)

    /// The nearest millisecond, written from whole numbers: the formatter truncates the binary fraction, so
    /// `…14.217` (stored as 1700000014217 ms, read back as …14.2169999) would be written `…14.216`.
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (wholeSeconds, positiveFraction) = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        let text = Date(timeIntervalSince1970: Double(wholeSeconds)).formatted(withoutMilliseconds)
        return String(text.dropLast()) + "." + String(String(positiveFraction + 1000).dropFirst()) + "Z"
    }

    /// Accepts the form with milliseconds and, from other servers, the one without.
    public static func date(from string: String) -> Date? {
        (try? withMilliseconds.parse(string)) ?? (try? withoutMilliseconds.parse(string))
    }
}

extension JSONEncoder {
    /// Encodes dates as `OnTheMapDateFormat` and keys in a stable order.
    public static func onTheMap() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(OnTheMapDateFormat.string(from: date))
        }
        return encoder
    }
}

extension JSONDecoder {
    /// Decodes dates written as `OnTheMapDateFormat`.
    public static func onTheMap() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = OnTheMapDateFormat.date(from: text) else {
                throw DecodingError.dataCorruptedError(in: container,
                                                       debugDescription: "not an ISO 8601 date: \(text)")
            }
            return date
        }
        return decoder
    }
}
