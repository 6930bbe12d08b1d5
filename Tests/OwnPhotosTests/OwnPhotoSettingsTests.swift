import OwnPhotos
import XCTest

final class OwnPhotoSettingsTests: XCTestCase {
    private var folder: URL!

    override func setUp() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString)", isDirectory: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    func testMissingFileIsOff() {
        XCTAssertEqual(OwnPhotoSettings.load(from: folder), OwnPhotoSettings(enabled: false, folders: []))
    }

    func testSavedSettingsComeBackAndOnlyTheUserMayReadThem() throws {
        let settings = OwnPhotoSettings(enabled: true, folders: ["/home/ana/Photos", "/media/ana/Camera"])
        try settings.save(to: folder)
        XCTAssertEqual(OwnPhotoSettings.load(from: folder), settings)
        let file = folder.appendingPathComponent("own-photos.json").path
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o600)
        try OwnPhotoSettings(enabled: false, folders: []).save(to: folder)
        XCTAssertEqual(OwnPhotoSettings.load(from: folder), OwnPhotoSettings())
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["own-photos.json"], "no temporary left")
    }

    func testBrokenFileIsOff() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{\"enabled\": tr".utf8).write(to: folder.appendingPathComponent("own-photos.json"))
        XCTAssertEqual(OwnPhotoSettings.load(from: folder), OwnPhotoSettings())
    }

    func testEffectiveFoldersAreTheChosenOnesOrThePicturesFolder() throws {
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Pictures"), withIntermediateDirectories: true)
        let environment = ["HOME": home.path]
        XCTAssertEqual(OwnPhotoSettings(enabled: true).effectiveFolders(environment: environment).map(\.path), [home.path + "/Pictures"])
        let chosen = OwnPhotoSettings(enabled: true, folders: ["/srv/a", "relative", "/srv/a/", "/srv/b"])
        XCTAssertEqual(chosen.effectiveFolders(environment: environment).map(\.path), ["/srv/a", "/srv/b"])
    }
}
