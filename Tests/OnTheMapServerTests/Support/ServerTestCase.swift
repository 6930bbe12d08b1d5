import Foundation
import OnTheMapAPI
import OnTheMapServer
import XCTest

/// Each test gets a fresh database and a real server on 127.0.0.1. A suite runs against SQLite; its
/// `…PostgresTests` subclass runs the same tests against the throw-away PostgreSQL cluster.
class ServerTestCase: XCTestCase {
    class var storage: TestStorage { .sqlite }

    var clock = TestClock()
    /// The database as `--database` takes it.
    var databaseArgument = ""
    var database: DatabaseLocation!
    var server: TestServer!
    var client: APIClient!

    override func setUp() async throws {
        clock = TestClock()
        databaseArgument = try Self.storage.freshDatabase()
        database = try DatabaseLocation(parsing: databaseArgument)
        try await restart()
    }

    override func tearDown() async throws {
        await server?.stop()
        server = nil
        removeIfSQLite(database)
    }

    /// Removes an SQLite database's folder (made for it by `freshDatabase()`); PostgreSQL's go with the cluster.
    func removeIfSQLite(_ location: DatabaseLocation?) {
        if case .sqlite(let path) = location {
            try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
        }
    }

    /// (Re)starts the server on the same database with a changed configuration.
    func restart(configure: (inout ServerConfiguration) -> Void = { _ in }) async throws {
        await server?.stop()
        server = try await TestServer.start(database: database, clock: clock, configure: configure)
        client = APIClient(baseURL: server.baseURL)
    }

    /// An account and a logged-in session (by `X-Session-Id`) for it.
    func loggedInStudent(_ email: String = "ada@example.org") async throws -> (key: String, sessionId: String) {
        try await server.addAccount(email: email)
        let session = try await client.session(email)
        return (session.key, session.id)
    }

    func assertError(_ response: TestResponse, _ status: Int, prefixed: Bool = false, containing text: String? = nil,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(response.status, status, response.text, file: file, line: line)
        XCTAssertEqual(response.isPrefixed, prefixed, "prefix: \(response.text)", file: file, line: line)
        let body = try response.decode(ErrorBody.self, file: file, line: line)
        XCTAssertEqual(body.status, status, file: file, line: line)
        if let text {
            XCTAssertTrue(body.error.contains(text), "“\(body.error)” should mention “\(text)”", file: file, line: line)
        }
    }
}
