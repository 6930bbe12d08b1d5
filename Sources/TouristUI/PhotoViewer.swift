import CGtk
import FlickrClient
import Foundation
import GLibSwift
import Layouts
import Logging
import TouristAlbums
import TouristStore
import Translations

extension Photo {
    /// One of the user's own photos shown through the album's viewer: no Flickr photo, its file where the user keeps it.
    var isOwnPhoto: Bool { flickrId.isEmpty && remoteURL.isEmpty }
    /// The date an own photo whose file names no time taken is carried with: shown as no date at all.
    static let undated = Date.distantPast
}

/// A camera's time as its file says it (EXIF keeps the wall clock, without a zone): the day, the user's way.
enum CameraTime {
    static func day(_ date: Date) -> String {
        date.formatted(Date.FormatStyle(date: .abbreviated, time: .omitted, locale: Translations.formattingLocale,
                                        timeZone: TimeZone(identifier: "UTC")!))
    }
}

/// A large view of an album's photos, one at a time: the grid's file at once, then Flickr's bigger size. A window
/// of its own over the album, so the grid's single click keeps deleting.
@MainActor
final class PhotoViewer {
    /// Decodes are at most this many device pixels on their shorter side (Flickr's `url_b` is 1024 on its longer).
    nonisolated static let largestShorterSide: Int32 = 1600

    let window: UnsafeMutablePointer<GtkWidget>
    private let lifetime: WidgetLifetime
    private let headerBar: UnsafeMutablePointer<GtkWidget>
    private let canvas: UnsafeMutablePointer<GtkWidget>
    private let spinner: UnsafeMutablePointer<GtkWidget>
    private let infoLabel: UnsafeMutablePointer<GtkWidget>
    private let previousButton: UnsafeMutablePointer<GtkWidget>
    private let nextButton: UnsafeMutablePointer<GtkWidget>
    private let openButton: UnsafeMutablePointer<GtkWidget>
    private let swipe: OpaquePointer

    private let photos: [Photo]
    private let resolvePath: (String) -> String
    private let largePhotos: LargePhotos?
    private let logger: Logger
    private(set) var index: Int
    private var image: DecodedPixbuf?
    private var loading: Task<Void, Never>?
    /// Whether the bigger size is on screen (tests, and the status line).
    private(set) var showsLargeSize = false

    /// `photos`: the album's downloaded photos in order; `index`: the one to show first.
    init(photos: [Photo], index: Int, parent: UnsafeMutablePointer<GtkWidget>?, resolvePath: @escaping (String) -> String,
         largePhotos: LargePhotos?, logger: Logger) {
        self.photos = photos
        self.index = min(max(0, index), max(0, photos.count - 1))
        self.resolvePath = resolvePath
        self.largePhotos = largePhotos
        self.logger = logger

        // The layout is data/ui/photo-viewer.ui.
        let layout = Layouts.builder("photo-viewer")
        window = layout.object("photo-viewer")
        lifetime = WidgetLifetime(window)
        headerBar = layout.object("header-bar")
        previousButton = layout.object("previous-button")
        nextButton = layout.object("next-button")
        openButton = layout.object("open-button")
        canvas = layout.object("canvas")
        spinner = layout.object("spinner")
        infoLabel = layout.object("info")
        if let parent {
            gtk_window_set_transient_for(window.cast(), parent.cast())
            gtk_window_set_modal(window.cast(), 1)
            gtk_window_set_destroy_with_parent(window.cast(), 1)
            gtk_window_set_position(window.cast(), GTK_WIN_POS_CENTER_ON_PARENT)
        }

        // A swipe (touch, or a quick mouse drag) goes through the album like the arrows.
        gtk_widget_add_events(canvas, Int32(GDK_BUTTON_PRESS_MASK.rawValue | GDK_BUTTON_RELEASE_MASK.rawValue
                                            | GDK_BUTTON_MOTION_MASK.rawValue | GDK_TOUCH_MASK.rawValue))
        swipe = gtk_gesture_swipe_new(canvas)
        gtk_event_controller_set_propagation_phase(swipe, GTK_PHASE_BUBBLE)

        canvas.connect(.draw) { [weak self] cairo in
            self?.draw(cairo)
            return true
        }
        previousButton.connect(.clicked) { [weak self] in self?.step(-1) }
        nextButton.connect(.clicked) { [weak self] in self?.step(1) }
        openButton.connect(.clicked) { [weak self] in self?.openOnFlickr() }
        window.connect(.keyPress) { [weak self] event in self?.keyPressed(event) ?? false }
        swipe.connect(.swipe) { [weak self] velocityX, velocityY in
            guard abs(velocityX) > 300, abs(velocityX) > abs(velocityY) * 1.5 else { return }
            self?.step(velocityX < 0 ? 1 : -1) // a swipe to the left brings the next photo
        }
        lifetime.onDestroy { [weak self] in
            guard let self else { return }
            self.loading?.cancel()
            self.loading = nil
            self.image = nil
            g_object_unref(UnsafeMutableRawPointer(self.swipe))
        }
        gtk_widget_show(window)
        show()
    }

