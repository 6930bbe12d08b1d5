import CGtk
import GLibSwift
import Logging
import XCTest

/// Collects what a logger was given.
private final class CapturingLogHandler: LogHandler, @unchecked Sendable {
    final class Sink: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [(Logger.Level, String)] = []
        func append(_ entry: (Logger.Level, String)) { lock.lock(); entries.append(entry); lock.unlock() }
        var all: [(Logger.Level, String)] { lock.lock(); defer { lock.unlock() }; return entries }
    }

    let sink: Sink
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    init(sink: Sink) { self.sink = sink }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        sink.append((event.level, event.message.description))
    }
}

final class GLibLogRoutingTests: XCTestCase {
    private func glibLog(_ domain: String, _ level: GLogLevelFlags, _ message: String) {
        withVaList([]) { g_logv(domain, level, message, $0) }
    }

    func testRoutedWarningsReachTheLoggerAtTheChosenLevel() {
        let sink = CapturingLogHandler.Sink()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(sink: sink) }
        GLibLogRouting.route(domain: "VTTestDomain", to: logger, warningLevel: .debug)

        glibLog("VTTestDomain", G_LOG_LEVEL_WARNING, "Error getting missing tile")
        glibLog("VTTestDomain", G_LOG_LEVEL_CRITICAL, "something is really wrong")

        let entries = sink.all
        XCTAssertEqual(entries.count, 2)
        XCTAssertEqual(entries.first?.0, .debug)
        XCTAssertEqual(entries.first?.1, "Error getting missing tile")
        XCTAssertEqual(entries.last?.0, .error)
    }

    func testADomainsKnownNoiseCanBeQuietenedIncludingCriticals() {
        let sink = CapturingLogHandler.Sink()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(sink: sink) }
        GLibLogRouting.route(domain: "VTNoisyDomain", to: logger, warningLevel: .debug, criticalLevel: .debug)

        glibLog("VTNoisyDomain", G_LOG_LEVEL_CRITICAL, "soup_session_real_requeue_message: assertion failed")

        XCTAssertEqual(sink.all.map(\.0), [.debug])
    }

    func testDebugMessagesAreRoutedOnlyWhenGMessagesDebugAsksForTheDomain() {
        let sink = CapturingLogHandler.Sink()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(sink: sink) }
        GLibLogRouting.route(domain: "VTQuietDomain", to: logger, warningLevel: .debug, environment: [:])
        GLibLogRouting.route(domain: "VTAskedDomain", to: logger, warningLevel: .debug,
                             environment: ["G_MESSAGES_DEBUG": "Gtk VTAskedDomain"])

        glibLog("VTQuietDomain", G_LOG_LEVEL_DEBUG, "Load virtual tile 0,0")
        glibLog("VTQuietDomain", G_LOG_LEVEL_WARNING, "still routed")
        glibLog("VTAskedDomain", G_LOG_LEVEL_DEBUG, "Load actual tile 0,0")

        XCTAssertEqual(sink.all.map(\.1), ["still routed", "Load actual tile 0,0"])
        XCTAssertEqual(sink.all.map(\.0), [.debug, .debug])
    }

    func testRoutingADomainAgainReleasesTheRouteItReplaces() {
        weak var replaced: CapturingLogHandler?
        do {
            let handler = CapturingLogHandler(sink: CapturingLogHandler.Sink())
            replaced = handler
            GLibLogRouting.route(domain: "VTReroutedDomain", to: Logger(label: "first") { _ in handler },
                                 warningLevel: .debug)
        }
        XCTAssertNotNil(replaced, "GLib's handler keeps its route")
        let sink = CapturingLogHandler.Sink()
        GLibLogRouting.route(domain: "VTReroutedDomain", to: Logger(label: "second") { _ in CapturingLogHandler(sink: sink) },
                             warningLevel: .debug)
        XCTAssertNil(replaced)

        glibLog("VTReroutedDomain", G_LOG_LEVEL_WARNING, "to the second route")

        XCTAssertEqual(sink.all.map(\.1), ["to the second route"])
    }

    func testGMessagesDebugListsAreReadAsGLibReadsThem() {
        XCTAssertTrue(GLibLogRouting.debugMessagesWanted(for: "OsmGpsMap", environment: ["G_MESSAGES_DEBUG": "all"]))
        XCTAssertTrue(GLibLogRouting.debugMessagesWanted(for: "OsmGpsMap", environment: ["G_MESSAGES_DEBUG": "Gtk,OsmGpsMap"]))
        XCTAssertFalse(GLibLogRouting.debugMessagesWanted(for: "OsmGpsMap", environment: ["G_MESSAGES_DEBUG": "OsmGpsMapX"]))
        XCTAssertFalse(GLibLogRouting.debugMessagesWanted(for: "OsmGpsMap", environment: [:]))
    }
}
