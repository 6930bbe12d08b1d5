import Foundation

/// One map tile in the XYZ (slippy map) scheme: y grows southwards, as osm-gps-map and OpenStreetMap count.
public struct TileID: Hashable, Sendable, CustomStringConvertible {
    public static let size = 256

    public let zoom: Int
    public let x: Int
    public let y: Int

    public init(zoom: Int, x: Int, y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    public var description: String { "\(zoom)/\(x)/\(y)" }

    /// Tiles across (and down) the world at this tile's zoom level.
    public var tilesPerSide: Int { 1 << zoom }

    /// The tile at `level` (≤ zoom) that contains this one.
    public func ancestor(atZoom level: Int) -> TileID {
        precondition(level >= 0 && level <= zoom, "an ancestor is at a lower zoom level")
        let shift = zoom - level
        return TileID(zoom: level, x: x >> shift, y: y >> shift)
    }

    /// The tiles that cover a view of `width` × `height` pixels whose top-left corner is the world pixel
    /// (`originX`, `originY`) at `zoom`, plus `margin` rings around it (where the user is likely to pan next),
    /// nearest the view's centre first. Tiles outside the world are left out (the map paints them white).
    public static func covering(originX: Int, originY: Int, width: Int, height: Int, zoom: Int,
                                margin: Int = 1) -> [TileID] {
        guard width > 0, height > 0, zoom >= 0 else { return [] }
        let side = 1 << zoom
        let firstX = max(floorDivide(originX, size) - margin, 0)
        let lastX = min(floorDivide(originX + width - 1, size) + margin, side - 1)
        let firstY = max(floorDivide(originY, size) - margin, 0)
        let lastY = min(floorDivide(originY + height - 1, size) + margin, side - 1)
        guard firstX <= lastX, firstY <= lastY else { return [] }
        let centreX = Double(originX) + Double(width) / 2
        let centreY = Double(originY) + Double(height) / 2
        var tiles: [(TileID, Double)] = []
        for x in firstX...lastX {
            for y in firstY...lastY {
                let dx = (Double(x) + 0.5) * Double(size) - centreX
                let dy = (Double(y) + 0.5) * Double(size) - centreY
                tiles.append((TileID(zoom: zoom, x: x, y: y), dx * dx + dy * dy))
            }
        }
        return tiles.sorted { $0.1 < $1.1 }.map(\.0)
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}

/// A tile server's address template with osm-gps-map's tokens, turned into one tile's URL the way the map does.
public struct TileURLTemplate: Sendable, Equatable {
    public let template: String
    /// The map's deepest zoom level (the `#S` token counts down from it).
    public let maxZoom: Int

    public init(_ template: String, maxZoom: Int) {
        self.template = template
        self.maxZoom = maxZoom
    }

    public func url(for tile: TileID) -> URL? {
        var text = template
        // #Q0 before #Q: one is a prefix of the other.
        text = text.replacingOccurrences(of: "#Q0", with: Self.quadKey(tile, digits: "0123", prefix: ""))
        text = text.replacingOccurrences(of: "#Q", with: Self.quadKey(tile, digits: "qrts", prefix: "t"))
        text = text.replacingOccurrences(of: "#X", with: String(tile.x))
        text = text.replacingOccurrences(of: "#Y", with: String(tile.y))
        text = text.replacingOccurrences(of: "#Z", with: String(tile.zoom))
        text = text.replacingOccurrences(of: "#S", with: String(maxZoom - tile.zoom))
        text = text.replacingOccurrences(of: "#R", with: String(Int.random(in: 0...3)))
        return URL(string: text)
    }

    static func quadKey(_ tile: TileID, digits: String, prefix: String) -> String {
        let symbols = Array(digits)
        var key = prefix
        for bit in stride(from: tile.zoom - 1, through: 0, by: -1) {
            let xBit = (tile.x >> bit) & 1
            let yBit = (tile.y >> bit) & 1
            key.append(symbols[xBit + 2 * yBit])
        }
        return key
    }
}
