import OwnPhotos
import XCTest

final class PicturesFolderTests: XCTestCase {
    private var home: URL!

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("home-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home.appendingPathComponent(".config"), withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: home)
    }

    private func writeUserDirs(_ lines: [String], in folder: String = ".config") throws {
        let url = home.appendingPathComponent(folder).appendingPathComponent("user-dirs.dirs")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try lines.joined(separator: "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    private var environment: [String: String] { ["HOME": home.path] }

    func testQuotedHomePathIsExpandedAndCommentsIgnored() throws {
        try writeUserDirs(["# This file is written by xdg-user-dirs-update", "", "#XDG_PICTURES_DIR=\"$HOME/Old\"",
                           "XDG_DESKTOP_DIR=\"$HOME/Desktop\"", "XDG_PICTURES_DIR=\"$HOME/Bilder\"", "XDG_MUSIC_DIR=\"$HOME/Musik\""])
        XCTAssertEqual(PicturesFolder.locate(environment: environment)?.path, home.path + "/Bilder")
    }

    func testAbsolutePathIsTakenAsIs() throws {
        try writeUserDirs(["XDG_PICTURES_DIR=\"/srv/photos/ana/\""])
        XCTAssertEqual(PicturesFolder.locate(environment: environment)?.path, "/srv/photos/ana")
    }

    func testXDGConfigHomeIsWhereTheFileIs() throws {
        try writeUserDirs(["XDG_PICTURES_DIR=\"$HOME/Elsewhere\""], in: "alt-config")
        try writeUserDirs(["XDG_PICTURES_DIR=\"$HOME/Wrong\""])
        let located = PicturesFolder.locate(environment: ["HOME": home.path, "XDG_CONFIG_HOME": home.path + "/alt-config"])
        XCTAssertEqual(located?.path, home.path + "/Elsewhere")
    }

    func testEntryEqualToHomeMeansNone() throws {
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Pictures"), withIntermediateDirectories: true)
        try writeUserDirs(["XDG_PICTURES_DIR=\"$HOME/\""])
        XCTAssertNil(PicturesFolder.locate(environment: environment))
        try writeUserDirs(["XDG_PICTURES_DIR=\"$HOME\""])
        XCTAssertNil(PicturesFolder.locate(environment: environment))
        try writeUserDirs(["XDG_PICTURES_DIR=\"\(home.path)\""])
        XCTAssertNil(PicturesFolder.locate(environment: environment))
    }

    func testWithoutFileOrEntryThePicturesFolderIfItExists() throws {
        XCTAssertNil(PicturesFolder.locate(environment: environment), "no file and no ~/Pictures")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Pictures"), withIntermediateDirectories: true)
        XCTAssertEqual(PicturesFolder.locate(environment: environment)?.path, home.path + "/Pictures")
        try writeUserDirs(["XDG_MUSIC_DIR=\"$HOME/Music\"", "XDG_PICTURES_DIR=relative/path"])
        XCTAssertEqual(PicturesFolder.locate(environment: environment)?.path, home.path + "/Pictures")
    }
}
