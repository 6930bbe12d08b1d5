import Foundation
import PlainText

/// Turns the body of a `flickr.photos.search` answer into a page or a `FlickrError`.
///
/// Lenient on purpose: Flickr sends numbers as strings or numbers, omits optional fields, and one
/// malformed photo must not cost the rest of the page. Public so the fuzzer can drive it.
public enum SearchResponseDecoding {
    public static func decode(_ body: Data, requestedPage: Int, requestedPerPage: Int) throws(FlickrError) -> FlickrSearchPage {
        if looksLikeJSONP(body) { throw .invalidResponse(.jsonp) }
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: body)
        } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
            throw .invalidResponse(.notJSON)
        } catch {
            throw .invalidResponse(.unexpectedStructure)
        }

        if envelope.stat?.lowercased() == "fail" {
            throw FlickrError.apiFailure(code: envelope.code ?? -1, flickrMessage: envelope.message ?? "")
        }
        guard let photos = envelope.photos, envelope.stat == nil || envelope.stat?.lowercased() == "ok" else {
            throw .invalidResponse(.unexpectedStructure)
        }

        let entries = photos.photo ?? []
        let usable = entries.compactMap { $0.value?.photo }
        let perPage = photos.perPage ?? requestedPerPage
        let total = photos.total ?? usable.count
        // Rounded up without `total + perPage - 1`, which overflows for a hostile `total` (fuzzer finding).
        let pages = photos.pages ?? (perPage > 0 ? total / perPage + (total % perPage == 0 ? 0 : 1) : 0)
        return FlickrSearchPage(total: max(0, total), pages: max(0, pages), page: photos.page ?? requestedPage,
                                perPage: perPage, photos: usable, skippedCount: entries.count - usable.count)
    }

    static func looksLikeJSONP(_ body: Data) -> Bool {
        let prefix = body.prefix(64).drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 })
        return prefix.starts(with: Array("jsonFlickrApi(".utf8))
    }

    // MARK: - Wire format

    private struct Envelope: Decodable {
        var stat: String?
        var code: Int?
        var message: String?
        var photos: Photos?

        enum CodingKeys: String, CodingKey { case stat, code, message, photos }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            stat = container.lenientString(.stat)
            code = container.lenientInt(.code)
            message = container.lenientString(.message)
            photos = try container.decodeIfPresent(Photos.self, forKey: .photos)
        }
    }

    private struct Photos: Decodable {
        var page: Int?
        var pages: Int?
        var perPage: Int?
        var total: Int?
        var photo: [Failable<Photo>]?

        enum CodingKeys: String, CodingKey { case page, pages, perpage, per_page, total, photo }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            page = container.lenientInt(.page)
            pages = container.lenientInt(.pages)
            perPage = container.lenientInt(.perpage) ?? container.lenientInt(.per_page)
            total = container.lenientInt(.total)
            photo = try container.decodeIfPresent([Failable<Photo>].self, forKey: .photo)
        }
    }

    /// One entry of `photo`; `photo` is `nil` when it has no usable image URL.
    private struct Photo: Decodable {
        var photo: FlickrPhoto?

        enum CodingKeys: String, CodingKey {
            case id, owner, ownername, title, secret, server, farm, license
            case url_n, width_n, height_n, url_q, width_q, height_q, url_z, url_b
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            guard let id = container.lenientString(.id), !id.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "photo without id")
            }
            guard let owner = container.lenientString(.owner), !owner.isEmpty else {
                throw DecodingError.dataCorruptedError(forKey: .owner, in: container, debugDescription: "photo without owner")
            }
            let sizes: [(CodingKeys, CodingKeys, CodingKeys)] = [(.url_n, .width_n, .height_n), (.url_q, .width_q, .height_q)]
            let large = [CodingKeys.url_b, .url_z].compactMap { container.lenientString($0).flatMap(Self.usableImageURL) }.first
            for (urlKey, widthKey, heightKey) in sizes {
                guard let text = container.lenientString(urlKey), let url = Self.usableImageURL(text) else { continue }
                // Shown as Flickr sends them, so made plain here: no text-reversing controls, one line, capped.
                let ownerName = PlainText.nonEmptyName(container.lenientString(.ownername))
                photo = FlickrPhoto(id: id, owner: owner, ownerName: ownerName,
                                    title: container.lenientString(.title).map(PlainText.name) ?? "",
                                    secret: container.lenientString(.secret), server: container.lenientString(.server),
                                    farm: container.lenientInt(.farm), license: container.lenientString(.license),
                                    imageURL: url, width: container.lenientInt(widthKey),
                                    height: container.lenientInt(heightKey),
                                    largeImageURL: large)
                return
            }
        }

        private static func usableImageURL(_ text: String) -> URL? {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, let url = URL(string: trimmed), TransportSecurity.isAllowed(url) else { return nil }
            return url
        }
    }

    /// Decodes `Wrapped` or nothing, so one bad array element doesn't fail the array.
    private struct Failable<Wrapped: Decodable>: Decodable {
        var value: Wrapped?
        init(from decoder: any Decoder) throws {
            value = try? decoder.singleValueContainer().decode(Wrapped.self)
        }
    }
}

extension KeyedDecodingContainer {
    /// A string, or a number written as one; `nil` when missing, null or another type.
    func lenientString(_ key: Key) -> String? {
        if let text = try? decodeIfPresent(String.self, forKey: key) { return text }
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return String(number) }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return String(number) }
        return nil
    }

    /// An integer, or a string / integral double holding one; `nil` otherwise.
    func lenientInt(_ key: Key) -> Int? {
        if let number = try? decodeIfPresent(Int.self, forKey: key) { return number }
        if let number = try? decodeIfPresent(Double.self, forKey: key) { return Int(exactly: number.rounded()) }
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let number = Int(trimmed) { return number }
            if let number = Double(trimmed), number.isFinite { return Int(exactly: number.rounded()) }
        }
        return nil
    }
}
