import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import KeptFiles
import Logging
import Translations
import WebAccess

/// One image to fetch from `source` (a `url_*` of a search result).
public struct PhotoDownloadRequest: Sendable, Hashable {
    public var photoID: String
    public var source: URL

    public init(photoID: String, source: URL) {
        self.photoID = photoID
        self.source = source
    }
}

/// A downloaded, validated image waiting in the staging folder for its owner to take it.
public struct StagedPhoto: Sendable, Hashable {
    public var file: URL
    public var format: ImageValidation.Format
    /// Keeps the validator's decode once the file has its lasting path (`ValidatedImage.keep`).
    public var keep: (@Sendable (_ path: String) -> Void)?

    public static func == (lhs: StagedPhoto, rhs: StagedPhoto) -> Bool {
        lhs.file == rhs.file && lhs.format == rhs.format
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(file)
        hasher.combine(format)
    }
}

/// The outcome of one request, reported as soon as it is known.
public struct PhotoDownloadEvent: Sendable, Hashable {
    public var photoID: String
    public var result: Result<StagedPhoto, FlickrError>

    public init(photoID: String, result: Result<StagedPhoto, FlickrError>) {
        self.photoID = photoID
        self.result = result
    }
}

/// Downloading album photos. `PhotoDownloader` is the live implementation.
public protocol PhotoDownloading: Sendable {
    /// Downloads `requests` and hands each outcome to `receive` as soon as it is known. A staged
    /// file belongs to `receive` while it runs: move it away to keep it; whatever is still staged
    /// when `receive` returns is deleted. Returns once every request has been reported; cancelling
    /// the calling task cancels what is left (and nothing is left behind in the staging folder).
    func download(_ requests: [PhotoDownloadRequest],
                  receive: @escaping @Sendable (PhotoDownloadEvent) async -> Void) async
}

/// Downloads images with bounded concurrency, a stall time-out, a deadline per photo, a byte limit,
/// retries and validation. A body becomes a file only once it has passed every check, written to
/// `<staging>/<random>.part` and renamed to its real type's extension.
public final class PhotoDownloader: PhotoDownloading {
    public let configuration: FlickrConfiguration
    public let stagingFolder: URL
    private let validator: ImageValidator
    private let transfers: PhotoTransfers
    private let logger: Logger
    private let slots: DownloadSlots
    /// Redirects followed for one photo (an old `farm` address moved to Flickr's CDN takes one).
    static let maxRedirects = 3

    /// - parameter stagingFolder: on the same file system as the photos, so taking a file is a rename.
    public init(configuration: FlickrConfiguration, stagingFolder: URL,
                validator: @escaping ImageValidator = ImageValidation.structural,
                logger: Logger = Logger(label: "virtual-tourist.flickr.downloads")) {
        self.configuration = configuration
        self.stagingFolder = stagingFolder
        self.validator = validator
        self.logger = logger
        slots = DownloadSlots(limit: max(1, configuration.maxRequestsInFlight))
        transfers = PhotoTransfers(trustRoots: configuration.trustRoots,
                                   connectionsPerHost: configuration.maxConcurrentDownloads,
                                   proxies: configuration.proxies)
    }

    deinit {
        transfers.invalidate()
    }

    public func download(_ requests: [PhotoDownloadRequest],
                         receive: @escaping @Sendable (PhotoDownloadEvent) async -> Void) async {
        let batch = TransferBatch()
        await withTaskGroup(of: Void.self) { group in
            for request in requests {
                group.addTask {
                    let result = await self.fetch(request, batch: batch)
                    await receive(PhotoDownloadEvent(photoID: request.photoID, result: result))
                    // Whatever the receiver did not take goes now, cancelled or not.
                    if case .success(let staged) = result { unlink(staged.file.path) }
                }
            }
        }
    }

    // MARK: - One photo

    /// All attempts for one request, within its deadline (which starts when the first goes on the wire).
    private func fetch(_ request: PhotoDownloadRequest, batch: TransferBatch) async -> Result<StagedPhoto, FlickrError> {
        var retries = 0
        var stalls = 0
        let clock = PhotoClock(timeout: configuration.downloadTimeout)
        while true {
            do {
                try await slots.acquire()
            } catch {
                return .failure(.cancelled)
            }
            let (transferred, retryAfter) = await transfer(request, clock: clock, batch: batch)
            await slots.release()
            // The checks (a decode) and the staged file's write happen off the wire: the slot has
            // already gone to the next photo.
            let result: Result<StagedPhoto, FlickrError>
            switch transferred {
            case .success where Task.isCancelled: result = .failure(.cancelled)
            case .success(let data): result = await offTheSharedExecutor { self.process(data) }
            case .failure(let error): result = .failure(error)
            }

            guard case .failure(let error) = result else { return result }
            if error == .stalled { stalls += 1 }
            let timeLeft = clock.timeLeft
            // A server that stalls once will likely stall again: one more try, not three.
            guard error.isTransient, retries < configuration.retryCount, stalls <= 1, timeLeft > 0.1,
                  !Task.isCancelled else {
                if error != .cancelled {
                    logger.info("Photo download failed", metadata: [
                        "photo": "\(request.photoID)", "error": "\(error.userMessage)", "retries": "\(retries)",
                    ])
                }
                return result
            }
            retries += 1
            let delay = min(backoff(retry: retries, retryAfter: retryAfter), timeLeft)
            logger.debug("Retrying photo download", metadata: [
                "photo": "\(request.photoID)", "error": "\(error.userMessage)",
                "retry": "\(retries)", "delay": "\(String(format: "%.2f", delay))s",
            ])
            do {
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            } catch {
                return .failure(.cancelled)
            }
        }
    }

