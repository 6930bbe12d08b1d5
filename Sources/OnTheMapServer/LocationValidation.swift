import Foundation
import OnTheMapAPI

/// Checks a posted location before it is stored; each failure says which field and what is allowed.
enum LocationValidation {
    static let maximumKeyLength = 256
    static let maximumNameLength = 100
    static let maximumMapStringLength = 200
    static let maximumURLLength = 2048

    static func validate(_ posting: StudentLocationPosting) throws {
        guard !posting.uniqueKey.isEmpty else {
            throw APIError.badRequest("uniqueKey must be 1 to \(maximumKeyLength) characters: your account key.")
        }
        for (field, value, limit) in [("uniqueKey", posting.uniqueKey, maximumKeyLength),
                                      ("firstName", posting.firstName, maximumNameLength),
                                      ("lastName", posting.lastName, maximumNameLength),
                                      ("mapString", posting.mapString, maximumMapStringLength),
                                      ("mediaURL", posting.mediaURL, maximumURLLength)] {
            if let problem = InputText.problem(value, maximum: limit) { throw APIError.badRequest(problem.message(field)) }
        }
        guard posting.latitude.isFinite, (-90...90).contains(posting.latitude) else {
            throw APIError.badRequest("latitude must be between -90 and 90 degrees.")
        }
        guard posting.longitude.isFinite, (-180...180).contains(posting.longitude) else {
            throw APIError.badRequest("longitude must be between -180 and 180 degrees.")
        }
        guard isWebLink(posting.mediaURL) else {
            throw APIError.badRequest("mediaURL must be a web link starting with http:// or https://.")
        }
    }

    /// Links open in other students' browsers: `WebLink`'s rule (the client's too), taken exactly as sent.
    static func isWebLink(_ text: String) -> Bool {
        text == text.trimmingCharacters(in: .whitespaces) && WebLink.url(text) != nil
    }

    /// `GET /v1/StudentLocation`'s query: limit 0…1000 (larger is capped, as Parse did), skip ≥ 0,
    /// order updatedAt or -updatedAt, uniqueKey optional.
    static func query(_ parameters: [String: String]) throws -> LocationQuery {
        var query = LocationQuery()
        if let limit = parameters["limit"] {
            guard let value = Int(limit), value >= 0 else {
                throw APIError.badRequest("limit must be a whole number from 0 to \(LocationQuery.maximumLimit).")
            }
            query.limit = min(value, LocationQuery.maximumLimit)
        }
        if let skip = parameters["skip"] {
            guard let value = Int(skip), value >= 0 else {
                throw APIError.badRequest("skip must be a whole number, 0 or more.")
            }
            query.skip = value
        }
        if let order = parameters["order"] {
            guard let value = StudentLocationOrder(rawValue: order) else {
                throw APIError.badRequest("order must be updatedAt (oldest first) or -updatedAt (newest first).")
            }
            query.order = value
        }
        if let uniqueKey = parameters["uniqueKey"] {
            if let problem = InputText.problem(uniqueKey, maximum: maximumKeyLength) {
                throw APIError.badRequest(problem.message("uniqueKey"))
            }
            query.uniqueKey = uniqueKey
        }
        return query
    }
}
