import Foundation
import OnTheMapAPI
import StudentLocations
import XCTest

/// The directory the views observe, filled from the real server.
final class StudentDirectoryTests: XCTestCase {
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

    @MainActor
    func testRefreshLoadsStudentsNewestFirstAndTellsObservers() async throws {
        let older = try await client.post(posting(for: ada, mapString: "London, UK"), session: ada)
        let newer = try await client.post(posting(for: ada, mapString: "Paris, France"), session: ada)
        let directory = StudentDirectory(api: client)
        var seen: [StudentDirectory.State] = []
        directory.observe { seen.append(directory.state) }
        XCTAssertEqual(directory.state, .empty)

        await directory.refresh()

        XCTAssertEqual(directory.state, .loaded)
        XCTAssertEqual(directory.students.map(\.objectId), [newer, older])
        XCTAssertEqual(seen, [.loading, .loaded])
        XCTAssertEqual(directory.myLocation(accountKey: ada.accountKey)?.objectId, newer)
        XCTAssertNil(directory.myLocation(accountKey: "someone else"))
    }

    @MainActor
    func testAFailedRefreshKeepsTheStudentsAndSaysWhy() async throws {
        _ = try await client.post(posting(for: ada), session: ada)
        let directory = StudentDirectory(api: client)
        await directory.refresh()
        XCTAssertEqual(directory.students.count, 1)

        await server.stop()
        await directory.refresh()

        guard case .failed(.unreachable) = directory.state else { return XCTFail("\(directory.state)") }
        XCTAssertEqual(directory.students.count, 1)
    }

    @MainActor
    func testClearEmptiesTheDirectoryAndTellsObservers() async throws {
        _ = try await client.post(posting(for: ada), session: ada)
        let directory = StudentDirectory(api: client)
        await directory.refresh()
        var calls = 0
        directory.observe { calls += 1 }

        directory.clear()

        XCTAssertEqual(directory.students, [])
        XCTAssertEqual(directory.state, .empty)
        XCTAssertEqual(calls, 1)
    }

    @MainActor
    func testACancelledObservationIsNotCalled() async throws {
        let directory = StudentDirectory(api: client)
        var calls = 0
        let token = directory.observe { calls += 1 }
        token.cancel()

        await directory.refresh()

        XCTAssertEqual(calls, 0)
        XCTAssertEqual(directory.state, .loaded)
    }

    @MainActor
    func testRefreshesAtTheSameTimeShareOneDownload() async throws {
        _ = try await client.post(posting(for: ada), session: ada)
        let directory = StudentDirectory(api: client)
        var loadingCount = 0
        directory.observe { if directory.state == .loading { loadingCount += 1 } }

        async let first: Void = directory.refresh()
        async let second: Void = directory.refresh()
        _ = await (first, second)

        XCTAssertEqual(loadingCount, 1)
        XCTAssertEqual(directory.students.count, 1)
    }

    @MainActor
    func testARefreshFinishingAfterClearDoesNotBringTheListBack() async throws {
        _ = try await client.post(posting(for: ada), session: ada)
        let directory = StudentDirectory(api: client)

        // Log out while the download is under way: as soon as the directory says it is loading.
        var cleared = false
        directory.observe {
            if directory.state == .loading && !cleared {
                cleared = true
                directory.clear()
            }
        }

        await directory.refresh()

        XCTAssertTrue(cleared)
        XCTAssertEqual(directory.students, [])
        XCTAssertEqual(directory.state, .empty)
    }
}
