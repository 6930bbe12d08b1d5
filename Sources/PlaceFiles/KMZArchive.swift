import Foundation
import Translations
import ZIPFoundation

/// KMZ: a zip archive holding doc.kml (Google Earth's, Organic Maps') or some other .kml.
enum KMZArchive {
    private struct PastTheCap: Error {}

    /// The KML inside, unpacked no further than `limit` bytes whatever the archive declares (zip bombs).
    static func kml(in data: Data, limit: Int) throws(PlaceFileError) -> Data {
        let archive: Archive
        do {
            archive = try Archive(data: data, accessMode: .read)
        } catch {
            throw .malformed(tr("the KMZ file is not a readable zip archive"))
        }
        // macOS's zip leaves resource forks (__MACOSX/, ._name) beside the real files.
        let files = archive.filter { entry in
            entry.type == .file && !entry.path.hasPrefix("__MACOSX/")
                && !(entry.path.split(separator: "/").last ?? "").hasPrefix("._")
        }
        guard let entry = files.first(where: { $0.path.lowercased() == "doc.kml" })
                ?? files.first(where: { $0.path.lowercased().hasSuffix(".kml") }) else {
            throw .malformed(tr("the KMZ file holds no KML document"))
        }
        guard entry.uncompressedSize <= UInt64(limit) else { throw .tooLarge }
        var kml = Data()
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard kml.count + chunk.count <= limit else { throw PastTheCap() }
                kml.append(chunk)
            }
        } catch is PastTheCap {
            throw .tooLarge
        } catch {
            throw .malformed(tr("the KML document in the KMZ file is damaged"))
        }
        return kml
    }

    /// A zip archive with `kml` as doc.kml, deflated.
    static func archive(kml: Data) throws(PlaceFileError) -> Data {
        do {
            let archive = try Archive(data: Data(), accessMode: .create)
            try archive.addEntry(with: "doc.kml", type: .file, uncompressedSize: Int64(kml.count),
                                 compressionMethod: .deflate) { position, size in
                kml.subdata(in: Int(position)..<Int(position) + size)
            }
            guard let data = archive.data else { throw CocoaError(.fileWriteUnknown) }
            return data
        } catch {
            throw .unwritable(String(describing: error))
        }
    }
}
