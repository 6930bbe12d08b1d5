import Foundation
import OnTheMapAPI
import StudentLocations
import XCTest

/// The server address rules and what `StudentInformation` shows.
final class ModelTests: XCTestCase {
    // MARK: ServerAddress

    func testHTTPSIsAllowedAnywhereAndEndsInV1() throws {
        XCTAssertEqual(try ServerAddress.resolve("https://onthemap.example.org").absoluteString,
                       "https://onthemap.example.org/v1/")
        XCTAssertEqual(try ServerAddress.resolve("https://onthemap.example.org/").absoluteString,
                       "https://onthemap.example.org/v1/")
        XCTAssertEqual(try ServerAddress.resolve(" HTTPS://host.example.org:8443/v1 ").absoluteString,
                       "https://host.example.org:8443/v1/")
        XCTAssertEqual(try ServerAddress.resolve("https://host.example.org/v1/").absoluteString,
                       "https://host.example.org/v1/")
        XCTAssertEqual(try ServerAddress.resolve("https://example.org/otm").absoluteString,
                       "https://example.org/otm/v1/")
    }

    func testPlainHTTPIsAllowedOnlyToThisComputer() throws {
        XCTAssertEqual(try ServerAddress.resolve("http://127.0.0.1:8080").absoluteString, "http://127.0.0.1:8080/v1/")
        XCTAssertEqual(try ServerAddress.resolve("http://127.1.2.3:8080/v1/").absoluteString,
                       "http://127.1.2.3:8080/v1/")
        XCTAssertEqual(try ServerAddress.resolve("http://localhost:8080").absoluteString, "http://localhost:8080/v1/")
        XCTAssertEqual(try ServerAddress.resolve("http://[::1]:8080").absoluteString, "http://[::1]:8080/v1/")
        XCTAssertThrowsError(try ServerAddress.resolve("http://onthemap.example.org")) { error in
            XCTAssertEqual(error as? ServerAddressError, .insecure(host: "onthemap.example.org"))
            XCTAssertTrue("\(error)".contains("https://"))
        }
        XCTAssertThrowsError(try ServerAddress.resolve("http://192.168.1.10:8080"))
        XCTAssertThrowsError(try ServerAddress.resolve("http://127.0.0.1.example.org"))
    }

    func testAnAddressWithoutSchemeIsHTTPSExceptOnThisComputer() throws {
        XCTAssertEqual(try ServerAddress.resolve("onthemap.example.org").absoluteString,
                       "https://onthemap.example.org/v1/")
        XCTAssertEqual(try ServerAddress.resolve("localhost:8080").absoluteString, "http://localhost:8080/v1/")
        XCTAssertEqual(try ServerAddress.resolve("127.0.0.1:8080").absoluteString, "http://127.0.0.1:8080/v1/")
    }

    func testJunkAddressesAreRejected() {
        XCTAssertThrowsError(try ServerAddress.resolve("   ")) { XCTAssertEqual($0 as? ServerAddressError, .empty) }
        for junk in ["ftp://example.org", "https://", "not a url", "https://example.org/?x=1",
                     "https://user:secret@example.org", "file:///etc/passwd", "javascript:alert(1)"] {
            XCTAssertThrowsError(try ServerAddress.resolve(junk), junk) { error in
                guard case .notAWebAddress = error as? ServerAddressError else {
                    return XCTFail("\(junk): \(error)")
                }
            }
        }
    }

    func testTheEnvironmentVariableChoosesTheServer() throws {
        XCTAssertEqual(try ServerAddress.configured(environment: [:]), ServerAddress.udacity)
        XCTAssertEqual(try ServerAddress.configured(environment: ["ON_THE_MAP_API_URL": ""]), ServerAddress.udacity)
        XCTAssertEqual(try ServerAddress.configured(environment: ["ON_THE_MAP_API_URL": "http://127.0.0.1:9"]),
                       URL(string: "http://127.0.0.1:9/v1/"))
        XCTAssertThrowsError(try ServerAddress.configured(environment: ["ON_THE_MAP_API_URL": "http://example.org"]))
        XCTAssertEqual(ServerAddress.udacity.absoluteString, "https://onthemap-api.udacity.com/v1/")
    }

    // MARK: StudentInformation

    private func student(first: String = "Ada", last: String = "Lovelace", link: String = "https://example.org")
        -> StudentInformation {
        StudentInformation(StudentLocation(objectId: "id", uniqueKey: "key", firstName: first, lastName: last,
                                           mapString: "London", mediaURL: link, latitude: 51.5, longitude: -0.1,
                                           createdAt: Date(), updatedAt: Date()))
    }

