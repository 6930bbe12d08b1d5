import CGtk
import Foundation
import GLibSwift

/// Images like the window's (on X11, in memory shared with the X server), kept and used again, for the album's
/// photos. A picture made in plain memory is sent to the display whenever it is drawn: thirty of them cost the
/// album's first frame ~3 ms more than thirty in shared memory. But making a shared image costs the main thread
/// its page faults and zeroing, so they are made ahead (`prepare`, a few per turn of the main loop while nothing
/// else is happening) and taken back when GTK lets go of them.
///
/// Main thread only, but for images lent to the threads that read an album's kept pictures (`lend`), which read them
/// straight into the display's memory: none to fault in, nothing to copy on the main thread.
@MainActor
final class DisplayImages {
    private struct Kind: Hashable {
        var format: cairo_format_t.RawValue
        var width: Int32, height: Int32, scale: Int32
    }

    /// Each image is the pool's (one reference) and, while a tile shows it, the tile's image widget's too.
    private var images: [Kind: [OpaquePointer]] = [:]
    /// More than an album's worth, for an album replaced by another while the old one's tiles are still going.
    let capacity: Int
    private let window: () -> OpaquePointer?
    private var preparing: Timeout?

    /// - parameter window: the GDK window the images will be drawn into (a toplevel's: every widget of it draws
    ///   there), nil while there is none.
    init(capacity: Int = 64, window: @escaping () -> OpaquePointer?) {
        self.capacity = capacity
        self.window = window
    }

    /// How many images are kept (tests).
    var count: Int { images.values.reduce(0) { $0 + $1.count } }

    /// `picture` in an image like the window's, as a new reference for the caller; nil while there is no window
    /// (draw `picture` itself then).
    func copy(of picture: PaintablePicture) -> OpaquePointer? {
        let kind = Kind(format: cairo_image_surface_get_format(picture.surface).rawValue, width: picture.width,
                        height: picture.height, scale: picture.scale)
        guard let target = free(kind) ?? make(kind) else { return nil }
        let cr = cairo_create(target)!
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_set_source_surface(cr, picture.surface, 0, 0)
        cairo_paint(cr)
        cairo_destroy(cr)
        guard cairo_surface_status(target) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(target)
            return nil
        }
        return target
    }

    /// Up to `count` of the kept images nobody holds, for opaque photos of `side`×`side` device pixels at `scale`,
    /// lent until `LentImages.release` (none are made: making one costs this thread its page faults). Nil if there
    /// are none.
    func lend(count: Int, side: Int32, scale: Int32) -> LentImages? {
        let kind = Kind(format: CAIRO_FORMAT_RGB24.rawValue, width: side, height: side, scale: scale)
        var lent: [LentImages.Image] = []
        for image in images[kind, default: []] where lent.count < count && cairo_surface_get_reference_count(image) == 1 {
            guard let data = cairo_image_surface_get_data(image) else { continue }
            cairo_surface_flush(image) // waits, if the display is still reading it
            lent.append(LentImages.Image(surface: cairo_surface_reference(image), data: data,
                                         stride: cairo_image_surface_get_stride(image)))
        }
        guard !lent.isEmpty else { return nil }
        return LentImages(lent, side: side, scale: scale)
    }

    /// Makes images ahead, up to `count` of the kind an opaque photo of `side`×`side` device pixels at `scale`
    /// needs, `perTurn` at a time in idle turns of the main loop.
    func prepare(count: Int, side: Int32, scale: Int32, perTurn: Int = 4) {
        let kind = Kind(format: CAIRO_FORMAT_RGB24.rawValue, width: side, height: side, scale: scale)
        let wanted = min(count, capacity)
        guard preparing == nil, images[kind, default: []].count < wanted else { return }
        preparing = Timeout.whenIdle { [weak self] in
            guard let self else { return }
            self.preparing = nil
            var made = 0
            while made < perTurn, self.images[kind, default: []].count < wanted, let image = self.make(kind) {
                cairo_surface_destroy(image) // the pool's reference stays
                made += 1
            }
            if made == perTurn { self.prepare(count: count, side: side, scale: scale, perTurn: perTurn) }
        }
    }

    /// Lets go of every image (the window is going).
    func removeAll() {
        preparing?.cancel()
        preparing = nil
        for image in images.values.joined() { cairo_surface_destroy(image) }
        images = [:]
    }

    /// A kept image nobody else holds, as a new reference, its last use by the display finished.
    private func free(_ kind: Kind) -> OpaquePointer? {
        guard let image = images[kind]?.first(where: { cairo_surface_get_reference_count($0) == 1 }) else { return nil }
        cairo_surface_flush(image) // waits, if the display is still reading it
        return cairo_surface_reference(image)
    }

    /// A new image (kept too, while there is room), as a new reference; its memory touched once, so that the
    /// page faults happen now rather than when a photo is copied in.
    private func make(_ kind: Kind) -> OpaquePointer? {
        guard let window = window(),
              let image = gdk_window_create_similar_image_surface(window, cairo_format_t(rawValue: kind.format),
                                                                  kind.width, kind.height, kind.scale) else { return nil }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(image)
            return nil
        }
        let cr = cairo_create(image)!
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_paint(cr)
        cairo_destroy(cr)
        if count < capacity {
            images[kind, default: []].append(cairo_surface_reference(image))
        }
        return image
    }
}

/// Images like the window's, lent by `DisplayImages.lend` to the threads reading an album's kept pictures
/// (`ThumbnailCache.load`). Each holds a reference of its own to its image, which its taker keeps (as the picture it
/// read into it: `PaintablePicture`) or gives back.
final class LentImages: @unchecked Sendable {
    // @unchecked: `free` is guarded by `lock`. An image taken from it is its taker's alone until it is given back or
    // goes to the main thread as a picture; no other thread touches its pixels or its cairo object meanwhile (the
    // display finished reading it before it was lent).
    struct Image: @unchecked Sendable {
        let surface: OpaquePointer
        let data: UnsafeMutablePointer<UInt8>
        let stride: Int32
    }

    /// In device pixels.
    let side: Int32
    let scale: Int32
    private let lock = NSLock()
    private var free: [Image]

    fileprivate init(_ images: [Image], side: Int32, scale: Int32) {
        free = images
        self.side = side
        self.scale = scale
    }

    /// An image to read a picture into, if one is left.
    func take() -> Image? {
        lock.withLock { free.popLast() }
    }

    /// `image` was not used after all.
    func giveBack(_ image: Image) {
        lock.withLock { free.append(image) }
    }

    /// A picture `write` put into one of the images, if one of `side` device pixels at `scale` is left and `write`
    /// filled it (true); the image is given back otherwise.
    func fill(side: Int32, scale: Int32, _ write: (Image) -> Bool) -> PaintablePicture? {
        guard side == self.side, scale == self.scale, let image = take() else { return nil }
        guard write(image) else {
            giveBack(image)
            return nil
        }
        return PaintablePicture(writtenInto: image, side: side, scale: scale)
    }

    /// Lets go of the images nobody kept (their last reference is the pool's: nothing is freed, so nothing talks to
    /// the display off the main thread).
    @MainActor
    func release() {
        letGo()
    }

    /// Unreleased, they are let go of here, wherever the last reference goes (with the pool still holding them, that
    /// frees nothing either).
    deinit {
        letGo()
    }

    private func letGo() {
        let left = lock.withLock {
            defer { free = [] }
            return free
        }
        for image in left { cairo_surface_destroy(image.surface) }
    }
}
