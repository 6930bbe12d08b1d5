import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Logging

/// One image to fetch: from `source` (a `url_*` of a search result) to the file `destination`.
public struct PhotoDownloadRequest: Sendable, Hashable {
    public var photoID: String
    public var source: URL
    public var destination: URL

    public init(photoID: String, source: URL, destination: URL) {
        self.photoID = photoID
        self.source = source
        self.destination = destination
    }
}

/// The outcome of one request, reported as soon as it is known.
public struct PhotoDownloadEvent: Sendable, Hashable {
    public var photoID: String
    /// The finished file (the request's destination) or why there is none.
    public var result: Result<URL, FlickrError>

    public init(photoID: String, result: Result<URL, FlickrError>) {
        self.photoID = photoID
        self.result = result
    }
}

/// Decides whether a downloaded body is an image worth keeping. Runs off the main thread.
public typealias ImageValidator = @Sendable (Data) -> Bool

/// Downloading album photos. `PhotoDownloader` is the live implementation.
public protocol PhotoDownloading: Sendable {
    /// Downloads `requests`, reporting each as it finishes; the stream ends when all are reported.
    /// Stopping iteration (or cancelling the iterating task) cancels what is left.
    func download(_ requests: [PhotoDownloadRequest], group: String) -> AsyncStream<PhotoDownloadEvent>
    /// Cancels every unfinished download started under `group` (e.g. one pin's album).
    func cancel(group: String)
}

/// Downloads images to files with bounded concurrency, retries, validation and atomic placement.
///
/// Each body is checked (status, `Content-Length`, validator) in memory, written to
/// `<destination>.<random>.part` beside the destination and renamed into place; nothing partial is
/// ever left behind, whether the download fails or is cancelled.
public final class PhotoDownloader: PhotoDownloading {
    public let configuration: FlickrConfiguration
    private let validator: ImageValidator
    private let session: URLSession
    private let logger: Logger
    private let slots: DownloadSlots
    private let groups = GroupRegistry()

    public init(configuration: FlickrConfiguration,
                validator: @escaping ImageValidator = ImageValidation.hasImageSignature,
                logger: Logger = Logger(label: "virtual-tourist.flickr.downloads")) {
        self.configuration = configuration
        self.validator = validator
        self.logger = logger
        slots = DownloadSlots(limit: max(1, configuration.maxConcurrentDownloads))
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = URLSession.backstop(for: configuration.downloadTimeout)
        sessionConfiguration.timeoutIntervalForResource = URLSession.backstop(for: configuration.downloadTimeout)
        sessionConfiguration.httpMaximumConnectionsPerHost = max(1, configuration.maxConcurrentDownloads)
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        sessionConfiguration.urlCache = nil
        sessionConfiguration.httpCookieStorage = nil
        sessionConfiguration.httpShouldSetCookies = false
        session = URLSession(configuration: sessionConfiguration)
    }

    deinit {
        groups.cancelAll()
        session.finishTasksAndInvalidate()
    }

    // MARK: - Starting and cancelling

