import CGtk
import FlickrClient
import Foundation
import GLibSwift

/// A decoded image that can cross threads: decoded off the main thread, shown on it.
final class DecodedPixbuf: @unchecked Sendable {
    // @unchecked: the pixbuf is immutable once decoded; only its reference count changes (atomic).
    let pixbuf: OpaquePointer

    init(adopting pixbuf: OpaquePointer) { self.pixbuf = pixbuf }

    deinit { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
}

/// A picture made ready to paint off the main thread: a cairo image surface in cairo's own pixel format,
/// at `scale` device pixels per point. The main thread only hands it to GTK (`PhotoTile`).
final class PaintablePicture: @unchecked Sendable {
    // @unchecked: made whole on one thread, then only read (painted from) on the GTK thread.
    let surface: OpaquePointer
    /// In device pixels.
    let width: Int32, height: Int32
    let scale: Int32

    /// `surface`, an image surface made elsewhere (on any thread), whose reference it takes.
    init(adopting surface: OpaquePointer, scale: Int32) {
        cairo_surface_set_device_scale(surface, Double(scale), Double(scale))
        self.surface = surface
        width = cairo_image_surface_get_width(surface)
        height = cairo_image_surface_get_height(surface)
        self.scale = scale
    }

    deinit { cairo_surface_destroy(surface) }
}

/// Decoding and scaling photos with GdkPixbuf, which is safe off the main thread for separate images.
public enum ImageDecoding {
    /// Call on the main thread at start-up; decoding calls it too (gdk-pixbuf's first use: `ImageLoaders.prepare`).
    public static func prepare() {
        ImageLoaders.prepare()
    }

    /// More pixels than any photo Virtual Tourist shows needs (a 40-megapixel camera's full size).
    public static let maxPixels: Int64 = 40_000_000

    /// The downloader's check of a photo body (`ImageValidation.check`, then a decode at the grid's `side`), which is
    /// also the photo's one decode: kept as its grid picture (`pictures`) once the album has the file.
    static func photoValidator(side: Int32, pictures: AlbumPictures?) -> ImageValidator {
        { (data: Data) -> Result<ValidatedImage, FlickrError> in
            ImageValidation.check(data).flatMap { (format: ImageValidation.Format) -> Result<ValidatedImage, FlickrError> in
                squareThumbnail(data: data, side: side).map { (decoded: DecodedPixbuf) -> ValidatedImage in
                    guard let pictures else { return ValidatedImage(format: format) }
                    return ValidatedImage(format: format, keep: { relativePath in pictures.keep(decoded, of: relativePath) })
                }
            }
        }
    }

    /// The check of a photo viewer's bigger size, which is also its decode: as `photoValidator`,
    /// decoded with its shorter side at most `shorterSide` device pixels instead of cropped, and kept for the viewer.
    static func largePhotoValidator(shorterSide: Int32, keepingIn decodes: LargePhotoDecodes) -> ImageValidator {
        { (data: Data) -> Result<ValidatedImage, FlickrError> in
            ImageValidation.check(data).flatMap { (format: ImageValidation.Format) -> Result<ValidatedImage, FlickrError> in
                decode(data, shorterSide: shorterSide).map { (decoded: DecodedPixbuf) -> ValidatedImage in
                    ValidatedImage(format: format, keep: { path in decodes.keep(decoded, at: path) })
                }
            }
        }
    }

    /// A viewer's photo from its file, as `largePhotoValidator` decodes it.
    static func largePhoto(path: String, shorterSide: Int32) -> DecodedPixbuf? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? decode(data, shorterSide: shorterSide).get()
    }

    /// The photo check alone, at the grid's size on a screen of scale 1 (tests).
    static func validatePhoto(_ data: Data) -> Result<ImageValidation.Format, FlickrError> {
        photoValidator(side: PhotoTile.side, pictures: nil)(data).map(\.format)
    }