    func present() {
        gtk_window_present(window.cast())
    }

    var photo: Photo? { photos.indices.contains(index) ? photos[index] : nil }

    // MARK: Going through the album

    func step(_ delta: Int) {
        let next = index + delta
        guard lifetime.isAlive, photos.indices.contains(next) else { return }
        index = next
        show()
    }

    private func keyPressed(_ event: UnsafeMutablePointer<GdkEvent>) -> Bool {
        let key = event.pointee.key
        let modifiers = key.state & (GDK_CONTROL_MASK.rawValue | GDK_MOD1_MASK.rawValue)
        guard modifiers == 0 else { return false }
        switch Int32(key.keyval) {
        case GDK_KEY_Left, GDK_KEY_KP_Left, GDK_KEY_Page_Up, GDK_KEY_BackSpace: step(-1)
        case GDK_KEY_Right, GDK_KEY_KP_Right, GDK_KEY_Page_Down, GDK_KEY_space: step(1)
        case GDK_KEY_Home: step(-index)
        case GDK_KEY_End: step(photos.count - 1 - index)
        case GDK_KEY_Escape: gtk_widget_destroy(window)
        default: return false
        }
        return true
    }

    private func openOnFlickr() {
        guard let photo, let url = PhotoMenu.pageURL(of: photo) else { return }
        gtk_show_uri_on_window(window.cast(), url, guint32(GDK_CURRENT_TIME), nil)
    }

    // MARK: Showing one photo

    private func show() {
        loading?.cancel()
        image = nil
        showsLargeSize = false
        gtk_widget_queue_draw(canvas)
        gtk_widget_set_sensitive(previousButton, (index > 0).gboolean)
        gtk_widget_set_sensitive(nextButton, (index < photos.count - 1).gboolean)
        guard let photo else { return }
        describe(photo)
        setInfo(nil)
        gtk_widget_set_sensitive(openButton, (PhotoMenu.pageURL(of: photo) != nil).gboolean)
        gtk_widget_set_visible(openButton, (!photo.isOwnPhoto).gboolean) // the user's own photo has no Flickr page

        let smallPath = photo.filePath.map(resolvePath)
        let largePhotos = photo.largeURL == nil ? nil : self.largePhotos
        let side = Self.largestShorterSide
        setBusy(largePhotos != nil)
        loading = Task { [weak self] in
            // The grid's file first (decoded off the main thread): something to see at once.
            if let smallPath {
                let small = await Task.detached(priority: .userInitiated) {
                    ImageDecoding.largePhoto(path: smallPath, shorterSide: side)
                }.value
                guard !Task.isCancelled else { return }
                if let small { self?.display(small, large: false) }
            }
            guard let largePhotos else { return }
            let result = await Task.detached(priority: .userInitiated) {
                await largePhotos.decoded(photo, shorterSide: side)
            }.value
            guard !Task.isCancelled, let self else { return }
            self.setBusy(false)
            switch result {
            case .success(let large):
                self.display(large, large: true)
            case .failure(.cancelled):
                break
            case .failure(let error):
                // Translators: %@ says why, e.g. "Flickr did not answer in time."
                self.setInfo(formatted(tr("Showing the smaller size: the bigger one could not be downloaded. %@"), error.userMessage))
            }
        }
    }

