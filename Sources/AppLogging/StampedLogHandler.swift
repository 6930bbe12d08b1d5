import Foundation
import Logging

/// The desktop apps' log: one line per message on standard error, as swift-log's `StreamLogHandler` writes them,
/// but stamped to the microsecond (`2026-11-26T03:40:02.123456+0000 trace virtual-tourist: [TouristUI] …`), so that
/// what happened within one frame can be told apart and timed from the log alone, wherever it was written to (a
/// file, the journal, a terminal). Each line goes out in one `write`, whole, whichever thread logs it.
public struct StampedLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata = Logger.Metadata()

    private let label: String
    private let descriptor: Int32

    /// Writes to `descriptor` (standard error unless told otherwise), which it does not own.
    public init(label: String, descriptor: Int32 = STDERR_FILENO) {
        self.label = label
        self.descriptor = descriptor
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let explicit = event.metadata { merged.merge(explicit) { _, explicit in explicit } }
        if let error = event.error { merged["error.message"] = "\(error)" }
        let pretty = merged.isEmpty ? "" : " " + merged.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }
            .joined(separator: " ")
        let line = "\(Self.timestamp()) \(event.level) \(label):\(pretty) [\(event.source)] \(event.message)\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result > 0 {
                    written += result
                } else if result < 0 && errno == EINTR {
                    continue
                } else {
                    return // a closed or full log loses the line, never the app
                }
            }
        }
    }

    /// Local time with microseconds and the zone's offset, as ISO 8601 writes it.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var local = tm()
        var seconds = now.tv_sec
        localtime_r(&seconds, &local)
        var buffer = [UInt8](repeating: 0, count: 40)
        let dateLength = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { strftime($0.baseAddress, 32, "%Y-%m-%dT%H:%M:%S", &local) }
        }
        var zone = [UInt8](repeating: 0, count: 8)
        let zoneLength = zone.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { strftime($0.baseAddress, $0.count, "%z", &local) }
        }
        let microseconds = String(now.tv_nsec / 1000)
        let padded = String(repeating: "0", count: 6 - microseconds.count) + microseconds
        return String(decoding: buffer.prefix(dateLength), as: UTF8.self) + "." + padded
            + String(decoding: zone.prefix(zoneLength), as: UTF8.self)
    }
}
