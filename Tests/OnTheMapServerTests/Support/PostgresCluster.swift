import Foundation
import Synchronization
import XCTest

/// A throw-away PostgreSQL cluster for the test process: initdb into a temporary folder, started on a free
/// loopback port on first use, stopped (and its folder removed) when the process exits. As root (CI), the
/// server runs as `nobody`, since PostgreSQL refuses to run as root.
final class PostgresCluster: Sendable {
    let port: Int
    let folder: URL
    private let binaries: URL

    private static let shared = Mutex<Result<PostgresCluster, any Error>?>(nil)

    /// The running cluster; skips the test when PostgreSQL is not installed, unless `CI` is set (then fails).
    static func start() throws -> PostgresCluster {
        try shared.withLock { shared in
            if shared == nil {
                shared = Result { try PostgresCluster() }
                atexit { PostgresCluster.stopShared() }
            }
            return try shared!.get()
        }
    }

    /// A new empty database, so that each test starts from nothing.
    func createDatabase() throws -> String {
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try Self.run(binaries.appendingPathComponent("psql"),
                     ["-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "postgres", "-v", "ON_ERROR_STOP=1",
                      "-q", "-c", "CREATE DATABASE \(name)"], asServerUser: false)
        return String(name)
    }

    func url(database: String) -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    private init() throws {
        guard let binaries = Self.findBinaries() else {
            let message = "PostgreSQL's server binaries are not installed (apt-get install postgresql); "
                + "the PostgreSQL half of the server tests needs them."
            if ProcessInfo.processInfo.environment["CI"] != nil { throw ClusterError(message) }
            throw XCTSkip(message)
        }
        self.binaries = binaries
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("otm-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        port = try Self.freeLoopbackPort()
        if getuid() == 0 {
            try Self.run(URL(fileURLWithPath: "/bin/chown"), ["-R", "nobody:nogroup", folder.path], asServerUser: false)
        }
        let data = folder.appendingPathComponent("data").path
        try Self.run(binaries.appendingPathComponent("initdb"),
                     ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"],
                     asServerUser: true)
        let options = "-c listen_addresses=127.0.0.1 -p \(port) -k \(folder.path) -c fsync=off "
            + "-c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        try Self.run(binaries.appendingPathComponent("pg_ctl"),
                     ["-D", data, "-l", folder.appendingPathComponent("server.log").path, "-o", options, "-w", "-t", "60",
                      "start"], asServerUser: true)
    }

    private static func stopShared() {
        guard let cluster = try? shared.withLock({ $0 })?.get() else { return }
        try? run(cluster.binaries.appendingPathComponent("pg_ctl"),
                 ["-D", cluster.folder.appendingPathComponent("data").path, "-m", "immediate", "-w", "stop"],
                 asServerUser: true)
        try? FileManager.default.removeItem(at: cluster.folder)
    }

    private static func findBinaries() -> URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed()
            .map { root.appendingPathComponent("\($0)/bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }

    /// Runs a PostgreSQL tool, as `nobody` when we are root and it is the server's own; throws with its output.
    /// posix_spawn and waitpid, not Foundation's Process: Process learns of an exit through a descriptor the
    /// child holds, and the server that `pg_ctl start` leaves running would hold it for ever.
    private static func run(_ tool: URL, _ arguments: [String], asServerUser: Bool) throws {
        let command = asServerUser && getuid() == 0
            ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--", tool.path] + arguments
            : [tool.path] + arguments
        let outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("otm-pg-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputFile.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // The server must not inherit the tests' sockets (a listening port would stay bound while it runs).
        let openDescriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in openDescriptors.compactMap(Int32.init) where descriptor > 2 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
        var argv = command.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, &argv, environ)
        guard spawned == 0 else { throw ClusterError("Could not start \(command[0]): error \(spawned).") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        let exited = (status & 0x7f) == 0, exitCode = (status >> 8) & 0xff
        guard exited && exitCode == 0 else {
            let text = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
            throw ClusterError("\(tool.lastPathComponent) \(arguments.joined(separator: " ")) failed "
                               + "(status \(status)): \(text)")
        }
    }

    static func freeLoopbackPort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(socketFD, socketAddress, length) == 0 && getsockname(socketFD, socketAddress, &length) == 0
            }
        }
        guard bound else { throw ClusterError("Could not find a free port on 127.0.0.1.") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct ClusterError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
