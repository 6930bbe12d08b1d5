import FlickrClient
import WebAccess
import Foundation
import XCTest

/// Which proxy a photo request goes through, read from the environment as curl reads it.
final class ProxySettingsTests: XCTestCase {
    private let photo = URL(string: "https://live.staticflickr.com/65535/1_a_q.jpg")!
    private let plainPhoto = URL(string: "http://127.0.0.1:8080/images/1.jpg")!

    func testNoVariablesMeansDirect() {
        let settings = ProxySettings.fromEnvironment(["HOME": "/home/traveller"])
        XCTAssertNil(settings.proxy(for: photo))
        XCTAssertNil(settings.proxy(for: plainPhoto))
        XCTAssertEqual(settings.problems, [])
    }

    func testHTTPSAddressesUseHTTPSProxyAndPlainOnesHTTPProxy() {
        let settings = ProxySettings.fromEnvironment(["https_proxy": "http://secure.example:3128",
                                                      "http_proxy": "plain.example:8080"])
        XCTAssertEqual(settings.proxy(for: photo), .init(host: "secure.example", port: 3128))
        XCTAssertEqual(settings.proxy(for: plainPhoto), .init(host: "plain.example", port: 8080),
                       "an address without a scheme is an HTTP proxy")
    }

    func testUppercaseHTTPProxyIsIgnoredButUppercaseHTTPSProxyIsRead() {
        // HTTP_PROXY can come from a request's `Proxy:` header in a CGI environment (httpoxy); curl ignores it.
        let settings = ProxySettings.fromEnvironment(["HTTP_PROXY": "http://evil.example:1", "HTTPS_PROXY": "proxy.example"])
        XCTAssertNil(settings.proxy(for: plainPhoto))
        XCTAssertEqual(settings.proxy(for: photo), .init(host: "proxy.example", port: 1080), "curl's default port")
    }

    func testAllProxyCoversWhatIsNotSetAndLowercaseWins() {
        let settings = ProxySettings.fromEnvironment(["ALL_PROXY": "socks5h://tunnel.example:9050",
                                                      "https_proxy": "http://lower.example:3128",
                                                      "HTTPS_PROXY": "http://upper.example:3128"])
        XCTAssertEqual(settings.proxy(for: photo)?.host, "lower.example")
        XCTAssertEqual(settings.proxy(for: plainPhoto), .init(kind: .socks5, host: "tunnel.example", port: 9050))
    }

    func testNoProxyCoversADomainAndItsSubdomainsOnly() {
        let settings = ProxySettings.fromEnvironment(["https_proxy": "http://proxy.example:3128",
                                                      "no_proxy": " .staticflickr.com, 127.0.0.1,intranet. "])
        XCTAssertNil(settings.proxy(for: photo), "live.staticflickr.com is under staticflickr.com")
        XCTAssertNil(settings.proxy(for: URL(string: "https://staticflickr.com/x.jpg")!))
        XCTAssertNil(settings.proxy(for: URL(string: "https://INTRANET/x.jpg")!), "names compare without case")
        XCTAssertNotNil(settings.proxy(for: URL(string: "https://notstaticflickr.com/x.jpg")!),
                        "a suffix that is not a whole label does not count")
        XCTAssertNotNil(settings.proxy(for: URL(string: "https://farm1.flickr.com/x.jpg")!))
    }

    func testNoProxyStarMeansNoProxyAtAll() {
        let settings = ProxySettings.fromEnvironment(["https_proxy": "http://proxy.example:3128", "NO_PROXY": "*"])
        XCTAssertNil(settings.proxy(for: photo))
    }

    func testCredentialsAreKeptForTheProxyButNeverShown() {
        let settings = ProxySettings.fromEnvironment(["https_proxy": "http://ann%40corp:s3cr%2Ft@proxy.example:3128"])
        let proxy = settings.proxy(for: photo)
        XCTAssertEqual(proxy?.username, "ann@corp")
        XCTAssertEqual(proxy?.password, "s3cr/t")
        XCTAssertEqual(proxy?.description, "proxy.example:3128", "messages and logs name the proxy, not the password")
        XCTAssertFalse(FlickrError.proxyFailed(proxy: proxy!.description).userMessage.contains("s3cr"))
    }

    func testAnUnusableProxyIsReportedAndNotUsed() {
        let settings = ProxySettings.fromEnvironment(["https_proxy": "https://tls-proxy.example:443",
                                                      "http_proxy": "http://:8080",
                                                      "all_proxy": "socks5://user:secret@socks.example"])
        XCTAssertNil(settings.proxy(for: photo))
        XCTAssertNil(settings.proxy(for: plainPhoto))
        XCTAssertEqual(settings.problems, [
            "all_proxy: SOCKS proxies with a password are not supported",
            "http_proxy: not a proxy address",
            "https_proxy: https:// proxies are not supported (use http:// or socks5://)",
        ])
        XCTAssertFalse(settings.problems.joined().contains("secret"))
    }

    func testTheConfigurationReadsTheProxiesWithTheRestOfTheEnvironment() throws {
        let configuration = try FlickrConfiguration.fromEnvironment(["https_proxy": "proxy.example:3128"], appVersion: "2.0")
        XCTAssertEqual(configuration.proxies.proxy(for: photo), .init(host: "proxy.example", port: 3128))
    }
}
