import Foundation
import CGtk
import FlickrClient
@testable import TouristUI
import XCTest

final class ImageDecodingTests: XCTestCase {
    private var sampleJPEG: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FlickrTestSupport/Server/tiny.jpg")
    }

    private func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FlickrTestSupport/Server/\(name)"))
    }

    func testWholeJPEGsAndPNGsPassWithTheirRealFormat() throws {
        XCTAssertEqual(try ImageDecoding.validatePhoto(Data(contentsOf: sampleJPEG)).get(), .jpeg)
        XCTAssertEqual(try ImageDecoding.validatePhoto(fixture("tiny.png")).get(), .png)
    }

    func testHTMLAndEmptyBodiesAreNotImages() {
        XCTAssertEqual(ImageDecoding.validatePhoto(Data("<html><body>Oops</body></html>".utf8)).failure, .notAnImage)
        XCTAssertEqual(ImageDecoding.validatePhoto(Data()).failure, .notAnImage)
    }

    func testAnImageCutShortIsRefusedThoughTheDecoderWouldPaintIt() throws {
        let jpeg = try Data(contentsOf: sampleJPEG)
        for fraction in [0.5, 0.67, 0.9] {
            let cut = jpeg.prefix(Int(Double(jpeg.count) * fraction))
            XCTAssertEqual(ImageDecoding.validatePhoto(cut).failure, .unusableImage(.truncated), "\(fraction)")
        }
        let png = try fixture("tiny.png")
        XCTAssertEqual(ImageDecoding.validatePhoto(png.prefix(png.count - 20)).failure, .unusableImage(.truncated))
    }

    func testADecompressionBombIsRefusedFromItsHeaderWithoutDecoding() throws {
        let bomb = try fixture("bomb.png") // 110 KB on the wire, 30,000 × 30,000 pixels (2.7 GB decoded)
        let before = residentMegabytes()

        let result = ImageDecoding.validatePhoto(bomb)

        XCTAssertEqual(result.failure, .unusableImage(.tooManyPixels(width: 30_000, height: 30_000)))
        XCTAssertLessThan(residentMegabytes() - before, 100, "nothing close to the decoded size was allocated")
    }

    func testAnImageWithAWholeStructureButDamagedDataIsRefused() throws {
        var jpeg = try Data(contentsOf: sampleJPEG)
        // Keep the markers, break the entropy-coded data and the tables in between.
        for index in stride(from: 20, to: jpeg.count - 2, by: 3) { jpeg[index] = 0xFF }
        jpeg[jpeg.count - 2] = 0xFF
        jpeg[jpeg.count - 1] = 0xD9
        XCTAssertNotNil(ImageDecoding.validatePhoto(jpeg).failure)
    }

    private func residentMegabytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
    }

    func testThumbnailsAreSquareAtTheRequestedSize() throws {
        let thumbnail = try XCTUnwrap(ImageDecoding.squareThumbnail(path: sampleJPEG.path, side: 150))
        XCTAssertEqual(gdk_pixbuf_get_width(thumbnail.pixbuf), 150)
        XCTAssertEqual(gdk_pixbuf_get_height(thumbnail.pixbuf), 150)
    }

    func testAMissingFileGivesNoThumbnail() {
        XCTAssertNil(ImageDecoding.squareThumbnail(path: "/nonexistent/photo.jpg", side: 150))
    }
}

final class ImageDecodingOffMainThreadTests: XCTestCase {
    func testThumbnailsDecodeOnOtherThreadsAtOnce() async throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("FlickrTestSupport/Server/tiny.jpg").path
        let sizes = await withTaskGroup(of: Int32?.self) { group in
            for _ in 0..<12 {
                group.addTask { ImageDecoding.squareThumbnail(path: path, side: 150).map { gdk_pixbuf_get_width($0.pixbuf) } }
            }
            var sizes: [Int32?] = []
            for await size in group { sizes.append(size) }
            return sizes
        }
        XCTAssertEqual(sizes, Array(repeating: 150, count: 12))
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
