import Foundation
import FlickrClient
import FlickrTestSupport
import XCTest

final class FlickrErrorTests: XCTestCase {
    func testTransientFailuresAreTheRetryableOnes() {
        let transient: [FlickrError] = [.timedOut, .connectionLost, .serviceUnavailable, .searchUnavailable,
                                        .httpStatus(500), .httpStatus(503), .httpStatus(429),
                                        .incompleteDownload(expected: 10, received: 5)]
        let permanent: [FlickrError] = [.missingAPIKey, .invalidAPIKey, .apiFailure(code: 18, message: "x"),
                                        .httpStatus(404), .httpStatus(403), .invalidResponse(.notJSON),
                                        .invalidResponse(.jsonp), .insecureEndpoint(host: "h"), .notAnImage,
                                        .cancelled, .offline, .cannotConnect(host: "h"), .hostNotFound(host: "h"),
                                        .fileSystem(path: "/p", reason: "r"), .invalidSearch("r")]
        for error in transient { XCTAssertTrue(error.isTransient, "\(error)") }
        for error in permanent { XCTAssertFalse(error.isTransient, "\(error)") }
        XCTAssertTrue(FlickrError.offline.isConnectivityProblem)
        XCTAssertFalse(FlickrError.timedOut.isConnectivityProblem)
    }

    func testEveryFailureHasAMessage() {
        let all: [FlickrError] = [.missingAPIKey, .invalidAPIKey, .serviceUnavailable, .searchUnavailable,
                                  .apiFailure(code: 1, message: ""), .httpStatus(500), .httpStatus(429),
                                  .httpStatus(404), .httpStatus(400), .timedOut, .offline,
                                  .cannotConnect(host: "h"), .hostNotFound(host: "h"), .connectionLost,
                                  .invalidResponse(.notHTTP), .insecureEndpoint(host: "h"),
                                  .secureConnectionFailed(host: "h"), .proxyFailed(proxy: "p:1"),
                                  .invalidEndpoint("x"), .invalidSearch("r"),
                                  .incompleteDownload(expected: 2, received: 1), .notAnImage,
                                  .fileSystem(path: "/p", reason: "r"), .cancelled]
        for error in all {
            XCTAssertFalse(error.errorDescription?.isEmpty ?? true, "\(error)")
            XCTAssertEqual(error.localizedDescription, error.errorDescription)
        }
        XCTAssertEqual(FlickrError.missingAPIKey.userMessage,
                       "Virtual Tourist has no Flickr API key. Add your Flickr API key in Preferences, or set FLICKR_API_KEY.")
        XCTAssertEqual(FlickrError.apiFailure(code: 1, message: " ").errorDescription,
                       "Flickr couldn't complete the search (error 1).")
    }

    func testImageSignatures() {
        XCTAssertEqual(ImageValidation.format(of: Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10])), .jpeg)
        XCTAssertEqual(ImageValidation.format(of: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0])), .png)
        XCTAssertEqual(ImageValidation.format(of: Data("GIF89a....".utf8)), .gif)
        XCTAssertEqual(ImageValidation.format(of: Data("RIFF\u{1}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)), .webp)
        XCTAssertNil(ImageValidation.format(of: Data("RIFF\u{1}\u{0}\u{0}\u{0}WAVEfmt ".utf8)))
        XCTAssertNil(ImageValidation.format(of: Data("<!DOCTYPE html>".utf8)))
        XCTAssertNil(ImageValidation.format(of: Data()))
        XCTAssertEqual(try? ImageValidation.check(Data("{\"stat\":\"fail\"}".utf8)).get(), nil)
    }

    func testTheStructuralCheckWantsEachFormatsEndMarker() {
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 0xFF, 0xD9])
        XCTAssertEqual(try? ImageValidation.check(jpeg).get(), .jpeg)
        XCTAssertEqual(try? ImageValidation.check(jpeg + Data([0, 0])).get(), .jpeg, "zero padding after EOI is fine")
        XCTAssertEqual(ImageValidation.check(jpeg.dropLast(2)), .failure(.unusableImage(.truncated)))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        XCTAssertEqual(try? ImageValidation.check(png).get(), .png)
        XCTAssertEqual(ImageValidation.check(png.dropLast()), .failure(.unusableImage(.truncated)))
        XCTAssertEqual(try? ImageValidation.check(Data("GIF89a....;".utf8)).get(), .gif)
        XCTAssertEqual(ImageValidation.check(Data("GIF89a....".utf8)), .failure(.unusableImage(.truncated)))
        XCTAssertEqual(ImageValidation.check(Data("<html>".utf8)), .failure(.notAnImage))
    }
}
