import CGtk
import Foundation
import GLibSwift
import KeptFiles
import Logging
import PlaceFiles
import TouristStore
import Translations

/// Places in and out: every pin written to a GPX, KML, KMZ or GeoJSON file the user names, and such a file — from
/// the menu, the command line or "Open With" — read into pins once the user agrees. Files are read and written off
/// the main loop; an import lands whole or not at all.
@MainActor
final class PlaceExchange {
    private let store: AppDatabase
    private let notification: InAppNotification
    private let logger: Logger
    /// A place this close to a pin is that pin (the album's search radius).
    private let duplicateRadiusMetres: Double
    /// The window dialogs belong to.
    var parent: () -> UnsafeMutablePointer<GtkWidget>? = { nil }
    /// New pins to show on the map.
    var onImported: ([(latitude: Double, longitude: Double)]) -> Void = { _ in }
    /// Files waiting their turn: one question at a time.
    private var waiting: [URL] = []
    private var isBusy = false

    init(store: AppDatabase, notification: InAppNotification, duplicateRadiusMetres: Double, logger: Logger) {
        self.store = store
        self.notification = notification
        self.duplicateRadiusMetres = duplicateRadiusMetres
        self.logger = logger
    }

    // MARK: Import

    func chooseFileToImport() {
        let types = PlaceFileFormat.allCases
        // GTK 3's patterns are case-sensitive, and cameras and Windows write capitals.
        let patterns = Set(types.map(\.fileExtension) + ["json"]).sorted().flatMap { ["*.\($0)", "*.\($0.uppercased())"] }
        NativeFileChooser.ask(.open, title: tr("Import Places"), acceptLabel: tr("_Import"), over: parent(),
                              filters: [.init(name: tr("Places (GPX, KML, KMZ, GeoJSON)"), patterns: patterns,
                                              mimeTypes: types.map(\.mediaType)),
                                        .init(name: tr("All Files"), patterns: ["*"])]) { [weak self] choice in
            if let choice { self?.offerImport(of: [choice.url]) }
        }
    }

    /// Reads each file and asks whether to import its places, one file after another.
    func offerImport(of files: [URL]) {
        waiting += files
        readNext()
    }

    private struct Reading: Sendable {
        var new: [ImportedPlace]
        var duplicates: Int
        var passedOver: Int
    }

    private func readNext() {
        guard !isBusy, !waiting.isEmpty else { return }
        isBusy = true
        let file = waiting.removeFirst()
        let store = self.store, radius = duplicateRadiusMetres
        Task { [weak self] in
            let result = await Task.detached(priority: .userInitiated) { () -> Result<Reading, Error> in
                do {
                    let contents = try PlaceFileReader.read(contentsOf: file)
                    let places = contents.places.map {
                        ImportedPlace(name: $0.name, latitude: $0.latitude, longitude: $0.longitude, createdAt: $0.createdAt)
                    }
                    let (new, duplicates) = try store.newPlaces(among: places, duplicateRadiusMetres: radius)
                    return .success(Reading(new: new, duplicates: duplicates, passedOver: contents.passedOver))
                } catch {
                    return .failure(error)
                }
            }.value
            self?.read(file, result)
        }
    }

    private func read(_ file: URL, _ result: Result<Reading, Error>) {
        let name = file.lastPathComponent
        switch result {
        case .failure(let error):
            logger.notice("Did not import \(file.path): \(error)")
            // Translators: %@ is a file's name.
            Alert.show(over: parent(), title: formatted(tr("“%@” could not be imported"), name),
                       message: Self.message(for: error), buttons: [Alert.ok]) { [weak self] _ in self?.finished() }
        case .success(let reading) where reading.new.isEmpty:
            let message = formatted(trn("The place in “%2$@” is already on your map.",
                                             "All %1$d places in “%2$@” are already on your map.", reading.duplicates), reading.duplicates, name)
            Alert.show(over: parent(), kind: GTK_MESSAGE_INFO, title: tr("Nothing to import"), message: message,
                       buttons: [Alert.ok]) { [weak self] _ in self?.finished() }
        case .success(let reading):
            ask(reading, from: name)
        }
    }

    private func ask(_ reading: Reading, from name: String) {
        // Translators: the title of the question asked before places from a file become pins.
        let title = formatted(trn("Import %d place?", "Import %d places?", reading.new.count),
                           reading.new.count)
        // Translators: %@ is a file's name.
        var sentences = [formatted(tr("From “%@”. They will be pins on your map, each with its album."), name)]
        if reading.duplicates > 0 {
            sentences.append(formatted(trn("%d place is already on your map and will be skipped.",
                                                "%d places are already on your map and will be skipped.", reading.duplicates), reading.duplicates))
        }
        if reading.passedOver > 0 {
            sentences.append(formatted(trn("%d entry is not a place with a position and will be passed over.",
                                                "%d entries are not places with a position and will be passed over.",
                                                reading.passedOver), reading.passedOver))
        }
        Alert.show(over: parent(), kind: GTK_MESSAGE_QUESTION, title: title, message: sentences.joined(separator: " "),
                   buttons: [Alert.Button(label: tr("Cancel"), response: GTK_RESPONSE_CANCEL),
                             Alert.Button(label: tr("Import"), response: GTK_RESPONSE_ACCEPT, suggested: true)]) { [weak self] response in
            guard let self else { return }
            if response == GTK_RESPONSE_ACCEPT { self.importPlaces(reading.new) } else { self.finished() }
        }
    }

    private func importPlaces(_ places: [ImportedPlace]) {
        let store = self.store, radius = duplicateRadiusMetres
        Task { [weak self] in
            let result = await Task.detached(priority: .userInitiated) {
                Result { try store.importPlaces(places, duplicateRadiusMetres: radius) }
            }.value
            self?.imported(result, places)
        }
    }

