import Foundation
import OnTheMapAPI
import OnTheMapServer
import XCTest

/// `/v1/StudentLocation`: listing, ordering, paging, posting, updating, ownership and validation.
class StudentLocationRouteTests: ServerTestCase {
    func testPostedLocationIsListedWithEveryField() async throws {
        let student = try await loggedInStudent()
        let posting = StudentLocationPosting.sample(key: student.key)
        let created = try await client.post(posting, sessionId: student.sessionId)
        XCTAssertEqual(created.status, 200, created.text)
        XCTAssertFalse(created.isPrefixed, "StudentLocation answers are plain JSON")
        let answer = try created.decode(StudentLocationCreated.self)
        XCTAssertNotNil(answer.objectId.range(of: "^[A-Za-z0-9]{10}$", options: .regularExpression), answer.objectId)
        XCTAssertEqual(answer.createdAt, clock.now)

        let list = try await client.send("GET", "/v1/StudentLocation?limit=100&skip=0&order=-updatedAt")
        XCTAssertFalse(list.isPrefixed)
        for field in ["createdAt", "updatedAt"] {
            XCTAssertNotNil(list.text.range(of: #""\#(field)":"2027-01-15T08:00:00\.000Z""#, options: .regularExpression),
                            list.text)
        }
        let results = try list.decode(StudentLocationList.self).results
        XCTAssertEqual(results, [StudentLocation(objectId: answer.objectId, posting: posting, createdAt: clock.now,
                                                 updatedAt: clock.now)])
    }

    func testUpdateReplacesTheFieldsAndMovesTheLocationToTheFront() async throws {
        let student = try await loggedInStudent()
        var objectIds: [String] = []
        for index in 0..<3 {
            clock.advance(by: 1)
            let created = try await client.post(.sample(key: student.key, mapString: "Place \(index)"),
                                                sessionId: student.sessionId)
            objectIds.append(try created.decode(StudentLocationCreated.self).objectId)
        }
        clock.advance(by: 1.5)
        let moved = StudentLocationPosting.sample(key: student.key, latitude: -33.8688, longitude: 151.2093,
                                                  mediaURL: "http://example.org/sydney", mapString: "Sydney")
        let updated = try await client.put(objectIds[0], moved, sessionId: student.sessionId)
        XCTAssertEqual(updated.status, 200, updated.text)
        XCTAssertEqual(try updated.decode(StudentLocationUpdated.self).updatedAt, clock.now)

        let newestFirst = try await client.list("?order=-updatedAt")
        XCTAssertEqual(newestFirst.map(\.objectId), [objectIds[0], objectIds[2], objectIds[1]])
        XCTAssertEqual(newestFirst[0].posting, moved)
        XCTAssertLessThan(newestFirst[0].createdAt, newestFirst[0].updatedAt)
        let oldestFirst = try await client.list("?order=updatedAt")
        XCTAssertEqual(oldestFirst.map(\.objectId), [objectIds[1], objectIds[2], objectIds[0]])
        let byDefault = try await client.list()
        XCTAssertEqual(byDefault.map(\.objectId), newestFirst.map(\.objectId), "newest first by default")
    }

    func testLimitAndSkipPageThroughTheNewestFirst() async throws {
        try await restart { $0.allowAnonymousWrites = true }
        var objectIds: [String] = []
        for index in 0..<105 {
            clock.advance(by: 1)
            let created = try await client.post(.sample(key: "student-\(index % 7)"), sessionId: nil)
            objectIds.append(try created.decode(StudentLocationCreated.self).objectId)
        }
        let newest = Array(objectIds.reversed())
        let firstPage = try await client.list().map(\.objectId)
        XCTAssertEqual(firstPage, Array(newest.prefix(100)), "limit defaults to 100")
        let thirdPageOfTen = try await client.list("?limit=10&skip=20").map(\.objectId)
        XCTAssertEqual(thirdPageOfTen, Array(newest[20..<30]))
        let lastPage = try await client.list("?limit=10&skip=100").map(\.objectId)
        XCTAssertEqual(lastPage, Array(newest[100...]))
        let upToLimit = try await client.list("?limit=1000").count
        XCTAssertEqual(upToLimit, 105)
        let overLimit = try await client.list("?limit=5000").count
        XCTAssertEqual(overLimit, 105, "more than 1000 is capped, not refused")
        let none = try await client.list("?limit=0").count
        XCTAssertEqual(none, 0)
        let ofOne = try await client.list("?uniqueKey=student-3&limit=1000")
        XCTAssertEqual(ofOne.count, 15)
        XCTAssertTrue(ofOne.allSatisfy { $0.uniqueKey == "student-3" })
        let ofNobody = try await client.list("?uniqueKey=nobody").count
        XCTAssertEqual(ofNobody, 0)
    }

    func testBadListParametersAre400() async throws {
        for query in ["limit=-1", "limit=ten", "skip=-5", "skip=1.5", "order=createdAt", "order=-objectId"] {
            let response = try await client.send("GET", "/v1/StudentLocation?\(query)")
            try assertError(response, 400)
        }
    }

    func testWritesWithoutASessionAre401() async throws {
        let post = try await client.post(.sample(key: "123"), sessionId: nil)
        try assertError(post, 401, containing: "Log in first")
        let put = try await client.put("abcdefghij", .sample(key: "123"), sessionId: nil)
        try assertError(put, 401)
        let forged = try await client.post(.sample(key: "123"), sessionId: "not-a-session")
        try assertError(forged, 401)
    }

    func testTheSessionCookieAloneAuthenticatesAJSONWrite() async throws {
        try await server.addAccount(email: "ada@example.org")
        let (id, key, login) = try await client.session("ada@example.org")
        let xsrf = try XCTUnwrap(login.cookies[OnTheMapHTTP.xsrfCookie])
        let cookie = "\(OnTheMapHTTP.sessionCookie)=\(id); \(OnTheMapHTTP.xsrfCookie)=\(xsrf)"
        let body = try JSONEncoder.onTheMap().encode(StudentLocationPosting.sample(key: key))

        // What a cross-site form could send with the cookie: not JSON, so refused before anything is written.
        let formPost = try await client.send("POST", "/v1/StudentLocation", body: body, contentType: "text/plain",
                                             headers: ["Cookie": cookie])
        try assertError(formPost, 400, containing: "Content-Type: application/json")
        let wrongToken = try await client.send("POST", "/v1/StudentLocation", body: body,
                                               headers: ["Cookie": cookie, "X-XSRF-TOKEN": "guess"])
        try assertError(wrongToken, 403, containing: "X-XSRF-TOKEN")
        let stored = try await client.list().count
        XCTAssertEqual(stored, 0)

        // A Udacity-style client: the cookie its login set, nothing else.
        let cookieOnly = try await client.send("POST", "/v1/StudentLocation", body: body, headers: ["Cookie": cookie])
        XCTAssertEqual(cookieOnly.status, 200, cookieOnly.text)
        let withToken = try await client.send("POST", "/v1/StudentLocation", body: body,
                                              headers: ["Cookie": cookie, "X-XSRF-TOKEN": xsrf])
        XCTAssertEqual(withToken.status, 200, withToken.text)
        let written = try await client.list().count
        XCTAssertEqual(written, 2)
    }

    func testASessionCannotPostOrChangeSomeoneElsesLocation() async throws {
        let ada = try await loggedInStudent("ada@example.org")
        let grace = try await loggedInStudent("grace@example.org")
        let adas = try await client.post(.sample(key: ada.key), sessionId: ada.sessionId)
        let objectId = try adas.decode(StudentLocationCreated.self).objectId

        let impersonating = try await client.post(.sample(key: ada.key), sessionId: grace.sessionId)
        try assertError(impersonating, 403, containing: grace.key)
        let takeover = try await client.put(objectId, .sample(key: grace.key), sessionId: grace.sessionId)
        try assertError(takeover, 403)
        let giveaway = try await client.put(objectId, .sample(key: grace.key), sessionId: ada.sessionId)
        try assertError(giveaway, 403, containing: "uniqueKey")
        let owners = try await client.list().map(\.uniqueKey)
        XCTAssertEqual(owners, [ada.key], "nothing changed")
    }

    func testUpdatingAnUnknownObjectIdIs404() async throws {
        let student = try await loggedInStudent()
        let response = try await client.put("NoSuchId00", .sample(key: student.key), sessionId: student.sessionId)
        try assertError(response, 404, containing: "NoSuchId00")
    }

    func testBadCoordinatesURLsAndLengthsAre400() async throws {
        let student = try await loggedInStudent()
        let key = student.key
        let cases: [(StudentLocationPosting, String)] = [
            (.sample(key: key, latitude: 90.5), "latitude"),
            (.sample(key: key, latitude: -91), "latitude"),
            (.sample(key: key, longitude: 180.01), "longitude"),
            (.sample(key: key, longitude: -200), "longitude"),
            (.sample(key: key, mediaURL: "javascript:alert(1)"), "mediaURL"),
            (.sample(key: key, mediaURL: "ftp://example.org/file"), "mediaURL"),
            (.sample(key: key, mediaURL: "www.example.org"), "mediaURL"),
            (.sample(key: key, mediaURL: "https://"), "mediaURL"),
            (.sample(key: key, mediaURL: "https://example.org/" + String(repeating: "a", count: 2100)), "mediaURL"),
            (.sample(key: key, mapString: String(repeating: "x", count: 201)), "mapString"),
            (.sample(key: ""), "uniqueKey"),
        ]
        for (posting, field) in cases {
            try assertError(try await client.post(posting, sessionId: student.sessionId), 400, containing: field)
        }
        let stored = try await client.list().count
        XCTAssertEqual(stored, 0)
        let edges = try await client.post(.sample(key: key, latitude: -90, longitude: 180), sessionId: student.sessionId)
        XCTAssertEqual(edges.status, 200, "the limits themselves are valid")
    }

    func testOnlyJSONBodiesOfTheRightShapeAreAccepted() async throws {
        let student = try await loggedInStudent()
        let headers = ["X-Session-Id": student.sessionId]
        let json = try JSONEncoder.onTheMap().encode(StudentLocationPosting.sample(key: student.key))
        let plain = try await client.send("POST", "/v1/StudentLocation", body: json, contentType: "text/plain",
                                          headers: headers)
        try assertError(plain, 400, containing: "application/json")
        let missingType = try await client.send("POST", "/v1/StudentLocation", body: json, contentType: nil,
                                                headers: headers)
        try assertError(missingType, 400)
        for junk in ["{", "[]", "null", #"{"uniqueKey": 5}"#, #"{"uniqueKey": "\#(student.key)"}"#,
                     String(decoding: json, as: UTF8.self).replacingOccurrences(of: "48.8566", with: "\"north\"")] {
            let response = try await client.send("POST", "/v1/StudentLocation", body: Data(junk.utf8), headers: headers)
            try assertError(response, 400)
        }
        let huge = Data(repeating: UInt8(ascii: " "), count: 100_000) + json
        try assertError(try await client.send("POST", "/v1/StudentLocation", body: huge, headers: headers), 413)
        let stored = try await client.list().count
        XCTAssertEqual(stored, 0)
    }

    func testAnonymousWritesFlagRestoresUdacitysOpenBehaviour() async throws {
        try await restart { $0.allowAnonymousWrites = true }
        let created = try await client.post(.sample(key: "legacy-client"), sessionId: nil)
        XCTAssertEqual(created.status, 200, created.text)
        let objectId = try created.decode(StudentLocationCreated.self).objectId
        let updated = try await client.put(objectId, .sample(key: "someone-else", mapString: "Lisbon"), sessionId: nil)
        XCTAssertEqual(updated.status, 200, updated.text)
        let places = try await client.list().map(\.mapString)
        XCTAssertEqual(places, ["Lisbon"])
    }

    func testUnknownRoutesAre404InTheErrorShape() async throws {
        try assertError(try await client.send("GET", "/v1/Nothing"), 404)
        try assertError(try await client.send("GET", "/"), 404)
        try assertError(try await client.send("DELETE", "/v1/StudentLocation/abc"), 404)
    }

    func testFiftyConcurrentClientsPostingAllPersist() async throws {
        let emails = (0..<50).map { "student\($0)@example.org" }
        try await server.addAccounts(emails)
        let baseURL = server.baseURL
        let objectIds = try await withThrowingTaskGroup(of: String.self) { group in
            for email in emails {
                group.addTask {
                    let client = APIClient(baseURL: baseURL) // its own connection, like a separate student
                    let session = try await client.session(email)
                    let created = try await client.post(.sample(key: session.key), sessionId: session.id)
                    XCTAssertEqual(created.status, 200, created.text)
                    let objectId = try created.decode(StudentLocationCreated.self).objectId
                    let updated = try await client.put(objectId, .sample(key: session.key, mapString: "Moved"),
                                                       sessionId: session.id)
                    XCTAssertEqual(updated.status, 200, updated.text)
                    return objectId
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        XCTAssertEqual(objectIds.count, 50)
        let stored = try await client.list("?limit=1000")
        XCTAssertEqual(stored.count, 50, "every post is a row")
        XCTAssertEqual(Set(stored.map(\.objectId)), objectIds)
        XCTAssertTrue(stored.allSatisfy { $0.mapString == "Moved" }, "every update is kept")
    }
}

final class StudentLocationRoutePostgresTests: StudentLocationRouteTests {
    override class var storage: TestStorage { .postgres }
    // Linux test discovery lists only methods declared in the class itself, so each is named again here.
    override func testPostedLocationIsListedWithEveryField() async throws { try await super.testPostedLocationIsListedWithEveryField() }
    override func testUpdateReplacesTheFieldsAndMovesTheLocationToTheFront() async throws { try await super.testUpdateReplacesTheFieldsAndMovesTheLocationToTheFront() }
    override func testLimitAndSkipPageThroughTheNewestFirst() async throws { try await super.testLimitAndSkipPageThroughTheNewestFirst() }
    override func testBadListParametersAre400() async throws { try await super.testBadListParametersAre400() }
    override func testWritesWithoutASessionAre401() async throws { try await super.testWritesWithoutASessionAre401() }
    override func testTheSessionCookieAloneAuthenticatesAJSONWrite() async throws { try await super.testTheSessionCookieAloneAuthenticatesAJSONWrite() }
    override func testASessionCannotPostOrChangeSomeoneElsesLocation() async throws { try await super.testASessionCannotPostOrChangeSomeoneElsesLocation() }
    override func testUpdatingAnUnknownObjectIdIs404() async throws { try await super.testUpdatingAnUnknownObjectIdIs404() }
    override func testBadCoordinatesURLsAndLengthsAre400() async throws { try await super.testBadCoordinatesURLsAndLengthsAre400() }
    override func testOnlyJSONBodiesOfTheRightShapeAreAccepted() async throws { try await super.testOnlyJSONBodiesOfTheRightShapeAreAccepted() }
    override func testAnonymousWritesFlagRestoresUdacitysOpenBehaviour() async throws { try await super.testAnonymousWritesFlagRestoresUdacitysOpenBehaviour() }
    override func testUnknownRoutesAre404InTheErrorShape() async throws { try await super.testUnknownRoutesAre404InTheErrorShape() }
    override func testFiftyConcurrentClientsPostingAllPersist() async throws { try await super.testFiftyConcurrentClientsPostingAllPersist() }
}
