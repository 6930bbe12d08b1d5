import Foundation
import Logging
import OnTheMapAPI
import OnTheMapServer
import StudentLocations
import Synchronization
import ServerTestSupport
import XCTest

/// The real On the Map server (`buildApplication`) on 127.0.0.1 and a free port, with SQLite in a temporary
/// folder, run as a service group until `stop()`.
final class LiveServer: Sendable {
    let port: Int
    private let database: DatabaseLocation
    private let folder: URL
    private let task: Task<Void, any Error>

    static let logger: Logger = {
        var logger = Logger(label: "student-locations-tests")
        logger.logLevel = ProcessInfo.processInfo.environment["STUDENT_LOCATIONS_TEST_LOG"]
            .flatMap(Logger.Level.init(rawValue:)) ?? .critical
        return logger
    }()

    static func start() async throws -> LiveServer {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = DatabaseLocation.sqlite(path: folder.appendingPathComponent("on-the-map.sqlite").path)
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.database = database
        configuration.passwordHashCost = 4
        // Each reading is a second later, so locations written in a row have distinct, ordered times.
        let clock = TickingClock()
        configuration.now = { clock.tick() }
        let (port, task) = try await runServer(configuration: configuration, logger: logger)
        return LiveServer(port: port, database: database, folder: folder, task: task)
    }

    private init(port: Int, database: DatabaseLocation, folder: URL, task: Task<Void, any Error>) {
        self.port = port
        self.database = database
        self.folder = folder
        self.task = task
    }

    /// The address as a person would type it on the login page, resolved as the app does.
    var apiURL: URL { try! ServerAddress.resolve("http://127.0.0.1:\(port)") }

    func stop(file: StaticString = #filePath, line: UInt = #line) async {
        task.cancel()
        if !(await ends(task, within: .seconds(60))) {
            XCTFail("The server did not stop within 60 s of being cancelled.", file: file, line: line)
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Creates an account straight in the store, as `on-the-map-server user add` would; returns its key.
    @discardableResult
    func addStudent(email: String, password: String = "correct horse", firstName: String = "Ada",
                    lastName: String = "Lovelace") async throws -> String {
        try await withMigratedStore(database, logger: Self.logger) { store in
            try await AccountRegistry(store: store, hashCost: 4).create(
                NewAccount(email: email, password: password, firstName: firstName, lastName: lastName)).key
        }
    }
}

/// A clock that moves one second on every reading.
final class TickingClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))

    func tick() -> Date {
        current.withLock { date in
            date = date.addingTimeInterval(1)
            return date
        }
    }
}

struct LiveServerError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A client of `url` that logs nothing unless STUDENT_LOCATIONS_TEST_LOG asks.
func makeClient(_ url: URL) -> OnTheMapClient {
    OnTheMapClient(baseURL: url, logger: LiveServer.logger)
}

/// A posting for `session`'s student with sensible defaults.
func posting(for session: UserSession, mapString: String = "London, UK", mediaURL: String = "https://example.org",
             latitude: Double = 51.5, longitude: Double = -0.12) -> StudentLocationPosting {
    session.posting(mapString: mapString, mediaURL: mediaURL, latitude: latitude, longitude: longitude)
}

/// Every line a logger wrote, message and metadata, for checking what never reaches a log.
final class CapturedLog: Sendable {
    private let lines = Mutex<[String]>([])

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    func logger() -> Logger {
        var logger = Logger(label: "captured") { _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    private struct Handler: LogHandler {
        let log: CapturedLog
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            let all = self.metadata.merging(metadata ?? [:]) { $1 }
            log.lines.withLock { $0.append("\(level) \(message) \(all)") }
        }
    }
}
