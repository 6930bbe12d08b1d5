import FlickrTestSupport
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

/// `nominatim_server.py` (FlickrTestSupport's `Server/`) run as a real process on a free port of 127.0.0.1.
final class NominatimTestServer: @unchecked Sendable {
    private let server: PythonTestServer
    var port: Int { server.port }
    private var control: URLSession { server.control }

    init(placesFile: URL? = nil) throws {
        server = try PythonTestServer(script: "nominatim_server.py",
                                      arguments: ["--host", "127.0.0.1"] + (placesFile.map { ["--places", $0.path] } ?? []))
    }

    func stop() {
        server.stop()
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

/// A short time-out, so unreachable-server tests stay quick.
let quickTimeout: TimeInterval = 2

let testUserAgent = "OnTheMapTests/0.1 (+https://github.com/virtualtourist)"
