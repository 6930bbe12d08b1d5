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

    func testAThumbnailIsTheMiddleSquareOfAWidePhoto() throws {
        // 800×400: red and blue quarters at the ends, green in the middle half, which is the square kept.
        let jpeg = try encodedImage(width: 800, height: 400, format: "jpeg") { x, _ in
            x < 200 ? (255, 0, 0) : x >= 600 ? (0, 0, 255) : (0, 200, 0)
        }
        let thumbnail = try ImageDecoding.squareThumbnail(data: jpeg, side: 150).get()
        XCTAssertEqual([gdk_pixbuf_get_width(thumbnail.pixbuf), gdk_pixbuf_get_height(thumbnail.pixbuf)], [150, 150])
        for x: Int32 in [3, 75, 146] {
            let (red, green, blue) = pixel(thumbnail.pixbuf, x: x, y: 75)
            XCTAssertTrue(red < 40 && green > 160 && blue < 40, "x \(x): \([red, green, blue]) is the middle's green")
        }
    }

    func testAJPEGIsDecodedAtLibjpegsOwnStepAndOtherFormatsAtTheSizeAskedFor() throws {
        let plain: (Int32, Int32) -> (UInt8, UInt8, UInt8) = { _, _ in (90, 120, 200) }
        let jpeg = try encodedImage(width: 800, height: 400, format: "jpeg", plain)
        let png = try encodedImage(width: 800, height: 400, format: "png", plain)
        func size(_ data: Data, _ fit: ImageDecoding.Fit) throws -> [Int32] {
            let decoded = try ImageDecoding.decode(data, shorterSide: 150, fit: fit).get()
            return [gdk_pixbuf_get_width(decoded.pixbuf), gdk_pixbuf_get_height(decoded.pixbuf)]
        }
        // Half size is the smallest step that still covers 150 pixels: nothing scales it again after libjpeg.
        XCTAssertEqual(try size(jpeg, .atLeast), [400, 200])
        XCTAssertEqual(try size(jpeg, .exact), [300, 150])
        XCTAssertEqual(try size(png, .atLeast), [300, 150], "a PNG has no steps of its own: scaled while loading")
    }

    func testLibjpegsStepIsTheLargestThatStillCoversTheSide() {
        let cases: [(shorter: Int32, side: Int32, step: Int32)] = [
            (240, 150, 1), (299, 150, 2), (300, 150, 2), (600, 150, 4), (1200, 150, 8), (4000, 150, 8), (100, 150, 1),
        ]
        for (shorter, side, step) in cases {
            XCTAssertEqual(ImageDecoding.jpegStep(shorter: shorter, side: side), step, "\(shorter) → \(side)")
        }
    }

    private func encodedImage(width: Int32, height: Int32, format: String,
                              _ colour: (Int32, Int32) -> (UInt8, UInt8, UInt8)) throws -> Data {
        let pixbuf = try XCTUnwrap(gdk_pixbuf_new(GDK_COLORSPACE_RGB, 0, 8, width, height))
        defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
        let pixels = try XCTUnwrap(gdk_pixbuf_get_pixels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        for y in 0..<height {
            for x in 0..<width {
                let (red, green, blue) = colour(x, y), offset = Int(y) * stride + Int(x) * 3
                (pixels[offset], pixels[offset + 1], pixels[offset + 2]) = (red, green, blue)
            }
        }
        var buffer: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        let saved = gdk_pixbuf_save_to_bufferv(pixbuf, &buffer, &length, format, nil, nil, &error)
        if let error { g_error_free(error) }
        XCTAssertNotEqual(saved, 0)
        defer { g_free(buffer) }
        return Data(bytes: try XCTUnwrap(buffer), count: Int(length))
    }

    private func pixel(_ pixbuf: OpaquePointer, x: Int32, y: Int32) -> (UInt8, UInt8, UInt8) {
        let pixels = gdk_pixbuf_get_pixels(pixbuf)!
        let offset = Int(y) * Int(gdk_pixbuf_get_rowstride(pixbuf)) + Int(x) * Int(gdk_pixbuf_get_n_channels(pixbuf))
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
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
