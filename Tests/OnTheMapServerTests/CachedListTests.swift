import Foundation
import OnTheMapAPI
import OnTheMapServer
import XCTest

/// Lists answered on the event loop (`CachedListHandler`) must be the router's answers: same status, headers and
/// bytes, the same 400s, writes visible to the next read, and responses in the order of pipelined requests.
/// A `Connection` header sends a request past the fast path to the router, which is how each pair is compared.
class CachedListTests: ServerTestCase {
    private static let toRouter = ["Connection: keep-alive"]

    override func setUp() async throws {
        try await super.setUp()
        try await restart { $0.allowAnonymousWrites = true }
        for index in 0..<12 {
            clock.advance(by: 1)
            let created = try await client.post(.sample(key: "student-\(index % 3)", mapString: "Place \(index)"),
                                                sessionId: nil)
            XCTAssertEqual(created.status, 200, created.text)
        }
    }

    func testListsAreTheRoutersAnswerByteForByte() throws {
        let connection = try RawHTTPConnection(port: server.port)
        let queries = ["", "?limit=100&order=-updatedAt", "?order=updatedAt", "?limit=3&skip=2", "?skip=20",
                       "?limit=0", "?limit=5000", "?uniqueKey=student-1", "?uniqueKey=student-1&limit=2&order=updatedAt",
                       "?uniqueKey=nobody", "?uniqueKey=a%20b", "?limit=2&limit=4", "?order=-updatedAt&unknown=1",
                       // refused by the route: the fast path must pass them on for its 400
                       "?limit=-1", "?limit=ten", "?skip=-5", "?skip=1.5", "?order=createdAt",
                       "?uniqueKey=" + String(repeating: "k", count: 300)]
        for query in queries {
            let path = "/v1/StudentLocation" + query
            let routed = try connection.exchange(path, headers: Self.toRouter)
            let first = try connection.exchange(path)
            let cached = try connection.exchange(path)
            for answer in [first, cached] {
                assertSameAnswer(answer, routed, path)
            }
        }
        for path in ["/v1/StudentLocation/", "/v1/studentlocation", "/v1/StudentLocationX", "/v1/StudentLocation/abc"] {
            assertSameAnswer(try connection.exchange(path), try connection.exchange(path, headers: Self.toRouter), path)
        }
        let refused = try connection.exchange("/v1/StudentLocation?limit=-1")
        XCTAssertEqual(refused.status, 400)
    }

    func testTheHeadersAreTheRoutes() throws {
        let connection = try RawHTTPConnection(port: server.port)
        _ = try connection.exchange("/v1/StudentLocation")
        let cached = try connection.exchange("/v1/StudentLocation")
        XCTAssertEqual(cached.headers.map(\.name), ["content-type", "cache-control", "content-length", "date", "server"])
        XCTAssertEqual(cached.header("content-type"), "application/json; charset=utf-8")
        XCTAssertEqual(cached.header("cache-control"), "no-store")
        XCTAssertEqual(cached.header("server"), "on-the-map-server")
        XCTAssertEqual(cached.header("content-length"), String(cached.body.count))
        let date = try XCTUnwrap(cached.header("date"))
        XCTAssertNotNil(date.range(of: #"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d\d (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d\d:\d\d:\d\d GMT$"#,
                                   options: .regularExpression), date)
    }

    func testAWriteIsInTheNextListOnTheSameConnection() throws {
        let connection = try RawHTTPConnection(port: server.port)
        for index in 0..<5 {
            let before = try connection.exchange("/v1/StudentLocation?limit=100&order=-updatedAt")
            XCTAssertEqual(try decode(before).count, 12 + index)
            clock.advance(by: 1)
            let body = try JSONEncoder.onTheMap().encode(StudentLocationPosting.sample(key: "writer",
                                                                                       mapString: "New \(index)"))
            let created = try connection.exchange("/v1/StudentLocation", method: "POST", body: body)
            XCTAssertEqual(created.status, 200, String(decoding: created.body, as: UTF8.self))
            let after = try decode(try connection.exchange("/v1/StudentLocation?limit=100&order=-updatedAt"))
            XCTAssertEqual(after.count, 13 + index)
            XCTAssertEqual(after.first?.mapString, "New \(index)", "the write is listed first at once")
        }
    }

