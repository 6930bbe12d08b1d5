import Foundation
import OnTheMapAPI
import OnTheMapServer
import XCTest

/// Connections the server must not keep: idle keep-alive sockets, on the list fast path and through the router.
class ConnectionLimitTests: ServerTestCase {
    func testIdleKeepAliveConnectionsAreClosedOnEveryPath() async throws {
        try await restart { $0.idleTimeout = 1 }
        let listing = try RawHTTPConnection(port: server.port)
        XCTAssertEqual(try listing.exchange("/v1/StudentLocation").status, 200) // the fast path
        let routed = try RawHTTPConnection(port: server.port)
        XCTAssertEqual(try routed.exchange("/v1/users/nobody").status, 404) // the router
        let silent = try RawHTTPConnection(port: server.port) // never sends a byte
        for (name, connection) in [("listing", listing), ("routed", routed), ("silent", silent)] {
            XCTAssertTrue(connection.closesWithin(seconds: 5), "the \(name) connection stayed open")
        }
    }

    func testAConnectionInUseIsNotClosed() async throws {
        try await restart { $0.idleTimeout = 1 }
        let connection = try RawHTTPConnection(port: server.port)
        for _ in 0..<6 { // 1.5 s of use, a request every quarter second
            XCTAssertEqual(try connection.exchange("/v1/StudentLocation").status, 200)
            try await Task.sleep(for: .milliseconds(250))
        }
    }
}

final class ConnectionLimitPostgresTests: ConnectionLimitTests {
    override class var storage: TestStorage { .postgres }
    // Linux test discovery lists only methods declared in the class itself, so each is named again here.
    override func testIdleKeepAliveConnectionsAreClosedOnEveryPath() async throws { try await super.testIdleKeepAliveConnectionsAreClosedOnEveryPath() }
    override func testAConnectionInUseIsNotClosed() async throws { try await super.testAConnectionInUseIsNotClosed() }
}