    public func download(_ requests: [PhotoDownloadRequest], group: String) -> AsyncStream<PhotoDownloadEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PhotoDownloadEvent.self, bufferingPolicy: .unbounded)
        let token = UUID()
        let task = groups.register(group: group, token: token) {
            Task { [self] in
                await withTaskGroup(of: Void.self) { taskGroup in
                    for request in requests {
                        taskGroup.addTask {
                            let result = await self.fetch(request)
                            continuation.yield(PhotoDownloadEvent(photoID: request.photoID, result: result))
                        }
                    }
                }
                continuation.finish()
                groups.remove(group: group, token: token)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Downloads one image and returns its file; `.cancelled` if `group` is cancelled or the task is.
    public func download(_ request: PhotoDownloadRequest, group: String = "") async throws(FlickrError) -> URL {
        for await event in download([request], group: group) {
            return try event.result.get()
        }
        throw .cancelled
    }

    public func cancel(group: String) {
        let cancelled = groups.cancel(group: group)
        if cancelled > 0 { logger.debug("Downloads cancelled", metadata: ["group": "\(group)", "batches": "\(cancelled)"]) }
    }

    /// Cancels everything, e.g. on quit.
    public func cancelAll() {
        groups.cancelAll()
    }

    // MARK: - One photo

    /// All attempts for one request; a slot is held only while a request is on the wire.
    private func fetch(_ request: PhotoDownloadRequest) async -> Result<URL, FlickrError> {
        var retries = 0
        while true {
            do {
                try await slots.acquire()
            } catch {
                return .failure(.cancelled)
            }
            let (result, retryAfter) = await attempt(request)
            await slots.release()

            guard case .failure(let error) = result else { return result }
            guard error.isTransient, retries < configuration.retryCount, !Task.isCancelled else {
                if error != .cancelled {
                    logger.info("Photo download failed", metadata: [
                        "photo": "\(request.photoID)", "error": "\(error.userMessage)", "retries": "\(retries)",
                    ])
                }
                return result
            }
            retries += 1
            let delay = backoff(retry: retries, retryAfter: retryAfter)
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

    /// One request on the wire, then checks and atomic placement.
    private func attempt(_ request: PhotoDownloadRequest) async -> (Result<URL, FlickrError>, retryAfter: TimeInterval?) {
        let host = request.source.host ?? "the photo server"
        do {
            try TransportSecurity.check(request.source)
        } catch {
            return (.failure(error), nil)
        }
        if Task.isCancelled { return (.failure(.cancelled), nil) }

        var urlRequest = URLRequest(url: request.source, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: configuration.downloadTimeout)
        urlRequest.httpMethod = "GET"
        urlRequest.setValue("image/*", forHTTPHeaderField: "Accept")
        HTTPHeaders.apply(to: &urlRequest, userAgent: configuration.userAgent)
        logger.trace("Downloading photo", metadata: [
            "photo": "\(request.photoID)", "url": "\(Redaction.redactedDescription(of: request.source))",
        ])

        let data: Data
        do {
            let (body, response) = try await session.data(for: urlRequest, timeout: configuration.downloadTimeout)
            guard (200..<300).contains(response.statusCode) else {
                let retryAfter = (response.value(forHTTPHeaderField: "Retry-After"))
                    .flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
                return (.failure(.httpStatus(response.statusCode)), retryAfter)
            }
            let expected = response.expectedContentLength
            let encoding = response.value(forHTTPHeaderField: "Content-Encoding")?.lowercased() ?? "identity"
            if expected >= 0, encoding == "identity", Int64(body.count) != expected {
                return (.failure(.incompleteDownload(expected: expected, received: Int64(body.count))), nil)
            }
            data = body
        } catch {
            return (.failure(FlickrError.from(transportError: error, host: host)), nil)
        }

        guard validator(data) else { return (.failure(.notAnImage), nil) }
        // Once cancelled, nothing new appears in the album's folder.
        if Task.isCancelled { return (.failure(.cancelled), nil) }
        do {
            try Self.place(data, at: request.destination)
        } catch {
            return (.failure(error), nil)
        }
        return (.success(request.destination), nil)
    }

    /// Writes `data` to a `.part` file beside `destination` and renames it into place.
    static func place(_ data: Data, at destination: URL) throws(FlickrError) {
        let folder = destination.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(path: folder.path, reason: "the folder could not be created")
        }
        let suffix = UUID().uuidString.prefix(8)
        let part = folder.appendingPathComponent("\(destination.lastPathComponent).\(suffix).part")
        do {
            try data.write(to: part)
        } catch {
            unlink(part.path)
            throw .fileSystem(path: part.path, reason: "the photo could not be written")
        }
        if rename(part.path, destination.path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(part.path)
            throw .fileSystem(path: destination.path, reason: reason)
        }
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

// MARK: - Groups

/// The running batches of each group, so `cancel(group:)` can reach them synchronously from any thread.
private final class GroupRegistry: @unchecked Sendable {
    private let lock = NSLock()
    private var batches: [String: [UUID: Task<Void, Never>]] = [:]

    /// Creates the batch's task under the lock, so it cannot finish (and unregister) before it is registered.
    func register(group: String, token: UUID, start: () -> Task<Void, Never>) -> Task<Void, Never> {
        lock.lock()
        defer { lock.unlock() }
        let task = start()
        batches[group, default: [:]][token] = task
        return task
    }

    func remove(group: String, token: UUID) {
        lock.lock()
        defer { lock.unlock() }
        batches[group]?[token] = nil
        if batches[group]?.isEmpty == true { batches[group] = nil }
    }

    /// Cancels and forgets the group's batches; returns how many there were.
    @discardableResult
    func cancel(group: String) -> Int {
        lock.lock()
        let tasks = batches.removeValue(forKey: group).map { Array($0.values) } ?? []
        lock.unlock()
        tasks.forEach { $0.cancel() }
        return tasks.count
    }

    func cancelAll() {
        lock.lock()
        let tasks = batches.values.flatMap(\.values)
        batches = [:]
        lock.unlock()
        tasks.forEach { $0.cancel() }
    }
}
