import Foundation
import Translations

/// What a download of the class gives: the newest students, newest first, and whether the service sent more
/// than it was asked for (then the UI says what it shows).
public struct RecentLocations: Sendable, Equatable {
    public let students: [StudentInformation]
    public let excess: ExcessAnswer?

    public init(students: [StudentInformation], excess: ExcessAnswer? = nil) {
        self.students = students
        self.excess = excess
    }

    /// The newest `limit` of `entries`; `excess` says so when the service sent more than `limit` or was cut off
    /// at `cutOffAt` bytes.
    init(newest limit: Int, of entries: [TolerantStudentLocation], cutOffAt byteLimit: Int?) {
        let all = entries.compactMap(\.information)
        // Sorted here, not trusted: a service that ignores `limit` may well ignore `order` too.
        let newest = all.count > limit ? Array(all.sorted { $0.updatedAt > $1.updatedAt }.prefix(limit)) : all
        students = newest
        if let byteLimit {
            excess = .cutOff(byteLimit: byteLimit, read: entries.count, shown: newest.count)
        } else if entries.count > limit {
            excess = .moreThanAsked(sent: entries.count, asked: limit, shown: newest.count)
        } else {
            excess = nil
        }
    }
}

/// A service that answered with more than it was asked for; `description` tells the user what is shown and why.
public enum ExcessAnswer: Sendable, Equatable, CustomStringConvertible {
    /// The whole answer was read: `sent` entries where `asked` were, of which the newest `shown` are kept.
    case moreThanAsked(sent: Int, asked: Int, shown: Int)
    /// The answer was larger than `byteLimit` bytes, so reading stopped there; `read` entries were whole by then,
    /// of which the newest `shown` are kept.
    case cutOff(byteLimit: Int, read: Int, shown: Int)

    public var description: String {
        let locale = Translations.formattingLocale
        let number: (Int) -> String = { $0.formatted(.number.locale(locale)) }
        switch self {
        case .moreThanAsked(let sent, let asked, let shown):
            // Translators: %1$@ is how many students are shown (100); %2$@ how many the server sent, e.g. "1,500";
            // %3$@ how many the app asked for (100).
            return formatted(trn("Showing the newest %1$@ of %2$@ location: the server sent more than the %3$@ asked for.",
                                      "Showing the newest %1$@ of %2$@ locations: the server sent more than the %3$@ asked for.",
                                      sent), number(shown), number(sent), number(asked))
        case .cutOff(let byteLimit, let read, let shown):
            // Translators: %1$@ is how many students are shown (100); %2$@ how many were read, e.g. "13,245";
            // %3$@ a size in megabytes, e.g. "4".
            return formatted(trn("Showing the newest %1$@ of the first %2$@ location: the server sent more than %3$@ MB, far more than asked for, so On the Map stopped reading there.",
                                      "Showing the newest %1$@ of the first %2$@ locations: the server sent more than %3$@ MB, far more than asked for, so On the Map stopped reading there.",
                                      read), number(shown), number(read), number(byteLimit / 1_000_000))
        }
    }
}
