import CGtk
import Foundation
import KeptFiles

/// A grid picture on disk as cairo holds it in memory: a header, then the rows. Reading one back is a read into a new
/// image, with nothing to decode. The file's modification time is its photo's: a photo changed since is decoded again.
enum KeptPicture {
    static let suffix = ".kept"

    /// "VTKP", then the layout's version: a file of another byte order or layout does not match and is made again.
    private static let magic: UInt32 = 0x504B_5456
    private static let version: UInt32 = 2

    private struct Header {
        var magic: UInt32 = 0, version: UInt32 = 0, format: Int32 = 0, width: Int32 = 0, height: Int32 = 0, stride: Int32 = 0
    }

    /// The picture kept at `path` for the photo file at `photo` as it is now, `side` pixels square, as a new image
    /// surface; nil if there is none, it is damaged or of another size, or the photo changed since.
    static func read(path: String, side: Int32, photo: String) -> OpaquePointer? {
        guard let stamp = modified(photo) else { return nil }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        var header = Header()
        let headerSize = MemoryLayout<Header>.size
        guard fstat(descriptor, &status) == 0, status.st_mtim.tv_sec == stamp.tv_sec,
              status.st_mtim.tv_nsec == stamp.tv_nsec,
              withUnsafeMutableBytes(of: &header, { readFully(descriptor, $0.baseAddress!, headerSize) }),
              header.magic == magic, header.version == version, header.width == side, header.height == side,
              header.format == CAIRO_FORMAT_RGB24.rawValue || header.format == CAIRO_FORMAT_ARGB32.rawValue,
              Int(status.st_size) == headerSize + Int(header.stride) * Int(side) else { return nil }
        guard let surface = cairo_image_surface_create(cairo_format_t(header.format), side, side) else { return nil }
        cairo_surface_flush(surface)
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
              cairo_image_surface_get_stride(surface) == header.stride, let rows = cairo_image_surface_get_data(surface),
              readFully(descriptor, rows, Int(header.stride) * Int(side)) else {
            cairo_surface_destroy(surface)
            return nil
        }
        cairo_surface_mark_dirty(surface)
        return surface
    }

    /// Keeps `surface` (an RGB24 or ARGB32 image) at `path` as the picture of the photo file at `photo`, written whole.
    /// A failure (a full disk) costs a decode later.
    static func write(_ surface: OpaquePointer, to path: String, photo: String) {
        cairo_surface_flush(surface)
        let format = cairo_image_surface_get_format(surface)
        guard let stamp = modified(photo), // the photo is gone already
              format == CAIRO_FORMAT_RGB24 || format == CAIRO_FORMAT_ARGB32,
              let rows = cairo_image_surface_get_data(surface) else { return }
        var header = Header(magic: magic, version: version, format: format.rawValue,
                            width: cairo_image_surface_get_width(surface), height: cairo_image_surface_get_height(surface),
                            stride: cairo_image_surface_get_stride(surface))
        var bytes = withUnsafeBytes(of: &header) { Array($0) }
        bytes.append(contentsOf: UnsafeBufferPointer(start: rows, count: Int(header.stride) * Int(header.height)))
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? WholeFile.write(bytes, to: path, permissions: 0o644, modified: stamp)
    }

    /// A file's modification time, to the nanosecond; nil if it cannot be read.
    private static func modified(_ path: String) -> timespec? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return status.st_mtim
    }

    private static func readFully(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ length: Int) -> Bool {
        var done = 0
        while done < length {
            let count = Foundation.read(descriptor, buffer + done, length - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }
}
