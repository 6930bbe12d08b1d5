import Foundation
import OnTheMapAPI
import OnTheMapServer
import XCTest

/// The database going away and coming back: PostgreSQL behind a relay the test takes down, and SQLite files the
/// server cannot open. Requests fail fast with a 503 the client can read, the server recovers by itself, and a
/// server that cannot reach its database at start says so and still obeys SIGTERM.
final class DatabaseOutageTests: XCTestCase {
    private var relay: TCPRelay!
    private var server: TestServer!
    private var client: APIClient!
    private let clock = TestClock()

    /// A fresh PostgreSQL database reached through a relay on its own port.
    private func databaseThroughRelay() throws -> String {
        let cluster = try PostgresCluster.start()
        relay = try TCPRelay(to: cluster.port)
        return cluster.url(database: try cluster.createDatabase())
            .replacingOccurrences(of: ":\(cluster.port)/", with: ":\(relay.port)/")
    }

    override func tearDown() async throws {
        await server?.stop()
        relay = nil
    }

    func testRequestsFailWithin5SecondsWhilePostgreSQLIsGoneAndSucceedWhenItReturns() async throws {
        let database = try DatabaseLocation(parsing: try databaseThroughRelay())
        server = try await TestServer.start(database: database, clock: clock)
        client = APIClient(baseURL: server.baseURL)
        try await server.addAccount(email: "ada@example.org")
        let session = try await client.session("ada@example.org")
        let first = try await client.post(.sample(key: session.key), sessionId: session.id)
        XCTAssertEqual(first.status, 200, first.text)

        try relay.down()
        try await Task.sleep(for: .milliseconds(600)) // past the list's revision age, so a read asks the database
        for (name, request) in [("list", { try await self.client.send("GET", "/v1/StudentLocation?limit=3") }),
                                ("post", { try await self.client.post(.sample(key: session.key), sessionId: session.id) }),
                                ("login", { try await self.client.login("ada@example.org", "correct horse") })] {
            let started = ContinuousClock.now
            let response = try await request()
            let waited = ContinuousClock.now - started
            XCTAssertEqual(response.status, 503, "\(name): \(response.text)")
            XCTAssertLessThanOrEqual(waited, .seconds(6), "\(name) waited \(waited)")
            let body = try response.decode(ErrorBody.self)
            XCTAssertEqual(body.status, 503)
            XCTAssertTrue(body.error.contains("database"), body.error)
            XCTAssertNotNil(response.header("Retry-After"))
        }

        try relay.up()
        var recovered: TestResponse?
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            let posted = try await client.post(.sample(key: session.key, mapString: "Back"), sessionId: session.id)
            if posted.status == 200 { recovered = posted; break }
            try await Task.sleep(for: .milliseconds(200))
        }
        XCTAssertNotNil(recovered, "the server did not recover within 20 s of the database's return")
        let places = try await client.list().map(\.mapString)
        XCTAssertTrue(places.contains("Back"), "\(places)")
    }

    func testAServerThatCannotReachPostgreSQLAtStartSaysSoAndStopsOnSIGTERM() async throws {
        let database = try databaseThroughRelay()
        try relay.down()
        let run = try ServerProcess.start(["serve", "--database", database, "--port", "0"])
        defer { run.stop() }
        let waiting = try await run.waitForLog(containing: "The database does not answer", within: .seconds(15))
        XCTAssertTrue(waiting, run.log())
        XCTAssertTrue(run.log().contains("warning"), run.log())
        XCTAssertFalse(run.log().contains("Listening on"), run.log())
        let started = ContinuousClock.now
        kill(run.process.processIdentifier, SIGTERM)
        let stopped = try await run.waitForExit(within: .seconds(5))
        XCTAssertTrue(stopped, "SIGTERM did not stop a server waiting for its database")
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(5))
        XCTAssertTrue(run.log().contains("Error: The database is not answering"), run.log())
        XCTAssertTrue(run.log().contains("Stopped while waiting for the database"), run.log())
    }

    func testAMissingSQLiteFolderNamesThePathAndWhatToDo() async throws {
        let path = "/nonexistent-\(UUID().uuidString)/class.sqlite"
        let run = try ServerProcess.start(["serve", "--database", path, "--port", "0"])
        defer { run.stop() }
        let exited = try await run.waitForExit(within: .seconds(10))
        XCTAssertTrue(exited)
        XCTAssertNotEqual(run.process.terminationStatus, 0)
        XCTAssertTrue(run.log().contains(path), run.log())
        XCTAssertTrue(run.log().contains("mkdir -p"), run.log())
        XCTAssertFalse(run.log().contains("SQLite error 14"), run.log())
    }
}

/// The `on-the-map-server` executable run with its standard error in a file the test reads.
struct ServerProcess {
    let process: Process
    let logFile: URL

    static func start(_ arguments: [String]) throws -> ServerProcess {
        let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("otm-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("on-the-map-server")
        process.arguments = arguments
        process.standardError = try FileHandle(forWritingTo: logFile)
        process.standardOutput = process.standardError
        try process.run()
        return ServerProcess(process: process, logFile: logFile)
    }

    func log() -> String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    func waitForLog(containing text: String, within limit: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if log().contains(text) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    func waitForExit(within limit: Duration) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        return !process.isRunning
    }

    func stop() {
        if process.isRunning { process.terminate(); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: logFile)
    }
}
