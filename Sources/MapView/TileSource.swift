import Foundation
import Translations

/// Where map tiles come from and where they are cached. OpenStreetMap unless an environment
/// variable (`VIRTUAL_TOURIST_TILE_URL`, `ON_THE_MAP_TILE_URL`) names another server.
public struct TileSource: Equatable, Sendable {
    public static let environmentVariable = "VIRTUAL_TOURIST_TILE_URL"
    public static let openStreetMapTemplate = "https://tile.openstreetmap.org/#Z/#X/#Y.png"
    public static let openStreetMap = TileSource(template: openStreetMapTemplate, cacheFolderName: "openstreetmap")

    /// An osm-gps-map URL template (#X #Y #Z #S #Q #Q0 #R tokens).
    public let template: String
    /// Sub-folder of the tile cache: tiles from different servers never mix.
    public let cacheFolderName: String

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notHTTP(String)
        case missingTokens(String)

        /// Says what is wrong with the variable's value, naming the variable.
        public func description(variable: String) -> String {
            switch self {
            case .notHTTP(let value):
                // Translators: %1$@=%2$@ is an environment variable and its value.
                return formatted(tr("%1$@=%2$@ is not an http:// or https:// address; using OpenStreetMap instead."), variable, value)
            case .missingTokens(let value):
                // Translators: %1$@=%2$@ is an environment variable and its value; #X, #Y, #Z and #Q stay as they are.
                return formatted(tr("%1$@=%2$@ must contain #X, #Y and #Z (or #Q); using OpenStreetMap instead."), variable, value)
            }
        }

        public var description: String { description(variable: TileSource.environmentVariable) }
    }

    /// Reads the environment; a bad value falls back to OpenStreetMap and says why.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment,
                                       variable: String = environmentVariable)
        -> (source: TileSource, problem: Problem?) {
        guard let value = environment[variable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return (.openStreetMap, nil)
        }
        switch custom(template: value) {
        case .success(let source): return (source, nil)
        case .failure(let problem): return (.openStreetMap, problem)
        }
    }

    public static func custom(template: String) -> Result<TileSource, Problem> {
        let lower = template.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
            return .failure(.notHTTP(template))
        }
        let hasXYZ = template.contains("#X") && template.contains("#Y") && (template.contains("#Z") || template.contains("#S"))
        let hasQuadKey = template.contains("#Q")
        guard hasXYZ || hasQuadKey else { return .failure(.missingTokens(template)) }
        if template == openStreetMapTemplate { return .success(.openStreetMap) }
        return .success(TileSource(template: template, cacheFolderName: "custom-" + stableHash(template)))
    }

    /// FNV-1a: stable across runs (Swift's Hasher is seeded per process).
    static func stableHash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