    func testAnHTTP10ListRequestGetsTheSameList() throws {
        let path = "/v1/StudentLocation?limit=3"
        let expected = try RawHTTPConnection(port: server.port).exchange(path)
        let connection = try RawHTTPConnection(port: server.port)
        try connection.send(RawHTTPConnection.request(path, version: "HTTP/1.0"))
        let answer = try connection.readResponse()
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.body, expected.body)
        XCTAssertEqual(try decode(answer).count, 3)
    }

    func testPipelinedRequestsAreAnsweredInOrder() throws {
        let connection = try RawHTTPConnection(port: server.port)
        let list = "/v1/StudentLocation?limit=2"
        _ = try connection.exchange(list) // encoded
        let body = try JSONEncoder.onTheMap().encode(StudentLocationPosting.sample(key: "writer", mapString: "Piped"))
        clock.advance(by: 1)
        try connection.send(RawHTTPConnection.request(list) + RawHTTPConnection.request("/v1/Nothing")
                            + RawHTTPConnection.request(list) + RawHTTPConnection.request(list, headers: Self.toRouter)
                            + RawHTTPConnection.request("/v1/StudentLocation", method: "POST", body: body)
                            + RawHTTPConnection.request(list) + RawHTTPConnection.request("/v1/StudentLocation?limit=x"))
        let answers = try (0..<7).map { _ in try connection.readResponse() }
        XCTAssertEqual(answers.map(\.status), [200, 404, 200, 200, 200, 200, 400])
        XCTAssertEqual(try decode(answers[0]).map(\.mapString), ["Place 11", "Place 10"])
        XCTAssertEqual(answers[2].body, answers[0].body)
        XCTAssertEqual(answers[3].body, answers[0].body)
        XCTAssertEqual(try decode(answers[5]).map(\.mapString), ["Piped", "Place 11"], "after the write it was behind")
    }

    func testManyConnectionsReadWhileOthersWrite() async throws {
        let port = server.port
        // Blocking readers get threads of their own: the server shares this process's concurrency pool.
        let readers = (0..<8).map { _ in
            let done = XCTestExpectation(description: "reader")
            Thread.detachNewThread {
                defer { done.fulfill() }
                do {
                    let connection = try RawHTTPConnection(port: port)
                    var counts: [Int] = []
                    for _ in 0..<200 {
                        let response = try connection.exchange("/v1/StudentLocation?limit=1000")
                        XCTAssertEqual(response.status, 200)
                        counts.append(try JSONDecoder.onTheMap().decode(StudentLocationList.self,
                                                                        from: response.body).results.count)
                    }
                    XCTAssertEqual(counts, counts.sorted(), "a connection never sees a list shrink")
                } catch {
                    XCTFail("reader: \(error)")
                }
            }
            return done
        }
        for index in 0..<20 {
            let created = try await client.post(.sample(key: "writer", mapString: "W\(index)"), sessionId: nil)
            XCTAssertEqual(created.status, 200)
        }
        await fulfillment(of: readers, timeout: 60)
        let all = try await client.list("?limit=1000").count
        XCTAssertEqual(all, 32)
    }

    private func decode(_ response: RawHTTPConnection.Response) throws -> [StudentLocation] {
        XCTAssertEqual(response.status, 200, String(decoding: response.body, as: UTF8.self))
        return try JSONDecoder.onTheMap().decode(StudentLocationList.self, from: response.body).results
    }

    /// Equal but for `Date`, which Hummingbird refreshes once a second on its own timer.
    private func assertSameAnswer(_ answer: RawHTTPConnection.Response, _ routed: RawHTTPConnection.Response,
                                  _ path: String, file: StaticString = #filePath, line: UInt = #line) {
        var (answer, routed) = (answer, routed)
        for index in answer.headers.indices where answer.headers[index].name == "date" { answer.headers[index].value = "" }
        for index in routed.headers.indices where routed.headers[index].name == "date" { routed.headers[index].value = "" }
        XCTAssertEqual(answer, routed, "\(path): \(answer.status) \(answer.headers) vs \(routed.status) \(routed.headers)",
                       file: file, line: line)
    }
}

final class CachedListPostgresTests: CachedListTests {
    override class var storage: TestStorage { .postgres }
    // Linux test discovery lists only methods declared in the class itself, so each is named again here.
    override func testListsAreTheRoutersAnswerByteForByte() throws { try super.testListsAreTheRoutersAnswerByteForByte() }
    override func testTheHeadersAreTheRoutes() throws { try super.testTheHeadersAreTheRoutes() }
    override func testAWriteIsInTheNextListOnTheSameConnection() throws { try super.testAWriteIsInTheNextListOnTheSameConnection() }
    override func testPipelinedRequestsAreAnsweredInOrder() throws { try super.testPipelinedRequestsAreAnsweredInOrder() }
    override func testManyConnectionsReadWhileOthersWrite() async throws { try await super.testManyConnectionsReadWhileOthersWrite() }
}
