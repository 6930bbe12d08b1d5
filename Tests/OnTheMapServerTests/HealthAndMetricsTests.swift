import Foundation
import OnTheMapAPI
@testable import OnTheMapServer
import Synchronization
import XCTest

/// `/livez` and `/readyz` on the public port; `/metrics` only on the metrics listener, counting requests by route
/// pattern (the list fast path and the router alike), failed and limited logins, sign-ups and database errors.
class HealthAndMetricsTests: ServerTestCase {
    private var metricsPort = 0

    override func setUp() async throws {
        try await super.setUp()
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        try await restart {
            $0.metricsAddress = ("127.0.0.1", 0)
            $0.onMetricsRunning = { port in continuation.yield(port) }
            $0.loginLimits = LoginLimits(failuresPerAccount: 2, failuresPerAddress: 100, window: 600)
        }
        var iterator = ports.makeAsyncIterator()
        let port = await iterator.next()
        metricsPort = try XCTUnwrap(port, "the metrics listener did not start")
    }

    func testLivezAndReadyzAnswer200() async throws {
        let live = try await client.send("GET", "/livez")
        XCTAssertEqual(live.status, 200, live.text)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: live.body) as? [String: String], ["status": "live"])
        let ready = try await client.send("GET", "/readyz")
        XCTAssertEqual(ready.status, 200, ready.text)
        XCTAssertEqual(try JSONSerialization.jsonObject(with: ready.body) as? [String: String], ["status": "ready"])
    }

    func testRequestsAreCountedByRoutePatternOnBothPaths() async throws {
        let connection = try RawHTTPConnection(port: server.port)
        for _ in 0..<3 { XCTAssertEqual(try connection.exchange("/v1/StudentLocation").status, 200) } // fast path
        for _ in 0..<2 { // a Connection header sends a list to the router
            XCTAssertEqual(try connection.exchange("/v1/StudentLocation", headers: ["Connection: keep-alive"]).status, 200)
        }
        XCTAssertEqual(try connection.exchange("/v1/StudentLocation?limit=-1").status, 400)
        let stranger = "/no/such/path/\(UUID().uuidString)"
        XCTAssertEqual(try connection.exchange(stranger).status, 404)
        XCTAssertEqual(try connection.exchange("/v1/users/\(UUID().uuidString)").status, 404)

        let samples = try await metrics()
        let list = ["route": "/v1/StudentLocation", "method": "GET"]
        XCTAssertEqual(samples.value("http_requests_total", list.merging(["status": "200"]) { $1 }), 5)
        XCTAssertEqual(samples.value("http_requests_total", list.merging(["status": "400"]) { $1 }), 1)
        XCTAssertEqual(samples.value("http_request_duration_seconds_count", ["route": "/v1/StudentLocation"]), 6)
        XCTAssertEqual(samples.value("http_requests_total", ["route": "/v1/users/{key}", "method": "GET", "status": "404"]), 1)
        XCTAssertEqual(samples.value("http_requests_total", ["route": "other", "method": "GET", "status": "404"]), 1)
        let routes = Set(samples.lines.compactMap { $0.labels["route"] })
        XCTAssertEqual(routes, ["/v1/StudentLocation", "/v1/users/{key}", "other"], "only route patterns are labels")
    }

    func testMetricsAreNotOnThePublicPort() async throws {
        let onPublicPort = try await client.send("GET", "/metrics")
        XCTAssertEqual(onPublicPort.status, 404)
        XCTAssertFalse(onPublicPort.text.contains("http_requests_total"))
        let before = try await metrics()
        for index in 0..<3 { _ = try await client.send("GET", "/no/such/path/\(index)-\(UUID().uuidString)") }
        let after = try await metrics()
        XCTAssertEqual(after.value("http_requests_total", ["route": "other", "method": "GET", "status": "404"]),
                       (before.value("http_requests_total", ["route": "other", "method": "GET", "status": "404"]) ?? 0) + 3)
        XCTAssertEqual(after.lines.count, before.lines.count, "unknown paths add no label values")
    }

    func testLoginsAndSignUpsAreCountedByOutcome() async throws {
        try await server.addAccount(email: "ada@example.org")
        var failed = 0, limited = 0
        while limited == 0, failed < 10 {
            let status = try await client.login("ada@example.org", "wrong horse").status
            switch status {
            case 403: failed += 1
            case 429: limited += 1
            case let status: XCTFail("unexpected \(status)")
            }
        }
        XCTAssertEqual(failed, 2)
        XCTAssertEqual(limited, 1)

        let form = try await signupForm()
        let fields = ["email": "grace@example.org", "password": "a long passphrase", "firstName": "Grace",
                      "lastName": "Hopper", "token": form.token]
        let created = try await submitSignup(fields, cookie: form.cookie)
        XCTAssertEqual(created.status, 201, created.text)
        var refused = 0, signupsLimited = 0
        while signupsLimited == 0, refused < 40 { // a taken email, until the address's limit
            let status = try await submitSignup(fields, cookie: form.cookie).status
            switch status {
            case 400: refused += 1
            case 429: signupsLimited += 1
            case let status: XCTFail("unexpected \(status)")
            }
        }
        XCTAssertEqual(signupsLimited, 1)

        let samples = try await metrics()
        XCTAssertEqual(samples.value("logins_failed_total"), Double(failed))
        XCTAssertEqual(samples.value("logins_limited_total"), Double(limited))
        XCTAssertEqual(samples.value("signups_total", ["outcome": "created"]), 1)
        XCTAssertEqual(samples.value("signups_total", ["outcome": "refused"]), Double(refused))
        XCTAssertEqual(samples.value("signups_total", ["outcome": "limited"]), 1)
        XCTAssertEqual(samples.value("http_requests_total", ["route": "/v1/session", "method": "POST", "status": "403"]),
                       Double(failed))
        XCTAssertEqual(samples.value("http_requests_total", ["route": "/v1/session", "method": "POST", "status": "429"]), 1)
        XCTAssertEqual(samples.value("database_errors_total"), 0)
    }

    // MARK: Helpers

    private func metrics() async throws -> MetricSamples {
        let response = try await APIClient(baseURL: URL(string: "http://127.0.0.1:\(metricsPort)")!).send("GET", "/metrics")
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8")
        return MetricSamples(response.text)
    }

    private func signupForm() async throws -> (token: String, cookie: String) {
        let page = try await client.send("GET", "/signup")
        let match = try XCTUnwrap(page.text.range(of: #"name="token" value="[^"]+""#, options: .regularExpression))
        return (String(page.text[match].split(separator: "\"")[3]), "signup_form=\(try XCTUnwrap(page.cookies["signup_form"]))")
    }

    private func submitSignup(_ fields: [String: String], cookie: String) async throws -> TestResponse {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
            .joined(separator: "&")
        return try await client.send("POST", "/signup", body: Data(body.utf8),
                                     contentType: "application/x-www-form-urlencoded", headers: ["Cookie": cookie])
    }
}

final class HealthAndMetricsPostgresTests: HealthAndMetricsTests {
    override class var storage: TestStorage { .postgres }
    // Linux test discovery lists only methods declared in the class itself, so each is named again here.
    override func testLivezAndReadyzAnswer200() async throws { try await super.testLivezAndReadyzAnswer200() }
    override func testRequestsAreCountedByRoutePatternOnBothPaths() async throws { try await super.testRequestsAreCountedByRoutePatternOnBothPaths() }
    override func testMetricsAreNotOnThePublicPort() async throws { try await super.testMetricsAreNotOnThePublicPort() }
    override func testLoginsAndSignUpsAreCountedByOutcome() async throws { try await super.testLoginsAndSignUpsAreCountedByOutcome() }
}

/// `/readyz`'s check on its own, with stores that hang or fail: a real database that stops answering on cue is
/// hard to arrange, and the check must not wait for a hung query.
final class HealthAndMetricsReadinessTests: XCTestCase {
    func testAHungDatabaseIsNotReadyWithinTheDeadline() async throws {
        let store = ScriptedStore { try await Task.sleep(for: .seconds(60)); return 1 }
        let readiness = DatabaseReadiness(store: store, deadline: .seconds(2))
        let start = ContinuousClock.now
        let problem = await readiness.problem()
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(3))
        XCTAssertEqual(problem?.reason, "it did not answer within 2 seconds.")

        let again = ContinuousClock.now
        let stillHung = await readiness.problem()
        XCTAssertNotNil(stillHung)
        XCTAssertLessThan(ContinuousClock.now - again, .milliseconds(500), "a query past its deadline is not waited for")
        XCTAssertEqual(store.calls, 1, "no second query onto a hung database")
    }

    func testAFailingDatabaseIsNotReadyAndSaysWhy() async throws {
        let store = ScriptedStore { throw StoreError.unsupportedDatabase("(broken)") }
        let problem = await DatabaseReadiness(store: store).problem()
        XCTAssertEqual(problem?.reason, StoreError.unsupportedDatabase("(broken)").description)
        let answering = await DatabaseReadiness(store: ScriptedStore { 7 }).problem()
        XCTAssertNil(answering.map(\.reason))
    }

    func testDatabaseErrorsAreCountedButNotATakenEmail() async throws {
        let metrics = ServerMetrics()
        let failing = ErrorCountingStore(base: ScriptedStore { throw StoreError.unsupportedDatabase("(broken)") },
                                         errors: metrics.databaseErrors)
        _ = try? await failing.locationsRevision()
        _ = try? await failing.createAccount(Account(key: "k", email: "e@example.org", passwordHash: "", firstName: "",
                                                     lastName: "", nickname: "", createdAt: Date()))
        XCTAssertEqual(MetricSamples(metrics.registry.emitToString()).value("database_errors_total"), 1)
    }
}

