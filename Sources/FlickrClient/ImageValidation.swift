import Foundation

/// Decides whether a downloaded body is a photo worth keeping, and in which format. Runs off the
/// main thread. The app passes one that also decodes the image, at the size it shows it, and keeps
/// that decode (`ValidatedImage.keep`; `ImageValidation.check` is the structural part both share).
public typealias ImageValidator = @Sendable (Data) -> Result<ValidatedImage, FlickrError>

/// A body that passed its validator: its format, and what keeps the validator's decode, if it decoded it.
public struct ValidatedImage: Sendable {
    public var format: ImageValidation.Format
    /// Keeps the validator's decode for the file once the file has its lasting path (the path its owner names it
    /// by), so that it is not decoded again; nil if there is nothing to keep. This module knows no image library.
    public var keep: (@Sendable (_ path: String) -> Void)?

    public init(format: ImageValidation.Format, keep: (@Sendable (_ path: String) -> Void)? = nil) {
        self.format = format
        self.keep = keep
    }
}

/// Checks that a downloaded body is a whole image before it is kept.
public enum ImageValidation {
    public enum Format: String, Sendable {
        case jpeg, png, gif, webp

        /// The file name extension a file of this format carries.
        public var fileExtension: String {
            switch self {
            case .jpeg: return "jpg"
            case .png: return "png"
            case .gif: return "gif"
            case .webp: return "webp"
            }
        }
    }

    /// The format announced by the body's first bytes, or `nil` (HTML error pages, JSON, empty bodies).
    public static func format(of data: Data) -> Format? {
        let bytes = [UInt8](data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.count == 12, bytes.starts(with: Array("RIFF".utf8)), bytes[8...].elementsEqual("WEBP".utf8) { return .webp }
        return nil
    }

    /// The structural check: a known format whose end marker is present. A decoder is lenient with
    /// a body cut short (it paints the missing part grey), so the end marker is what proves the
    /// image arrived whole.
    @Sendable public static func check(_ data: Data) -> Result<Format, FlickrError> {
        guard let format = format(of: data) else { return .failure(.notAnImage) }
        return isComplete(data, format: format) ? .success(format) : .failure(.unusableImage(.truncated))
    }

    /// `check` as a validator that decodes nothing (where no image library is at hand).
    @Sendable public static func structural(_ data: Data) -> Result<ValidatedImage, FlickrError> {
        check(data).map { ValidatedImage(format: $0) }
    }

    /// Whether the body ends the way a whole image of `format` ends.
    public static func isComplete(_ data: Data, format: Format) -> Bool {
        switch format {
        case .jpeg:
            // EOI (FF D9); some encoders pad after it, so trailing zero bytes are allowed.
            let trimmed = data.reversed().drop(while: { $0 == 0x00 }).prefix(2)
            return Array(trimmed) == [0xD9, 0xFF]
        case .png:
            return data.suffix(12).elementsEqual(pngEnd)
        case .gif:
            return data.last == 0x3B // the trailer
        case .webp:
            guard data.count >= 12 else { return false }
            let size = data.subdata(in: data.startIndex + 4 ..< data.startIndex + 8)
                .enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
            return data.count >= size + 8
        }
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// An empty IEND chunk: length 0, type, CRC.
    private static let pngEnd: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
}
