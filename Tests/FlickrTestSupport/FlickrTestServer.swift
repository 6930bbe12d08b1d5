import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// The real JPEG the Flickr-compatible server hands out for every photo.
public func sampleJPEG() throws -> Data {
    guard let folder = Bundle.module.url(forResource: "Server", withExtension: nil) else {
        throw XCTSkip("Server resources missing from the test bundle")
    }
    return try Data(contentsOf: folder.appendingPathComponent("tiny.jpg"))
}

/// The Flickr-compatible server in `Server/flickr_server.py`, run as a real process on a free port.
public final class FlickrTestServer: @unchecked Sendable {
    public let host: String
    private let server: PythonTestServer
    public var port: Int { server.port }
    private var control: URLSession { server.control }

    /// Starts the server and waits for the port it prints. It listens on `listenHost` (an address or a
    /// name resolved by the server); `host` is how URLs spell the server's address.
    public init(listenHost: String = "127.0.0.1", host: String = "127.0.0.1") throws {
        server = try PythonTestServer(script: "flickr_server.py", arguments: ["--host", listenHost])
        self.host = host
    }

    public func stop() {
        server.stop()
    }

    public var baseURL: URL { URL(string: "http://\(host):\(port)")! }
    public var restURL: URL { baseURL.appendingPathComponent("services/rest/") }

    public func imageURL(_ name: String) -> URL { baseURL.appendingPathComponent("images/\(name)") }

    /// POSTs `body` to `/__control` (see `apply_control` in the script).
    public func configure(_ body: [String: Any]) async throws {
        var request = URLRequest(url: baseURL.appendingPathComponent("__control"))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await control.data(for: request)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
    }

    /// Injects one fault; `times` nil means every matching request.
    public func inject(_ target: String, _ kind: String, times: Int? = nil, _ parameters: [String: Any] = [:]) async throws {
        var fault = parameters
        fault["target"] = target
        fault["kind"] = kind
        if let times { fault["times"] = times }
        try await configure(["faults": [fault]])
    }

    public func log() async throws -> ServerLog {
        let (data, _) = try await control.data(from: baseURL.appendingPathComponent("__log"))
        return try JSONDecoder().decode(ServerLog.self, from: data)
    }

    /// Polls `/__log` until `condition` holds (or fails the test after `timeout`).
    @discardableResult
    public func waitForLog(timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line,
                    until condition: @Sendable (ServerLog) -> Bool) async throws -> ServerLog {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let log = try await log()
            if condition(log) { return log }
            if Date() > deadline {
                XCTFail("server log never reached the expected state", file: file, line: line)
                return log
            }
            try await Task.sleep(nanoseconds: 10_000_000)
        }
    }
}

public struct ServerLog: Decodable {
    public struct Entry: Decodable {
        public var kind: String
        public var method: String
        public var path: String
        public var query: [String: String]
        public var user_agent: String?
        public var status: Int?
    }

    public var requests: [Entry]
    public var max_concurrent_images: Int
    public var active_images: Int

    public var searches: [Entry] { requests.filter { $0.kind == "search" } }
    public var images: [Entry] { requests.filter { $0.kind == "image" } }
}

/// A port nothing listens on: bound, read, closed.
public func closedLocalPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0 else { throw POSIXError(.EADDRINUSE) }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// This machine's host name.
public func machineHostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return "" }
    return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// Collects log lines (message and metadata) so tests can check what was logged.
public final class LogRecorder: @unchecked Sendable {
    public init() {}
    private let lock = NSLock()
    private var storage: [String] = []

    public var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    public func append(_ line: String) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }
}

import Logging

public struct RecordingLogHandler: LogHandler {
    public let recorder: LogRecorder
    public init(recorder: LogRecorder) { self.recorder = recorder }
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .trace

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        recorder.append("\(event.level) \(event.message) \(fields)")
    }
}

extension Logger {
    public static func recording(into recorder: LogRecorder) -> Logger {
        Logger(label: "test.flickr") { _ in RecordingLogHandler(recorder: recorder) }
    }
}

/// A deterministic random number generator (SplitMix64) for paging tests.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A fresh temporary folder, removed by `removeTemporaryFolder`.
public func makeTemporaryFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("flickr-client-tests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

public func filesIn(_ folder: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}