    private func display(_ decoded: DecodedPixbuf, large: Bool) {
        guard lifetime.isAlive else { return }
        image = decoded
        showsLargeSize = large
        gtk_widget_queue_draw(canvas)
    }

    private func describe(_ photo: Photo) {
        let title = (photo.title?.isEmpty == false) ? photo.title! : tr("Untitled photo")
        let locale = Translations.formattingLocale
        // The subtitle's parts, each whole, shown apart: who took it, its licence, where it is in the album.
        var byline: [String]
        if photo.isOwnPhoto {
            if photo.createdAt == Photo.undated {
                // Translators: under the title of one of the user's own photos whose file names no date.
                byline = [tr("Your photo")]
            } else {
                // Translators: under the title of one of the user's own photos, e.g. "Your photo, taken 1 Jun 2019".
                byline = [formatted(tr("Your photo, taken %@"), CameraTime.day(photo.createdAt))]
            }
        } else {
            byline = [(photo.ownerName ?? photo.ownerId).map {
                // Translators: under a photo's title; %@ is its photographer's Flickr name.
                formatted(tr("by %@"), $0)
            } ?? tr("by unknown")]
            if let license = FlickrLicense.name(of: photo.license) { byline.append(license) }
        }
        // Translators: the photo's place among the album's, e.g. "3 of 30".
        byline.append(formatted(tr("%1$@ of %2$@"),
                             (index + 1).formatted(.number.locale(locale)), photos.count.formatted(.number.locale(locale))))
        let subtitle = byline.joined(separator: " · ")
        gtk_window_set_title(window.cast(), title)
        gtk_header_bar_set_title(headerBar.cast(), title)
        gtk_header_bar_set_subtitle(headerBar.cast(), subtitle)
        Widgets.setAccessibleName(canvas, "\(title), \(subtitle)")
    }

    private func setInfo(_ text: String?) {
        gtk_label_set_text(infoLabel.cast(), text ?? "")
        gtk_widget_set_visible(infoLabel, (text != nil).gboolean)
    }

    private func setBusy(_ busy: Bool) {
        if busy {
            gtk_widget_show(spinner)
            gtk_spinner_start(spinner.cast())
        } else {
            gtk_spinner_stop(spinner.cast())
            gtk_widget_hide(spinner)
        }
        Widgets.setAccessibleName(spinner, busy ? tr("Loading the bigger size") : "")
    }

    /// The photo fitted into the window, centred, on the dark background the style gives.
    private func draw(_ cairo: OpaquePointer) {
        let width = Double(gtk_widget_get_allocated_width(canvas))
        let height = Double(gtk_widget_get_allocated_height(canvas))
        let context = gtk_widget_get_style_context(canvas)
        gtk_render_background(context, cairo, 0, 0, width, height)
        guard let image, width > 1, height > 1 else { return }
        // The pixbuf is in device pixels; the widget's size is in logical ones.
        let deviceScale = Double(gtk_widget_get_scale_factor(canvas))
        let imageWidth = Double(gdk_pixbuf_get_width(image.pixbuf)) / deviceScale
        let imageHeight = Double(gdk_pixbuf_get_height(image.pixbuf)) / deviceScale
        let fit = min(width / imageWidth, height / imageHeight)
        cairo_save(cairo)
        cairo_translate(cairo, (width - imageWidth * fit) / 2, (height - imageHeight * fit) / 2)
        cairo_scale(cairo, fit / deviceScale, fit / deviceScale)
        gdk_cairo_set_source_pixbuf(cairo, image.pixbuf, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cairo), fit / deviceScale < 1 ? CAIRO_FILTER_GOOD : CAIRO_FILTER_BILINEAR)
        cairo_paint(cairo)
        cairo_restore(cairo)
    }
}
