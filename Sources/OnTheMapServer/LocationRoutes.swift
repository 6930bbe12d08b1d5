import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore
import NIOFoundationCompat
import OnTheMapAPI

/// `/v1/StudentLocation`: list (anyone), create and update (a session for its own account's `uniqueKey`,
/// or anyone with `allowAnonymousWrites`).
struct LocationRoutes: Sendable {
    let store: any StudentStore
    let sessions: SessionAuthority
    let lists: LocationLists
    let allowAnonymousWrites: Bool
    let maximumBodySize: Int

    func add(to router: Router<OnTheMapRequestContext>) {
        router.get("v1/StudentLocation") { request, _ in try await list(request) }
        router.post("v1/StudentLocation") { request, _ in try await create(request) }
        router.put("v1/StudentLocation/:objectId") { request, context in
            try await update(request, objectId: context.parameters.require("objectId"))
        }
    }

    private func list(_ request: Request) async throws -> Response {
        let query = try Self.listQuery(request.uri)
        return APIResponse.buffer(try await lists.body(for: query))
    }

    /// The list's query as this route and `CachedListHandler` both read it; invalid ones throw a 400.
    static func listQuery(_ uri: URI) throws -> LocationQuery {
        var parameters: [String: String] = [:]
        for (name, value) in uri.queryParameters { parameters[String(name)] = String(value) }
        return try LocationValidation.query(parameters)
    }

    private func create(_ request: Request) async throws -> Response {
        let owner = try await writer(of: request)
        let posting = try await request.decodeJSON(StudentLocationPosting.self, limit: maximumBodySize)
        try LocationValidation.validate(posting)
        try requireOwnership(owner, of: posting.uniqueKey)
        let now = StoredTime.rounded(sessions.now())
        let location = StudentLocation(objectId: RandomToken.objectId(), posting: posting, createdAt: now, updatedAt: now)
        try await store.insertLocation(location)
        await lists.didWrite()
        return try APIResponse.json(StudentLocationCreated(createdAt: now, objectId: location.objectId))
    }

    private func update(_ request: Request, objectId: String) async throws -> Response {
        let owner = try await writer(of: request)
        let posting = try await request.decodeJSON(StudentLocationPosting.self, limit: maximumBodySize)
        try LocationValidation.validate(posting)
        guard InputText.problem(objectId, maximum: LocationValidation.maximumKeyLength) == nil,
              let existing = try await store.location(objectId: objectId) else {
            throw APIError(status: .notFound, message: "No student location has the objectId \(objectId).")
        }
        try requireOwnership(owner, of: existing.uniqueKey)
        try requireOwnership(owner, of: posting.uniqueKey)
        let now = StoredTime.rounded(sessions.now())
        guard try await store.updateLocation(objectId: objectId, with: posting, at: now) else {
            throw APIError(status: .notFound, message: "No student location has the objectId \(objectId).")
        }
        await lists.didWrite()
        return try APIResponse.json(StudentLocationUpdated(updatedAt: now))
    }

    /// The account key the request writes as; nil when anonymous writes are allowed (no check at all).
    private func writer(of request: Request) async throws -> String? {
        guard !allowAnonymousWrites else { return nil }
        return try await sessions.authenticate(request, xsrf: .checkedIfSent).stored.accountKey
    }

    private func requireOwnership(_ owner: String?, of uniqueKey: String) throws {
        guard let owner, owner != uniqueKey else { return }
        throw APIError(status: .forbidden, message: "This session may only post or change locations whose "
                       + "uniqueKey is its own account key (\(owner)).")
    }
}