/// A store whose `locationsRevision` runs `revision`; `createAccount` answers a taken email; the rest fail.
private final class ScriptedStore: StudentStore {
    private let revision: @Sendable () async throws -> Int64
    private let count = Mutex(0)
    var calls: Int { count.withLock { $0 } }

    init(revision: @escaping @Sendable () async throws -> Int64) { self.revision = revision }

    struct Unscripted: Error {}
    func migrate() async throws {}
    func createAccount(_ account: Account) async throws { throw StoreError.emailTaken(account.email) }
    func account(email: String) async throws -> Account? { throw Unscripted() }
    func account(key: String) async throws -> Account? { throw Unscripted() }
    func allAccounts() async throws -> [Account] { throw Unscripted() }
    func removeAccount(email: String) async throws -> Bool { throw Unscripted() }
    func createSession(_ session: StoredSession) async throws { throw Unscripted() }
    func session(idHash: String) async throws -> StoredSession? { throw Unscripted() }
    func deleteSession(idHash: String) async throws { throw Unscripted() }
    func deleteSessions(expiredBefore date: Date) async throws { throw Unscripted() }
    func locationsRevision() async throws -> Int64 {
        count.withLock { $0 += 1 }
        return try await revision()
    }
    func locations(_ query: LocationQuery) async throws -> [StudentLocation] { throw Unscripted() }
    func location(objectId: String) async throws -> StudentLocation? { throw Unscripted() }
    func insertLocation(_ location: StudentLocation) async throws { throw Unscripted() }
    func updateLocation(objectId: String, with posting: StudentLocationPosting, at date: Date) async throws -> Bool {
        throw Unscripted()
    }
    func makeAttemptLedger() -> any AttemptLedger { AttemptLimiter() }
}

/// Prometheus' text format, read back: one sample per line, `name{label="value",…} number`.
struct MetricSamples {
    struct Line {
        var name: String
        var labels: [String: String]
        var value: Double
    }

    let lines: [Line]

    init(_ text: String) {
        lines = text.split(separator: "\n").compactMap { line -> Line? in
            guard !line.hasPrefix("#"), let space = line.lastIndex(of: " "),
                  let value = Double(line[line.index(after: space)...]) else { return nil }
            let series = line[..<space]
            guard let brace = series.firstIndex(of: "{") else { return Line(name: String(series), labels: [:], value: value) }
            var labels: [String: String] = [:]
            let pairs = series[series.index(after: brace)..<series.index(before: series.endIndex)]
            for pair in pairs.split(separator: ",") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                labels[String(parts[0])] = String(parts[1].dropFirst().dropLast())
            }
            return Line(name: String(series[..<brace]), labels: labels, value: value)
        }
    }

    /// The sample named `name` with exactly `labels`; nil if there is none.
    func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        lines.first { $0.name == name && $0.labels == labels }?.value
    }
}
