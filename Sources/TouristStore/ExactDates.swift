import GRDB

/// Records whose dates are stored as seconds since the reference date: that round-trips exactly,
/// so a fetched record equals the one inserted (text or Unix-epoch storage loses precision).
protocol ExactDates: FetchableRecord, EncodableRecord {}

extension ExactDates {
    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSinceReferenceDate
    }

    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSinceReferenceDate
    }
}

extension Pin: ExactDates {}
extension Photo: ExactDates {}
extension Album: ExactDates {}