    func testOnlyWebLinksWithAHostCanBeOpened() {
        XCTAssertEqual(student(link: "https://example.org/page?q=1").link, URL(string: "https://example.org/page?q=1"))
        XCTAssertEqual(student(link: "http://example.org").link, URL(string: "http://example.org"))
        XCTAssertEqual(student(link: "  HTTPS://Example.org  ").link, URL(string: "HTTPS://Example.org"))
        // What a browser takes, the server accepts and the list opens: encoded as the browser would send it.
        XCTAssertEqual(student(link: "https://example.org/?q=' OR 1=1 --&x=<b>").link,
                       URL(string: "https://example.org/?q='%20OR%201=1%20--&x=%3Cb%3E"))
        for unopenable in ["javascript:alert(1)", "file:///etc/passwd", "mailto:ada@example.org", "ftp://example.org",
                           "https://", "", "https://exa mple.org"] {
            XCTAssertNil(student(link: unopenable).link, unopenable)
        }
    }

    func testALinkTypedWithoutASchemeOpensAsHTTPSAsInABrowser() {
        XCTAssertEqual(student(link: "www.example.com/me").link, URL(string: "https://www.example.com/me"))
        XCTAssertEqual(student(link: " github.com/ada?tab=repositories ").link,
                       URL(string: "https://github.com/ada?tab=repositories"))
        XCTAssertEqual(student(link: "example.com:8080/page").link, URL(string: "https://example.com:8080/page"),
                       "a port, not a scheme")
        XCTAssertEqual(student(link: "example.org/my page").link, URL(string: "https://example.org/my%20page"))
        XCTAssertEqual(student(link: "bücher.de").link?.scheme, "https")
    }

    func testWhatIsNotAWebAddressStillOpensNothing() {
        for text in ["ftp://files.example.org/notes.txt", "ftp:files.example.org", "javascript:alert(1)",
                     "javascript:1", "mailto:ada@example.org", "ada@example.org", "data:text/html,<b>hi</b>",
                     "file:///etc/passwd", "not a link", "link", "localhost/me", "3.14", "192.168.1.1/admin",
                     "//example.com", "example.c", "https//example.com", "exa mple.com/me"] {
            XCTAssertNil(student(link: text).link, text)
        }
    }

    func testTheServersRuleStillWantsTheScheme() {
        // The server stores what `WebLink.url` accepts; only reading is lenient.
        XCTAssertNil(WebLink.url("www.example.com/me"))
        XCTAssertEqual(WebLink.url("https://www.example.com/me"), URL(string: "https://www.example.com/me"))
        XCTAssertEqual(WebLink.url(asTyped: "https://www.example.com/me"), URL(string: "https://www.example.com/me"))
        XCTAssertEqual(WebLink.url(asTyped: "HTTP://Example.org"), URL(string: "HTTP://Example.org"))
    }

    func testNamesAndInitials() {
        XCTAssertEqual(student().fullName, "Ada Lovelace")
        XCTAssertEqual(student().initials, "AL")
        XCTAssertEqual(student(first: " grace ", last: "").fullName, "grace")
        XCTAssertEqual(student(first: " grace ", last: "").initials, "G")
        XCTAssertEqual(student(first: "", last: "Hopper").fullName, "Hopper")
        XCTAssertEqual(student(first: " ", last: "").fullName, "Someone")
        XCTAssertEqual(student(first: "", last: "").initials, "?")
    }

    func testBuiltFromTheWireType() {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let location = StudentLocation(objectId: "o", uniqueKey: "k", firstName: "Ada", lastName: "Lovelace",
                                       mapString: "London", mediaURL: "https://example.org", latitude: 1,
                                       longitude: 2, createdAt: date, updatedAt: date)
        let information = StudentInformation(location)
        XCTAssertEqual(information.id, "o")
        XCTAssertEqual(information.posting, location.posting)
    }

    func testErrorsHaveATitleAndAnActionableSentence() {
        let errors: [StudentLocationsError] = [
            .unreachable(detail: "example.org (no such host name)"), .invalidCredentials,
            .serverFailed(detail: "HTTP 502"), .refused(status: 400, message: "latitude must be between -90 and 90."),
            .notLoggedIn, .cancelled,
        ]
        for error in errors {
            XCTAssertFalse(error.title.isEmpty)
            XCTAssertTrue(error.description.hasSuffix("."), error.description)
        }
        XCTAssertEqual(StudentLocationsError.unreachable(detail: "example.org (no such host name)").description,
                       "Can't reach the server at example.org (no such host name). "
                           + "Check your connection and try again.")
    }
}
