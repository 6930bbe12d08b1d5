import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking // the test server's control requests
#endif
import XCTest

/// A test case with its own `nominatim_server.py`, started before each test and stopped after it.
class NominatimServerTestCase: XCTestCase {
    var server: NominatimTestServer!

    override func setUpWithError() throws {
        server = try NominatimTestServer()
    }

    override func tearDown() {
        server?.stop()
    }
}

/// `Server/nominatim_server.py` run as a real process on a free port of 127.0.0.1.
final class NominatimTestServer: @unchecked Sendable {
    let port: Int
    private let process: Process
    private let input: Pipe
    private let control: URLSession

    init(placesFile: URL? = nil) throws {
        guard let folder = Bundle.module.url(forResource: "Server", withExtension: nil) else {
            throw XCTSkip("Server resources missing from the test bundle")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", folder.appendingPathComponent("nominatim_server.py").path,
                             "--port", "0", "--host", "127.0.0.1", "--exit-on-stdin-eof"]
            + (placesFile.map { ["--places", $0.path] } ?? [])
        let output = Pipe()
        input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()

        var line = Data()
        while !line.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }  // EOF: the server died before printing its port
            line.append(chunk)
        }
        guard let text = String(data: line, encoding: .utf8)?.split(separator: "\n").first,
              let port = Int(text.trimmingCharacters(in: .whitespaces)) else {
            process.terminate()
            throw NSError(domain: "NominatimTestServer", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: "nominatim_server.py did not print its port"])
        }
        self.port = port
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        control = URLSession(configuration: configuration)
    }

    /// Ends the server; polls rather than `waitUntilExit()`, which needs a run loop.
    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        let deadline = Date().addingTimeInterval(3)
        while process.isRunning && Date() < deadline { usleep(2_000) }
        control.invalidateAndCancel()
    }

    var endpoint: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// `/__fail?…`, `/__ok`, `/__reset` (see the script's header).
    func send(_ control: String) async throws {
        let (_, response) = try await self.control.data(from: URL(string: control, relativeTo: endpoint)!)
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200, control)
    }

    func requests() async throws -> [RecordedRequest] {
        let (data, _) = try await control.data(from: endpoint.appendingPathComponent("__requests"))
        return try JSONDecoder().decode([RecordedRequest].self, from: data)
    }

    struct RecordedRequest: Decodable {
        var time: Double
        var path: String
        var q: String?
        var query: [String: String]
        var user_agent: String?
        var accept_language: String?
        var status: Int?
    }
}

/// A port of 127.0.0.1 that nothing listens on: bound to find a free one, then closed.
func refusedLocalPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let found = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard found else { throw POSIXError(.EADDRINUSE) }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// A short time-out, so unreachable-server tests stay quick.
let quickTimeout: TimeInterval = 2

let testUserAgent = "OnTheMapTests/0.1 (+https://github.com/virtualtourist)"
