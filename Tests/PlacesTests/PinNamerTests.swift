import FlickrTestSupport
import Foundation
@testable import Places
import TouristPlaces
import TouristStore
import XCTest

/// Pins get their names: offline at once, then online from `nominatim_server.py` over real HTTP.
final class PinNamerTests: NominatimServerTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("PinNamerTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        super.tearDown()
        if let folder { try? FileManager.default.removeItem(at: folder) }
    }

    private func makeNamer(_ database: AppDatabase, endpoint: URL? = nil, budget: Int = 50) -> PinNamer {
        let geocoder = NominatimGeocoder(endpoint: endpoint ?? server.endpoint, userAgent: testUserAgent,
                                         timeout: quickTimeout,
                                         limiter: RequestRateLimiter(minimumInterval: .milliseconds(10)))
        return PinNamer(database: database, online: geocoder, backgroundBudget: budget)
    }

    func testAPinIsNamedOfflineAtOnceThenRefinedOnline() async throws {
        let database = try AppDatabase.empty(dataFolder: folder)
        let offlineOnly = PinNamer(database: database, online: nil)
        let id = try XCTUnwrap(database.insertPin(latitude: 48.8866, longitude: 2.3430).id)
        await offlineOnly.pinsChanged()
        await offlineOnly.idle()
        let offline = try XCTUnwrap(database.pin(id: id))
        XCTAssertEqual(offline.placeNameSource, .offline)
        XCTAssertTrue(offline.placeName?.hasPrefix("Paris, ") == true, offline.placeName ?? "nil")

        let namer = makeNamer(database)
        await namer.pinsChanged()
        await namer.idle()
        let online = try XCTUnwrap(database.pin(id: id))
        XCTAssertEqual(online.placeName, "Montmartre, Paris, France")
        XCTAssertEqual(online.placeNameSource, .online)
        let asked = try await server.requests().filter { $0.path == "/reverse" }.count
        XCTAssertEqual(asked, 1)

        await namer.pinsChanged()
        await namer.idle()
        let askedAgain = try await server.requests().filter { $0.path == "/reverse" }.count
        XCTAssertEqual(askedAgain, 1, "each pin is asked about once")
    }

    func testWhereNominatimKnowsNothingTheOfflineNameStaysAndIsFinal() async throws {
        let database = try AppDatabase.empty(dataFolder: folder)
        let id = try XCTUnwrap(database.insertPin(latitude: 64.1466, longitude: -21.9426).id) // Reykjavík: not in the stub
        let namer = makeNamer(database)
        await namer.pinsChanged()
        await namer.idle()
        let pin = try XCTUnwrap(database.pin(id: id))
        XCTAssertTrue(pin.placeName?.hasPrefix("Reykjav") == true, pin.placeName ?? "nil")
        XCTAssertEqual(pin.placeNameSource, .online, "asked once; not asked again")
    }

    func testNominatimDownKeepsTheOfflineNameAndLosesNothing() async throws {
        let database = try AppDatabase.empty(dataFolder: folder)
        let id = try XCTUnwrap(database.insertPin(latitude: 48.8866, longitude: 2.3430).id)
        try await server.send("__fail?status=503")
        let namer = makeNamer(database)
        await namer.pinsChanged()
        await namer.idle()
        let pin = try XCTUnwrap(database.pin(id: id))
        XCTAssertEqual(pin.placeNameSource, .offline)
        XCTAssertTrue(pin.placeName?.hasPrefix("Paris, ") == true)
        let asked = try await server.requests().filter { $0.path == "/reverse" }.count
        XCTAssertEqual(asked, 1, "paused after the failure instead of asking about pin after pin")

        let refused = NominatimGeocoder(endpoint: URL(string: "http://127.0.0.1:\(try closedLocalPort())/")!,
                                        userAgent: testUserAgent, timeout: quickTimeout,
                                        limiter: RequestRateLimiter(minimumInterval: .milliseconds(10)))
        let unreachable = PinNamer(database: database, online: refused)
        await unreachable.pinsChanged()
        await unreachable.idle()
        XCTAssertEqual(try database.pin(id: id)?.placeNameSource, .offline)
    }

    func testOldPinsAreRefinedWithinABudgetButAskedForOnesAlways() async throws {
        let database = try AppDatabase.empty(dataFolder: folder)
        let ids = try (0..<5).map { try XCTUnwrap(database.insertPin(latitude: 10 + Double($0), longitude: 10).id) }
        let namer = makeNamer(database, budget: 2)
        await namer.pinsChanged()
        await namer.idle()
        let onlineAfterRound = try database.pins().filter { $0.placeNameSource == .online }.map(\.id)
        XCTAssertEqual(onlineAfterRound, [ids[3], ids[4]], "the newest two of the older pins")

        await namer.want(ids[0])
        await namer.idle()
        XCTAssertEqual(try database.pin(id: ids[0])?.placeNameSource, .online, "an opened album's pin is always refined")

        let new = try XCTUnwrap(database.insertPin(latitude: 48.8866, longitude: 2.3430).id)
        await namer.pinsChanged()
        await namer.idle()
        XCTAssertEqual(try database.pin(id: new)?.placeName, "Montmartre, Paris, France", "a pin dropped now needs no budget")
    }

    func testAThousandPinsAreNamedOfflineInOneGo() async throws {
        let database = try AppDatabase.empty(dataFolder: folder)
        for index in 0..<1_000 {
            _ = try database.insertPin(latitude: Double(index % 120) - 60, longitude: Double(index % 360) - 180)
        }
        let namer = PinNamer(database: database, online: nil)
        await namer.pinsChanged()
        await namer.idle()
        XCTAssertEqual(try database.pinsToName(.offline, limit: 10).count, 0)
        XCTAssertTrue(try database.pins().allSatisfy { !($0.placeName ?? "").isEmpty })
    }
}
