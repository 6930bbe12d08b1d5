#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CGdkPixbuf
import Foundation

/// Whether a photo file holds a whole picture the album can show: one that does not decode whole is unreadable
/// (counted, never shown). gdk-pixbuf decodes a truncated JPEG without an error, filling the missing part with grey,
/// and decoding every photo while indexing would cost seconds per thousand; so a JPEG or PNG is read only at its
/// markers (its header segments up to the image data, then its last bytes), and any other format must be one a
/// gdk-pixbuf loader on this machine recognises (RAW files usually are not).
enum WholePicture {
    static func check(path: String, size: Int64) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        guard let head = try? file.read(upToCount: 16), head.count >= 8 else { return false }
        if head.starts(with: [0xFF, 0xD8, 0xFF]) { return jpegIsWhole(file, size: size) }
        if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return pngIsWhole(file, size: size) }
        if head.count >= 12, head.starts(with: Array("RIFF".utf8)), head[8..<12].elementsEqual("WEBP".utf8) {
            // RIFF's size counts the bytes after its first 8.
            let declared = Int64(head[4]) | Int64(head[5]) << 8 | Int64(head[6]) << 16 | Int64(head[7]) << 24
            return declared + 8 <= size && gdkPixbufRecognises(path)
        }
        return gdkPixbufRecognises(path)
    }

    /// The header segments, each by its length, up to the first scan (the image data); then an end-of-image marker
    /// after it: the file's last two bytes, or, where data follows the picture (a phone's motion photo appends its
    /// video), one found reading on from the scan. In the image data 0xFF is always followed by 0x00 or a restart
    /// marker, so 0xFF 0xD9 there is the end.
    private static func jpegIsWhole(_ file: FileHandle, size: Int64) -> Bool {
        var offset: UInt64 = 2
        var scan: UInt64?
        while scan == nil {
            guard (try? file.seek(toOffset: offset)) != nil, let marker = try? file.read(upToCount: 4), marker.count == 4,
                  marker[0] == 0xFF else { return false }
            let kind = marker[1]
            if kind == 0xFF { offset += 1; continue } // fill bytes before a marker
            if kind == 0xD9 { return false } // ended before any picture
            let length = UInt64(marker[2]) << 8 | UInt64(marker[3])
            guard length >= 2 else { return false }
            if kind == 0xDA { scan = offset + 2 + length }
            offset += 2 + length
            guard offset < UInt64(size) else { return false }
        }
        guard let scan else { return false }
        if (try? file.seek(toOffset: UInt64(size) - 2)) != nil, let tail = try? file.read(upToCount: 2),
           tail.elementsEqual([0xFF, 0xD9]) {
            return true
        }
        guard (try? file.seek(toOffset: scan)) != nil else { return false }
        var previous: UInt8 = 0
        while let chunk = try? file.read(upToCount: 1 << 20), !chunk.isEmpty {
            for byte in chunk {
                if previous == 0xFF, byte == 0xD9 { return true }
                previous = byte
            }
        }
        return false
    }

    /// The file ends with PNG's IEND chunk, or its chunks, each by its length, lead to one.
    private static func pngIsWhole(_ file: FileHandle, size: Int64) -> Bool {
        let end: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        if size >= 8 + 12, (try? file.seek(toOffset: UInt64(size) - 12)) != nil, let tail = try? file.read(upToCount: 12),
           tail.elementsEqual(end) {
            return true
        }
        var offset: UInt64 = 8
        var sawData = false
        while offset + 12 <= UInt64(size) {
            guard (try? file.seek(toOffset: offset)) != nil, let header = try? file.read(upToCount: 8), header.count == 8 else { return false }
            let length = header[0..<4].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if type == "IDAT" { sawData = true }
            if type == "IEND" { return sawData }
            offset += 12 + length
        }
        return false
    }

    /// A gdk-pixbuf loader knows the format and reads its size (only the header is read).
    private static func gdkPixbufRecognises(_ path: String) -> Bool {
        var width: Int32 = 0, height: Int32 = 0
        return gdk_pixbuf_get_file_info(path, &width, &height) != nil && width > 0 && height > 0
    }
}
