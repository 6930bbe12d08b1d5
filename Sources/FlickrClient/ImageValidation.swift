import Foundation

/// Checks that a downloaded body is an image before it is kept.
public enum ImageValidation {
    public enum Format: String, Sendable {
        case jpeg, png, gif, webp
    }

    /// The format announced by the body's first bytes, or `nil` (HTML error pages, JSON, empty bodies).
    public static func format(of data: Data) -> Format? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.count == 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8...].elementsEqual("WEBP".utf8) { return .webp }
        return nil
    }

    /// The default validator: JPEG, PNG, GIF or WebP magic bytes. The UI passes a stricter one that
    /// decodes the image.
    @Sendable public static func hasImageSignature(_ data: Data) -> Bool {
        format(of: data) != nil
    }
}
