import Foundation

/// tinyproxy, a real HTTP proxy (plain requests and `CONNECT`), on 127.0.0.1 for the length of a test.
/// Its log records every request it forwards.
public final class TestProxy: @unchecked Sendable {
    public let port: Int
    private let process: Process
    private let folder: URL

    public init() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tinyproxy") else {
            throw NSError(domain: "TestProxy", code: 2,
                          userInfo: [NSLocalizedDescriptionKey: "tinyproxy is not installed: run .ci/setup"])
        }
        folder = try makeTemporaryFolder()
        port = try closedLocalPort()
        let configuration = folder.appendingPathComponent("tinyproxy.conf")
        try """
        Port \(port)
        Listen 127.0.0.1
        Timeout 30
        LogFile "\(folder.appendingPathComponent("tinyproxy.log").path)"
        LogLevel Connect
        MaxClients 100
        Allow 127.0.0.1
        """.write(to: configuration, atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tinyproxy")
        process.arguments = ["-d", "-c", configuration.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitUntilListening()
    }

    private func waitUntilListening() throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            guard process.isRunning else { break }
            if canConnect() { return }
            usleep(20_000)
        }
        stop()
        throw NSError(domain: "TestProxy", code: 1, userInfo: [NSLocalizedDescriptionKey: "tinyproxy did not start"])
    }

    private func canConnect() -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// `http://127.0.0.1:<port>`, as `http_proxy` spells it.
    public var address: String { "http://127.0.0.1:\(port)" }

    /// The requests it forwarded: "GET http://127.0.0.1:…/images/a.jpg HTTP/1.1", "CONNECT host:443 HTTP/1.1".
    public func forwardedRequests() -> [String] {
        let log = (try? String(contentsOf: folder.appendingPathComponent("tinyproxy.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "]: Request (file descriptor ") else { return nil }
            return line[range.upperBound...].split(separator: ":", maxSplits: 1).last
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    public func stop() {
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        try? FileManager.default.removeItem(at: folder)
    }
}