    /// Exponential back-off with jitter (50–100 % of the step), at least a server's small `Retry-After`.
    private func backoff(retry: Int, retryAfter: TimeInterval?) -> TimeInterval {
        let step = min(configuration.maxRetryDelay, configuration.retryBaseDelay * pow(2, Double(retry - 1)))
        let jittered = step * Double.random(in: 0.5...1.0)
        guard let retryAfter else { return max(0, jittered) }
        return max(0, max(jittered, min(retryAfter, configuration.maxRetryDelay)))
    }

    /// One request on the wire: the body, once it is whole.
    private func transfer(_ request: PhotoDownloadRequest, clock: PhotoClock,
                          batch: TransferBatch) async -> (Result<Data, FlickrError>, retryAfter: TimeInterval?) {
        let host = request.source.host ?? "the photo server"
        do {
            try TransportSecurity.check(request.source)
        } catch {
            return (.failure(error), nil)
        }
        if Task.isCancelled { return (.failure(.cancelled), nil) }

        logger.trace("Downloading photo", metadata: [
            "photo": "\(request.photoID)", "url": "\(Redaction.redactedDescription(of: request.source))",
        ])

        let limits = TransferLimits(stallTimeout: configuration.stallTimeout, maxBytes: configuration.maxPhotoBytes)
        var source = request.source
        var redirects = 0
        while true {
            let response: WebResponse
            do {
                response = try await transfers.fetch(source, headers: [("Accept", "image/*"),
                                                                       ("User-Agent", configuration.userAgent)],
                                                     limits: limits, clock: clock, batch: batch)
            } catch {
                return (.failure(FlickrError.from(clientError: error, host: source.host ?? host,
                                                  proxy: configuration.proxies.proxy(for: source))), nil)
            }
            // Followed here, a few times at most (then the 3xx is the failure), and never from https to plain http.
            if [301, 302, 303, 307, 308].contains(response.status), redirects < Self.maxRedirects,
               let location = response.header("Location"),
               let target = URL(string: location, relativeTo: source)?.absoluteURL {
                do {
                    try TransportSecurity.check(target)
                } catch {
                    return (.failure(error), nil)
                }
                source = target
                redirects += 1
                continue
            }
            guard (200..<300).contains(response.status) else {
                let retryAfter = response.header("Retry-After")
                    .flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
                return (.failure(.httpStatus(response.status)), retryAfter)
            }
            let encoding = response.header("Content-Encoding")?.lowercased() ?? "identity"
            if let expected = response.header("Content-Length").flatMap(Int64.init), encoding == "identity",
               Int64(response.body.count) != expected {
                return (.failure(.incompleteDownload(expected: expected, received: Int64(response.body.count))), nil)
            }
            return (.success(response.body), nil)
        }
    }

    /// Blocking work (a decode, a file write) on a dispatch queue: Swift's shared executor has one thread
    /// per core, and the next downloads' requests and replies wait for a free one.
    private func offTheSharedExecutor<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }

    /// The checks, then the staged file.
    private func process(_ data: Data) -> Result<StagedPhoto, FlickrError> {
        let validated: ValidatedImage
        switch validator(data) {
        case .success(let checked): validated = checked
        case .failure(let problem): return .failure(problem)
        }
        do {
            var staged = try stage(data, format: validated.format)
            staged.keep = validated.keep
            return .success(staged)
        } catch {
            return .failure(error)
        }
    }

    /// Writes `data` whole to a new file in the staging folder, named for its format's extension.
    private func stage(_ data: Data, format: ImageValidation.Format) throws(FlickrError) -> StagedPhoto {
        do {
            try FileManager.default.createDirectory(at: stagingFolder, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(path: stagingFolder.path, reason: tr("the folder could not be created"))
        }
        let file = stagingFolder.appendingPathComponent("\(UUID().uuidString).\(format.fileExtension)")
        do {
            try WholeFile.write(data, to: file.path)
        } catch {
            throw .fileSystem(path: file.path, reason: String(cString: strerror(error.code.rawValue)))
        }
        return StagedPhoto(file: file, format: format)
    }
}

// MARK: - Concurrency limit

/// A counting semaphore for download slots; waiting is FIFO and cancellable.
actor DownloadSlots {
    private var available: Int
    private var waiters: [(id: UUID, continuation: CheckedContinuation<Void, any Error>)] = []

    init(limit: Int) {
        available = limit
    }

    func acquire() async throws {
        try Task.checkCancellation()
        if available > 0 {
            available -= 1
            return
        }
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    func release() {
        if waiters.isEmpty {
            available += 1
        } else {
            waiters.removeFirst().continuation.resume()
        }
    }

    private func cancelWaiter(_ id: UUID) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
