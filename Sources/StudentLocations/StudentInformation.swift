import Foundation
import OnTheMapAPI
import PlainText
import Translations

/// One student's pin as the map and the list show it: the wire type's fields (`student.firstName`, …), read
/// through to the `StudentLocation` it was built from, and what the UI makes of them.
@dynamicMemberLookup
public struct StudentInformation: Sendable, Hashable, Identifiable {
    public let location: StudentLocation
    public var id: String { location.objectId }

    public init(_ location: StudentLocation) {
        self.location = location
    }

    public subscript<Value>(dynamicMember field: KeyPath<StudentLocation, Value>) -> Value {
        location[keyPath: field]
    }

    /// "First Last" without stray spaces; "Someone" when the student gave no name at all.
    public var fullName: String {
        let name = [location.firstName, location.lastName]
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
            .joined(separator: " ")
        // Translators: stands in for the name of a student who gave none.
        return name.isEmpty ? tr("Someone") : name
    }

    /// The first letters of the first and last names, upper-cased ("AL"); "?" without names.
    public var initials: String {
        let letters = [location.firstName, location.lastName].compactMap { $0.trimmingCharacters(in: .whitespacesAndNewlines).first }
        return letters.isEmpty ? "?" : String(letters).uppercased()
    }

    /// The link if a browser may open it, as the list and the map show and open it: "www.example.com/me" (typed
    /// without a scheme, common in real classes' data) becomes https://www.example.com/me, as in a browser;
    /// `javascript:`, `mailto:`, `ftp:` and plain words are nil, so the UI shows them as text that can't be opened.
    public var link: URL? {
        Self.openableLink(location.mediaURL)
    }

    /// `WebLink.url(asTyped:)` for `text`, read without its surrounding spaces (Udacity's shared data has them).
    public static func openableLink(_ text: String) -> URL? {
        WebLink.url(asTyped: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}

/// A list entry read field by field: Udacity's shared data has nulls and missing fields, and one bad
/// entry must not hide the other 99. Entries without an id or a usable coordinate are dropped.
struct TolerantStudentLocation: Decodable {
    let information: StudentInformation?

    private enum Key: String, CodingKey {
        case objectId, uniqueKey, firstName, lastName, mapString, mediaURL, latitude, longitude, createdAt, updatedAt
    }

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: Key.self) else {
            information = nil
            return
        }
        func text(_ key: Key) -> String { (try? container.decodeIfPresent(String.self, forKey: key)) ?? "" }
        // What the list and the map show as it came: plain, so a name cannot reverse the text around it.
        func name(_ key: Key) -> String { PlainText.name(text(key)) }
        func number(_ key: Key) -> Double? { try? container.decodeIfPresent(Double.self, forKey: key) }
        func date(_ key: Key) -> Date? {
            guard let value = try? container.decodeIfPresent(String.self, forKey: key) else { return nil }
            return OnTheMapDateFormat.date(from: value)
        }
        let objectId = text(.objectId)
        guard !objectId.isEmpty, let latitude = number(.latitude), let longitude = number(.longitude),
              (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            information = nil
            return
        }
        let updatedAt = date(.updatedAt) ?? date(.createdAt) ?? .distantPast
        information = StudentInformation(StudentLocation(
            objectId: objectId, uniqueKey: text(.uniqueKey), firstName: name(.firstName), lastName: name(.lastName),
            mapString: name(.mapString), mediaURL: text(.mediaURL), latitude: latitude, longitude: longitude,
            createdAt: date(.createdAt) ?? updatedAt, updatedAt: updatedAt))
    }
}

/// `{"results": [...]}`, tolerant of bad entries (see `TolerantStudentLocation`).
struct TolerantStudentLocationList: Decodable {
    let results: [TolerantStudentLocation]
    var students: [StudentInformation] { results.compactMap(\.information) }
}
