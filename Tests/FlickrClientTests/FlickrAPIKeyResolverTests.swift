import Foundation
import FlickrClient
import FlickrTestSupport
import XCTest

final class FlickrAPIKeyResolverTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try makeTemporaryFolder().appendingPathComponent("virtual-tourist", isDirectory: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder.deletingLastPathComponent())
    }

    private func resolver(environment: [String: String] = [:], builtIn: String = "") -> FlickrAPIKeyResolver {
        FlickrAPIKeyResolver(configFolder: folder, builtInKey: builtIn, environment: environment)
    }

    private func permissions(_ url: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testEnvironmentWinsOverSavedAndBuiltInKeys() throws {
        try resolver().saveKey("saved-key")

        let resolution = resolver(environment: ["FLICKR_API_KEY": " env-key \n"], builtIn: "built-in-key").resolve()

        XCTAssertEqual(resolution.key?.value, "env-key")
        XCTAssertEqual(resolution.source, .environment)
    }

    func testSavedKeyWinsOverBuiltInKey() throws {
        try resolver().saveKey("  saved-key\n")

        let resolution = resolver(environment: ["FLICKR_API_KEY": "   "], builtIn: "built-in-key").resolve()

        XCTAssertEqual(resolution.key?.value, "saved-key", "trimmed; a blank environment value counts as none")
        XCTAssertEqual(resolution.source, .user)
    }

    func testBuiltInKeyIsTheLastResort() {
        XCTAssertEqual(resolver(builtIn: " built-in-key ").resolve(),
                       .init(key: FlickrAPIKey("built-in-key"), source: .builtIn))
        XCTAssertEqual(resolver(builtIn: "").resolve(), .init(key: nil, source: .none))
    }

    func testSavedKeyFileIsPrivateAndReplacedAtomically() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let resolver = resolver()

        try resolver.saveKey("first-key")
        try resolver.saveKey("second-key")

        XCTAssertEqual(try permissions(resolver.keyFile), 0o600)
        XCTAssertEqual(try permissions(folder), 0o700, "the folder holding the key is tightened")
        XCTAssertEqual(filesIn(folder), ["flickr-api-key"], "no temporary files left")
        XCTAssertEqual(try String(contentsOf: resolver.keyFile, encoding: .utf8), "second-key\n")
        XCTAssertEqual(resolver.savedKey()?.value, "second-key")
    }

    func testSavingCreatesAPrivateFolder() throws {
        let nested = folder.appendingPathComponent("deeper", isDirectory: true)
        let resolver = FlickrAPIKeyResolver(configFolder: nested, environment: [:])

        try resolver.saveKey("key")

        XCTAssertEqual(try permissions(nested), 0o700)
        XCTAssertEqual(try permissions(resolver.keyFile), 0o600)
    }

    func testRemovingTheSavedKeyFallsBackToBuiltIn() throws {
        let resolver = resolver(builtIn: "built-in-key")
        try resolver.saveKey("saved-key")

        try resolver.removeSavedKey()
        try resolver.removeSavedKey()  // removing twice is fine

        XCTAssertNil(resolver.savedKey())
        XCTAssertEqual(resolver.resolve().source, .builtIn)
        XCTAssertFalse(FileManager.default.fileExists(atPath: resolver.keyFile.path))
    }

    func testSavingABlankKeyRemovesIt() throws {
        let resolver = resolver()
        try resolver.saveKey("saved-key")

        try resolver.saveKey(" \n ")

        XCTAssertEqual(resolver.resolve().source, .none)
    }

    func testEmptyKeyFileMeansNoKey() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("\n".utf8).write(to: folder.appendingPathComponent("flickr-api-key"))

        XCTAssertEqual(resolver(builtIn: "built-in").resolve().source, .builtIn)
    }

    func testPrintingAKeyNeverShowsIt() throws {
        let key = try XCTUnwrap(FlickrAPIKey("abcdef123456"))
        let resolution = FlickrAPIKeyResolver.Resolution(key: key, source: .user)

        for text in ["\(key)", String(reflecting: key), "\(resolution)", String(reflecting: resolution)] {
            XCTAssertFalse(text.contains("abcdef123456"), text)
        }
    }
}
