import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOHTTP1
import OnTheMapAPI

/// An error a client is meant to read: its HTTP status and a sentence saying what to do.
struct APIError: Error, CustomStringConvertible {
    var status: HTTPResponse.Status
    var message: String
    /// Extra headers, such as `Retry-After` on 429.
    var headers: HTTPFields = [:]

    var description: String { "\(status.code) \(message)" }

    static func badRequest(_ message: String) -> APIError { APIError(status: .badRequest, message: message) }
    static let invalidCredentials = APIError(status: .forbidden, message: "Account not found or invalid credentials.")
    static let noSession = APIError(
        status: .unauthorized, message: "Log in first: send the session cookie or the X-Session-Id header.")
    static let expiredSession = APIError(status: .unauthorized, message: "The session has expired or ended; log in again.")
}

/// Encodes API responses: JSON bodies, and the anti-hijacking prefix where Udacity's API put it.
enum APIResponse {
    static func json<Body: Encodable>(_ body: Body, status: HTTPResponse.Status = .ok, prefixed: Bool = false,
                                      headers: HTTPFields = [:]) throws -> Response {
        try data(JSONEncoder.onTheMap().encode(body), status: status, prefixed: prefixed, headers: headers)
    }

    static func data(_ json: Data, status: HTTPResponse.Status = .ok, prefixed: Bool = false,
                     headers: HTTPFields = [:]) -> Response {
        var buffer = ByteBuffer()
        buffer.reserveCapacity(json.count + 5)
        if prefixed { buffer.writeString(OnTheMapHTTP.antiHijackingPrefix) }
        buffer.writeBytes(json)
        return self.buffer(buffer, status: status, headers: headers)
    }

    /// A JSON body already encoded (and prefixed, if it should be).
    static func buffer(_ json: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: json))
    }

    static func error(_ error: APIError, prefixed: Bool) -> Response {
        let body = ErrorBody(status: error.status.code, error: error.message)
        let json = (try? JSONEncoder.onTheMap().encode(body)) ?? Data("{}".utf8)
        return data(json, status: error.status, prefixed: prefixed, headers: error.headers)
    }
}

/// Turns every error below it into the API's `{status, error}` body (prefixed where the routes are), so no
/// client ever sees Hummingbird's own error shape; unexpected errors are logged and become a plain 500.
struct ErrorBodyMiddleware<Context: RequestContext>: RouterMiddleware {
    var prefixed: Bool

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return APIResponse.error(error, prefixed: prefixed)
        } catch StoreError.unavailable {
            context.logger.warning("Database unavailable", metadata: ["path": "\(request.uri.path)"])
            return APIResponse.error(APIError(status: .serviceUnavailable, message: StoreError.unavailable.description,
                                              headers: [.retryAfter: "1"]), prefixed: prefixed)
        } catch is HTTPParserError {
            // A body the HTTP parser could not read (a broken chunked encoding): the client's error, not ours.
            return APIResponse.error(.badRequest("The request's body is not valid HTTP (its chunked encoding is broken)."),
                                     prefixed: prefixed)
        } catch let error as any HTTPResponseError {
            return APIResponse.error(APIError(status: error.status, message: Self.message(for: error.status)),
                                     prefixed: prefixed)
        } catch {
            context.logger.error("Request failed", metadata: ["error": "\(String(reflecting: error))",
                                                              "path": "\(request.uri.path)"])
            return APIResponse.error(APIError(status: .internalServerError,
                                              message: "The server failed to answer; it has logged why. Try again."),
                                     prefixed: prefixed)
        }
    }

    private static func message(for status: HTTPResponse.Status) -> String {
        switch status {
        case .notFound: "No such route. The API lives under /v1/session, /v1/users/{key} and /v1/StudentLocation."
        case .methodNotAllowed: "This route does not accept that method."
        case .contentTooLarge: "The request body is too large."
        default: status.reasonPhrase
        }
    }
}
