import Foundation
import OnTheMapAPI
import OnTheMapServer
import XCTest

/// The `on-the-map-server` executable: `user add|list|remove` and `serve`, run as a separate process.
class CommandLineTests: ServerTestCase {
    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// The built executable, beside the test bundle.
    private static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("on-the-map-server")
    }

    private func run(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errors = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self),
                   errors: String(decoding: errors, as: UTF8.self))
    }

    private func addUser(_ email: String, password: String) throws -> Run {
        try run(["user", "add", "--database", databaseArgument, "--email", email, "--first-name", "Katherine",
                 "--last-name", "Johnson", "--log-level", "error"], input: password + "\n")
    }

    func testUserAddReadsThePasswordFromStandardInput() async throws {
        let added = try addUser("katherine@example.org", password: "orbital mechanics")
        XCTAssertEqual(added.status, 0, added.errors)
        XCTAssertTrue(added.output.contains("Created katherine@example.org"), added.output)
        XCTAssertFalse(added.output.contains("orbital") || added.errors.contains("orbital"), "the password is not echoed")

        let session = try await client.session("katherine@example.org", "orbital mechanics")
        let user = try await client.send("GET", "/v1/users/\(session.key)")
        XCTAssertEqual(try user.decode(PublicUserData.self).firstName, "Katherine")
    }

    func testUserAddWithoutAPasswordOrWithADuplicateEmailFails() throws {
        let noPassword = try addUser("katherine@example.org", password: "")
        XCTAssertNotEqual(noPassword.status, 0)
        XCTAssertTrue(noPassword.errors.contains("No password given"), noPassword.errors)
        XCTAssertEqual(try addUser("katherine@example.org", password: "orbital mechanics").status, 0)
        let duplicate = try addUser("Katherine@example.org", password: "orbital mechanics")
        XCTAssertNotEqual(duplicate.status, 0)
        XCTAssertTrue(duplicate.errors.contains("already exists"), duplicate.errors)
    }

    func testServeRefusesOptionsThatWouldCrashItLaterWithAClearMessage() throws {
        for days in ["nan", "inf", "1e20", "0", "-3"] {
            let served = try run(["serve", "--database", databaseArgument, "--port", "0", "--session-days=\(days)"])
            XCTAssertNotEqual(served.status, 0, "--session-days \(days) started the server")
            XCTAssertTrue(served.errors.contains("--session-days must be"), served.errors)
        }
        let weak = try addUser("katherine@example.org", password: "password")
        XCTAssertNotEqual(weak.status, 0)
        XCTAssertTrue(weak.errors.contains("too common"), weak.errors)
    }

    func testUserListAndRemove() async throws {
        let ada = try await loggedInStudent("ada@example.org")
        let posted = try await client.post(.sample(key: ada.key), sessionId: ada.sessionId).status
        XCTAssertEqual(posted, 200)
        try await server.addAccount(email: "grace@example.org")

        let list = try run(["user", "list", "--database", databaseArgument, "--log-level", "error"])
        XCTAssertEqual(list.status, 0, list.errors)
        XCTAssertEqual(list.output.split(separator: "\n").map { $0.split(separator: "\t")[1] },
                       ["ada@example.org", "grace@example.org"])

        let removed = try run(["user", "remove", "--database", databaseArgument, "--email", "ada@example.org",
                               "--log-level", "error"])
        XCTAssertEqual(removed.status, 0, removed.errors)
        try assertError(try await client.login("ada@example.org", "correct horse"), 403, prefixed: true)
        try assertError(try await client.post(.sample(key: ada.key), sessionId: ada.sessionId), 401)
        let remaining = try await client.list().count
        XCTAssertEqual(remaining, 0, "the account's locations go with it")
        let again = try run(["user", "remove", "--database", databaseArgument, "--email", "ada@example.org"])
        XCTAssertNotEqual(again.status, 0)
        XCTAssertTrue(again.errors.contains("No account has the email"), again.errors)
    }

    func testServeTakesItsConfigurationFromTheEnvironmentLogsNoSecretsAndStopsCleanlyOnSIGTERM() async throws {
        XCTAssertEqual(try addUser("katherine@example.org", password: "orbital mechanics").status, 0)
        let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("otm-serve-\(UUID().uuidString).log")
        FileManager.default.createFile(atPath: logFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: logFile) }
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = []
        process.environment = ProcessInfo.processInfo.environment.merging([
            "ON_THE_MAP_SERVER_DATABASE": databaseArgument, "ON_THE_MAP_SERVER_HOST": "127.0.0.1",
            "ON_THE_MAP_SERVER_PORT": "0", "ON_THE_MAP_SERVER_LOG_LEVEL": "trace",
        ]) { $1 }
        process.standardError = try FileHandle(forWritingTo: logFile) // a file: trace logging could fill a pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        func log() -> String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

        var port: Int?
        let deadline = Date().addingTimeInterval(30)
        while port == nil, Date() < deadline, process.isRunning {
            if let match = log().range(of: #"Listening on http://127\.0\.0\.1:\d+"#, options: .regularExpression) {
                port = Int(log()[match].split(separator: ":").last!)
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let listening = try XCTUnwrap(port, "no 'Listening on' line: \(log())")
        let client = APIClient(baseURL: URL(string: "http://127.0.0.1:\(listening)")!)
        let session = try await client.session("katherine@example.org", "orbital mechanics")
        let xsrf = try XCTUnwrap(session.response.cookies[OnTheMapHTTP.xsrfCookie])
        let posted = try await client.post(.sample(key: session.key), sessionId: session.id)
        XCTAssertEqual(posted.status, 200, posted.text)
        let loggedOut = try await client.send("DELETE", "/v1/session", headers: ["X-Session-Id": session.id])
        XCTAssertEqual(loggedOut.status, 200, loggedOut.text)

        kill(process.processIdentifier, SIGTERM)
        let exited = Date().addingTimeInterval(15)
        while process.isRunning, Date() < exited { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertFalse(process.isRunning, "still running 15 s after SIGTERM")
        XCTAssertEqual(process.terminationStatus, 0)
        let written = log()
        XCTAssertTrue(written.contains("POST /v1/session"), "requests are logged: \(written.prefix(2000))")
        for secret in ["orbital mechanics", session.id, xsrf] {
            XCTAssertFalse(written.contains(secret), "a password, session id or token reached the log")
        }
    }
}

final class CommandLinePostgresTests: CommandLineTests {
    override class var storage: TestStorage { .postgres }
    // Linux test discovery lists only methods declared in the class itself, so each is named again here.
    override func testUserAddReadsThePasswordFromStandardInput() async throws { try await super.testUserAddReadsThePasswordFromStandardInput() }
    override func testUserAddWithoutAPasswordOrWithADuplicateEmailFails() throws { try super.testUserAddWithoutAPasswordOrWithADuplicateEmailFails() }
    override func testUserListAndRemove() async throws { try await super.testUserListAndRemove() }
    override func testServeTakesItsConfigurationFromTheEnvironmentLogsNoSecretsAndStopsCleanlyOnSIGTERM() async throws {
        try await super.testServeTakesItsConfigurationFromTheEnvironmentLogsNoSecretsAndStopsCleanlyOnSIGTERM()
    }
    override func testServeRefusesOptionsThatWouldCrashItLaterWithAClearMessage() throws { try super.testServeRefusesOptionsThatWouldCrashItLaterWithAClearMessage() }
}