    private func imported(_ result: Result<PlaceImportResult, Error>, _ places: [ImportedPlace]) {
        defer { finished() }
        switch result {
        case .failure(let error):
            logger.error("Could not import places: \(error)")
            Alert.show(over: parent(), title: tr("The places could not be imported"), message: Self.message(for: error),
                       buttons: [Alert.ok])
        case .success(let outcome):
            logger.info("Imported \(outcome.added.count) places, skipped \(outcome.duplicates)")
            onImported(places.map { ($0.latitude, $0.longitude) })
            let added = outcome.added
            notification.show(formatted(trn("%d place imported", "%d places imported", added.count), added.count),
                              actionLabel: tr("Undo"), seconds: 10) { [weak self] in self?.undoImport(added) }
        }
    }

    private func undoImport(_ pins: [Int64]) {
        let store = self.store
        Task { [weak self] in
            let result = await Task.detached(priority: .userInitiated) { Result { try store.deletePins(ids: pins) } }.value
            if case .failure(let error) = result {
                self?.logger.error("Could not undo an import: \(error)")
                self?.notification.show(formatted(tr("The import could not be undone. %@"),
                                               Self.message(for: error)))
            }
        }
    }

    private func finished() {
        isBusy = false
        readNext()
    }

    // MARK: Export

    func chooseFileToExport() {
        let formats = PlaceFileFormat.allCases
        // Translators: the name offered for an export of My Places; the file's extension follows.
        let suggested = tr("My Places") + "." + PlaceFileFormat.gpx.fileExtension
        NativeFileChooser.ask(.save(suggestedName: suggested), title: tr("Export Places"), acceptLabel: tr("_Export"),
                              over: parent(),
                              filters: formats.map { .init(name: $0.displayName, patterns: ["*.\($0.fileExtension)"], mimeTypes: [$0.mediaType]) }) {
            [weak self] choice in
            guard let self, let choice else { return }
            let (file, format) = Self.exportTarget(choice.url, chosen: choice.filterIndex.map { formats[$0] }, offered: .gpx)
            guard file != choice.url, FileManager.default.fileExists(atPath: file.path) else {
                return self.export(to: file, as: format)
            }
            // The chooser asked about the name it showed; the file written is another one.
            // Translators: %@ is a file's name, e.g. "My Places.kml".
            Alert.show(over: self.parent(), kind: GTK_MESSAGE_QUESTION, title: formatted(tr("Replace “%@”?"), file.lastPathComponent),
                       message: tr("A file with that name already exists. Replacing it overwrites what it holds."),
                       buttons: [Alert.Button(label: tr("Cancel"), response: GTK_RESPONSE_CANCEL),
                                 Alert.Button(label: tr("_Replace"), response: GTK_RESPONSE_ACCEPT, suggested: true)]) { [weak self] response in
                if response == GTK_RESPONSE_ACCEPT { self?.export(to: file, as: format) }
            }
        }
    }

    /// The file an export writes and its format. A type chosen in the chooser's list (`chosen`, other than the one
    /// it `offered` first) is the format, and the name's extension follows it ("My Places.gpx" becomes
    /// "My Places.kml"); otherwise the name's extension decides, and a name without a known one gets the type shown.
    nonisolated static func exportTarget(_ file: URL, chosen: PlaceFileFormat?, offered: PlaceFileFormat) -> (URL, PlaceFileFormat) {
        let named = PlaceFileFormat.guess(fileName: file.lastPathComponent)
        let format = chosen.flatMap { $0 == offered ? nil : $0 } ?? named ?? chosen ?? offered
        guard named != format else { return (file, format) }
        let base = named == nil ? file : file.deletingPathExtension()
        return (base.appendingPathExtension(format.fileExtension), format)
    }

    private func export(to file: URL, as format: PlaceFileFormat) {
        let store = self.store
        let creator = "\(AppInfo.name) \(AppInfo.version)"
        Task { [weak self] in
            let result = await Task.detached(priority: .userInitiated) { () -> Result<Int, Error> in
                Result {
                    let places = try store.exportablePlaces().map {
                        PlaceRecord(name: $0.placeName, latitude: $0.latitude, longitude: $0.longitude, createdAt: $0.createdAt,
                                    photoCount: $0.photoCount)
                    }
                    let data = try PlaceFileWriter.data(for: places, format: format, creator: creator)
                    try WholeFile.write(data, to: file.path, permissions: 0o644)
                    return places.count
                }
            }.value
            self?.exported(result, to: file)
        }
    }

    private func exported(_ result: Result<Int, Error>, to file: URL) {
        switch result {
        case .success(let count):
            logger.info("Exported \(count) places to \(file.path)")
            notification.show(formatted(trn("%1$d place exported to “%2$@”", "%1$d places exported to “%2$@”", count), count, file.lastPathComponent))
        case .failure(let error):
            logger.error("Could not export places to \(file.path): \(error)")
            Alert.show(over: parent(), title: tr("Your places could not be exported"), message: Self.message(for: error),
                       buttons: [Alert.ok])
        }
    }

    private static func message(for error: Error) -> String {
        switch error {
        case let error as PlaceFileError: error.userMessage
        case let error as POSIXError where error.code == .ENOSPC:
            tr("The disk is full. Free some space and try again.")
        case let error as POSIXError where error.code == .EACCES || error.code == .EROFS:
            tr("You cannot write to that folder. Choose another one.")
        case let error as POSIXError:
            String(cString: strerror(error.code.rawValue))
        default: error.localizedDescription
        }
    }
}
