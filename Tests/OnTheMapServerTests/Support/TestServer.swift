import Foundation
import Logging
import OnTheMapAPI
import OnTheMapServer
import Synchronization
import ServerTestSupport
import XCTest

/// Which real storage a test runs against.
enum TestStorage: String, Sendable {
    case sqlite, postgres

    /// A fresh, empty database of this kind, as `--database` takes it (a path or a postgres:// URL).
    func freshDatabase() throws -> String {
        switch self {
        case .sqlite:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("otm-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder.appendingPathComponent("on-the-map.sqlite").path
        case .postgres:
            let cluster = try PostgresCluster.start()
            return cluster.url(database: try cluster.createDatabase())
        }
    }
}

/// A clock the tests move by hand (session expiry, rate-limit windows).
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

/// The real server (`buildApplication`) on 127.0.0.1 and a free port, run as a service group until `stop()`.
final class TestServer: Sendable {
    let port: Int
    let database: DatabaseLocation
    private let task: Task<Void, any Error>

    static let logger: Logger = {
        var logger = Logger(label: "on-the-map-server-tests")
        logger.logLevel = ProcessInfo.processInfo.environment["ON_THE_MAP_SERVER_TEST_LOG"]
            .flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    /// Tests hash with bcrypt's minimum cost (4) and get a short, manual clock; `configure` changes the rest.
    static func start(database: DatabaseLocation, clock: TestClock = TestClock(),
                      configure: (inout ServerConfiguration) -> Void = { _ in }) async throws -> TestServer {
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.database = database
        configuration.passwordHashCost = 4
        configuration.now = { clock.now }
        configure(&configuration)
        let (port, task) = try await runServer(configuration: configuration, logger: logger)
        return TestServer(port: port, database: database, task: task)
    }

    private init(port: Int, database: DatabaseLocation, task: Task<Void, any Error>) {
        self.port = port
        self.database = database
        self.task = task
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    func stop(file: StaticString = #filePath, line: UInt = #line) async {
        task.cancel()
        if !(await ends(task, within: .seconds(60))) {
            XCTFail("The server did not stop within 60 s of being cancelled.", file: file, line: line)
        }
    }

    /// Creates an account straight in the store (cost 4), as `user add` would.
    @discardableResult
    func addAccount(email: String, password: String = "correct horse", firstName: String = "Ada",
                    lastName: String = "Lovelace", nickname: String? = nil) async throws -> Account {
        try await withMigratedStore(database, logger: Self.logger) { store in
            try await AccountRegistry(store: store, hashCost: 4).create(
                NewAccount(email: email, password: password, firstName: firstName, lastName: lastName,
                           nickname: nickname))
        }
    }

    /// Several accounts with the password "correct horse", through one store.
    func addAccounts(_ emails: [String]) async throws {
        try await withMigratedStore(database, logger: Self.logger) { store in
            let registry = AccountRegistry(store: store, hashCost: 4)
            for email in emails {
                try await registry.create(NewAccount(email: email, password: "correct horse", firstName: "Student",
                                                     lastName: email))
            }
        }
    }
}
