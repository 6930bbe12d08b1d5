import Foundation
import Hummingbird
import OnTheMapAPI

extension Request {
    /// Decodes a JSON body, refusing other content types, bodies over `limit` and JSON of the wrong shape with
    /// a 400 (413 for size) that names what is wrong.
    func decodeJSON<Body: Decodable>(_ type: Body.Type, limit: Int) async throws -> Body {
        let contentType = headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/json") else {
            throw APIError.badRequest("Send the body as JSON, with the header Content-Type: application/json.")
        }
        let buffer = try await body.collect(upTo: limit)
        do {
            return try JSONDecoder.onTheMap().decode(Body.self, from: Data(buffer: buffer))
        } catch let error as DecodingError {
            throw APIError.badRequest(Self.explain(error))
        }
    }

    private static func explain(_ error: DecodingError) -> String {
        func field(_ path: [any CodingKey], _ key: (any CodingKey)? = nil) -> String {
            ((path + (key.map { [$0] } ?? [])).map(\.stringValue)).joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "The field \(field(context.codingPath, key)) is missing."
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return context.codingPath.isEmpty ? "The body must be a JSON object."
                : "The field \(field(context.codingPath)) has the wrong type."
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "The body is not valid JSON."
                : "The field \(field(context.codingPath)) is not valid."
        @unknown default:
            return "The body is not valid JSON."
        }
    }
}