    /// The image at `path`, scaled and centre-cropped to a `side`×`side` square.
    static func squareThumbnail(path: String, side: Int32) -> DecodedPixbuf? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? squareThumbnail(data: data, side: side).get()
    }

    /// `data` centre-cropped to a square and scaled to `side`×`side`. It is never decoded at full size
    /// when it need not be: a JPEG at the smallest of libjpeg's own steps (1/2, 1/4, 1/8) that still covers
    /// the square, other formats at the square's size (gdk-pixbuf scales while loading). Then one scale,
    /// of the square only.
    static func squareThumbnail(data: Data, side: Int32) -> Result<DecodedPixbuf, FlickrError> {
        decode(data, shorterSide: side, fit: .atLeast).flatMap { decoded in
            cropSquare(decoded.pixbuf, side: side).map { .success($0) } ?? .failure(.unusableImage(.damaged))
        }
    }

    private static func cropSquare(_ original: OpaquePointer, side: Int32) -> DecodedPixbuf? {
        let width = gdk_pixbuf_get_width(original), height = gdk_pixbuf_get_height(original)
        let shorter = min(width, height)
        guard shorter > 0, side > 0,
              let square = gdk_pixbuf_new_subpixbuf(original, (width - shorter) / 2, (height - shorter) / 2,
                                                    shorter, shorter) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(square)) }
        // A copy of its own either way: the decoded image is not kept alive behind a square of it.
        let result = shorter == side ? gdk_pixbuf_copy(square)
                                     : gdk_pixbuf_scale_simple(square, side, side, GDK_INTERP_BILINEAR)
        return result.map { DecodedPixbuf(adopting: $0) }
    }

    /// The largest of libjpeg's steps (1, 2, 4, 8) that keeps a shorter side of `shorter` pixels at least
    /// `side` (libjpeg rounds up).
    static func jpegStep(shorter: Int32, side: Int32) -> Int32 {
        var step: Int32 = 1
        while step < 8, (shorter + 2 * step - 1) / (2 * step) >= side { step *= 2 }
        return step
    }

    /// How `decode` sizes an image by its shorter side.
    enum Fit {
        /// At most the size asked for: scaled down to it while loading.
        case exact
        /// At least the size asked for, at a size the decoder reaches by itself (JPEG's DCT scaling), so that
        /// gdk-pixbuf does not scale it again after loading: the caller scales once, after cropping.
        case atLeast
    }

    /// Decodes `data` with its shorter side at most `shorterSide` (or, `fit: .atLeast`, at least that at the
    /// decoder's own step); an image whose header announces more than `maxPixels` is refused before any pixel
    /// is decoded.
    static func decode(_ data: Data, shorterSide: Int32, fit: Fit = .exact) -> Result<DecodedPixbuf, FlickrError> {
        prepare()
        guard let loader = gdk_pixbuf_loader_new() else { return .failure(.unusableImage(.damaged)) }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let header = HeaderCheck(maxPixels: maxPixels, side: shorterSide, fit: fit)
        let sizePrepared: @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, UnsafeMutableRawPointer?) -> Void = {
            loader, width, height, data in
            ClosureBox<HeaderCheck>.from(data).body.sizePrepared(loader, width, height)
        }
        // On this (decoding) thread, during the loader's writes below: the box is released with the loader.
        g_signal_connect_data(UnsafeMutableRawPointer(loader), "size-prepared",
                              unsafeBitCast(sizePrepared, to: GCallback.self), ClosureBox(header).retainedPointer(),
                              ClosureBox<HeaderCheck>.closureNotify, GConnectFlags(rawValue: 0))
        var error: UnsafeMutablePointer<GError>?
        let written = data.withUnsafeBytes { bytes -> Bool in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return false }
            return gdk_pixbuf_loader_write(loader, base, gsize(bytes.count), &error) != 0
        }
        if let error { g_error_free(error) }
        error = nil
        let closed = gdk_pixbuf_loader_close(loader, &error) != 0
        if let error { g_error_free(error) }
        if header.refused { return .failure(.unusableImage(.tooManyPixels(width: header.width, height: header.height))) }
        guard written, closed, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            return .failure(.unusableImage(.damaged))
        }
        // Turned as the camera was held (EXIF orientation, which the JPEG loader reads); a new reference either way,
        // as the loader's goes with the loader.
        guard let upright = gdk_pixbuf_apply_embedded_orientation(pixbuf) else { return .failure(.unusableImage(.damaged)) }
        return .success(DecodedPixbuf(adopting: upright))
    }

    /// Sees the image's size from its header (gdk-pixbuf's `size-prepared`, before any pixel is
    /// decoded) and refuses, or shrinks, the decode that follows.
    private final class HeaderCheck: @unchecked Sendable {
        // @unchecked: used by one loader on one thread, during one decode.
        let maxPixels: Int64
        let side: Int32
        let fit: Fit
        var width = 0, height = 0
        var refused = false

        init(maxPixels: Int64, side: Int32, fit: Fit) {
            self.maxPixels = maxPixels
            self.side = side
            self.fit = fit
        }

        func sizePrepared(_ loader: UnsafeMutablePointer<GdkPixbufLoader>?, _ width: Int32, _ height: Int32) {
            self.width = Int(width)
            self.height = Int(height)
            if width <= 0 || height <= 0 || Int64(width) * Int64(height) > maxPixels {
                refused = width > 0 && height > 0
                gdk_pixbuf_loader_set_size(loader, 0, 0) // a size of 0 stops the decoder before it allocates
                return
            }
            if fit == .atLeast, let format = gdk_pixbuf_loader_get_format(loader),
               let name = gdk_pixbuf_format_get_name(format) {
                defer { g_free(name) }
                if String(cString: name) == "jpeg" {
                    // gdk-pixbuf's JPEG loader takes the smallest of libjpeg's steps that is at least the size
                    // asked for; asked for exactly that step's size, it leaves the image as libjpeg made it.
                    let step = ImageDecoding.jpegStep(shorter: min(width, height), side: side)
                    gdk_pixbuf_loader_set_size(loader, (width + step - 1) / step, (height + step - 1) / step)
                    return
                }
            }
            let scale = min(1, Double(side) / Double(min(width, height)))
            gdk_pixbuf_loader_set_size(loader, max(1, Int32(Double(width) * scale)), max(1, Int32(Double(height) * scale)))
        }
    }
}
