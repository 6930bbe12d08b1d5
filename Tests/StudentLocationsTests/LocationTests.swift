import Foundation
import OnTheMapAPI
import StudentLocations
import XCTest

/// Listing, posting and updating locations against the real server over HTTP.
final class LocationTests: XCTestCase {
    private var server: LiveServer!
    private var client: OnTheMapClient!
    private var ada: UserSession!

    override func setUp() async throws {
        server = try await LiveServer.start()
        client = makeClient(server.apiURL)
        try await server.addStudent(email: "ada@example.org", firstName: "Ada", lastName: "Lovelace")
        ada = try await client.logIn(email: "ada@example.org", password: "correct horse")
    }

    override func tearDown() async throws {
        await server?.stop()
    }

    func testAnEmptyServerListsNoOne() async throws {
        let students = try await client.recentLocations(limit: 100).students
        XCTAssertEqual(students, [])
    }

    func testPostingThenListingShowsTheLocation() async throws {
        let sent = posting(for: ada, mapString: "London, UK", mediaURL: "https://ada.example.org",
                           latitude: 51.5072, longitude: -0.1276)

        let objectId = try await client.post(sent, session: ada)
        let students = try await client.recentLocations(limit: 100).students

        let student = try XCTUnwrap(students.first)
        XCTAssertEqual(students.count, 1)
        XCTAssertEqual(student.objectId, objectId)
        XCTAssertEqual(student.uniqueKey, ada.accountKey)
        XCTAssertEqual(student.fullName, "Ada Lovelace")
        XCTAssertEqual(student.mapString, "London, UK")
        XCTAssertEqual(student.link, URL(string: "https://ada.example.org"))
        XCTAssertEqual(student.latitude, 51.5072, accuracy: 1e-9)
        XCTAssertEqual(student.longitude, -0.1276, accuracy: 1e-9)
        XCTAssertEqual(student.posting, sent)
    }

    func testRecentLocationsAreNewestFirstAndLimited() async throws {
        try await server.addStudent(email: "grace@example.org", firstName: "Grace", lastName: "Hopper")
        let grace = try await makeClient(server.apiURL).logIn(email: "grace@example.org", password: "correct horse")
        let first = try await client.post(posting(for: ada, mapString: "First"), session: ada)
        let second = try await client.post(posting(for: grace, mapString: "Second"), session: grace)
        let third = try await client.post(posting(for: ada, mapString: "Third"), session: ada)

        let all = try await client.recentLocations(limit: 100)
        let newestTwo = try await client.recentLocations(limit: 2)

        XCTAssertEqual(all.students.map(\.objectId), [third, second, first])
        XCTAssertEqual(newestTwo.students.map(\.objectId), [third, second])
        XCTAssertNil(newestTwo.excess, "the real server sends what it is asked for")
        XCTAssertEqual(all.students.map(\.fullName), ["Ada Lovelace", "Grace Hopper", "Ada Lovelace"])
    }

    func testLocationOfFindsMyNewestLocationOnly() async throws {
        try await server.addStudent(email: "grace@example.org", firstName: "Grace", lastName: "Hopper")
        let grace = try await makeClient(server.apiURL).logIn(email: "grace@example.org", password: "correct horse")
        _ = try await client.post(posting(for: ada, mapString: "Old"), session: ada)
        let newest = try await client.post(posting(for: ada, mapString: "New"), session: ada)
        _ = try await client.post(posting(for: grace, mapString: "Arlington"), session: grace)

        let mine = try await client.location(of: ada.accountKey)
        let nobodys = try await client.location(of: "no-such-key")

        XCTAssertEqual(mine?.objectId, newest)
        XCTAssertEqual(mine?.mapString, "New")
        XCTAssertNil(nobodys)
    }

    func testUpdateChangesMyLocationInPlace() async throws {
        let objectId = try await client.post(posting(for: ada, mapString: "London, UK"), session: ada)
        let before = try await client.location(of: ada.accountKey)

        try await client.update(objectId: objectId, posting(for: ada, mapString: "Paris, France",
                                                            mediaURL: "https://paris.example.org",
                                                            latitude: 48.8566, longitude: 2.3522), session: ada)

        let students = try await client.recentLocations(limit: 100).students
        XCTAssertEqual(students.count, 1)
        let after = try XCTUnwrap(students.first)
        XCTAssertEqual(after.objectId, objectId)
        XCTAssertEqual(after.mapString, "Paris, France")
        XCTAssertEqual(after.link, URL(string: "https://paris.example.org"))
        XCTAssertEqual(after.latitude, 48.8566, accuracy: 1e-9)
        XCTAssertGreaterThan(after.updatedAt, try XCTUnwrap(before).updatedAt)
    }

    func testPostOrUpdateKeepsOneLocationPerStudent() async throws {
        let first = try await client.postOrUpdate(posting(for: ada, mapString: "London, UK"), session: ada)
        let second = try await client.postOrUpdate(posting(for: ada, mapString: "Paris, France"), session: ada)

        let students = try await client.recentLocations(limit: 100).students
        XCTAssertEqual(first, second)
        XCTAssertEqual(students.map(\.mapString), ["Paris, France"])
    }

    func testPostingBadDataIsRefusedWithTheServersMessage() async throws {
        do {
            _ = try await client.post(posting(for: ada, latitude: 200), session: ada)
            XCTFail("posted latitude 200")
        } catch {
            XCTAssertEqual(error, .refused(status: 400, message: "latitude must be between -90 and 90 degrees."))
            XCTAssertEqual(error.title, "The server refused the request")
            XCTAssertEqual(error.description, "latitude must be between -90 and 90 degrees.")
            XCTAssertFalse(error.isRetryable)
        }
    }

    func testPostingANonWebLinkIsRefused() async throws {
        do {
            _ = try await client.post(posting(for: ada, mediaURL: "javascript:alert(1)"), session: ada)
            XCTFail("posted a javascript: link")
        } catch {
            guard case .refused(400, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("mediaURL"), message)
        }
    }

    func testChangingSomeoneElsesLocationIsRefused() async throws {
        try await server.addStudent(email: "grace@example.org", firstName: "Grace", lastName: "Hopper")
        let grace = try await makeClient(server.apiURL).logIn(email: "grace@example.org", password: "correct horse")
        let adas = try await client.post(posting(for: ada), session: ada)

        do {
            try await client.update(objectId: adas, posting(for: grace), session: grace)
            XCTFail("changed another student's location")
        } catch {
            guard case .refused(403, let message) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("uniqueKey"), message)
        }
    }

    func testUpdatingAMissingLocationIsRefused() async throws {
        do {
            try await client.update(objectId: "no/such id", posting(for: ada), session: ada)
            XCTFail("updated a location that doesn't exist")
        } catch {
            guard case .refused(404, let message) = error else { return XCTFail("\(error)") }
            // The route's own 404, not the router's: the encoded id stayed one path segment.
            XCTAssertTrue(message.contains("No student location has the objectId"), message)
        }
    }
}
