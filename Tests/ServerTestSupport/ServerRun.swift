import Foundation
import Logging
import OnTheMapServer
import ServiceLifecycle

/// The real server (`buildApplication`) run as a service group on a task of its own, until that task is
/// cancelled; returns once it listens, with its port.
///
/// When no port comes, the server failed before it listened, or the caller was cancelled while it started
/// (say, a sibling in a task group failed): the stream then ends at once. Either way the server task is
/// cancelled before it is awaited, so a server that did start is never left running with someone waiting on
/// it forever.
public func runServer(configuration: ServerConfiguration,
                      logger: Logger) async throws -> (port: Int, task: Task<Void, any Error>) {
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let application = try await buildApplication(configuration: configuration, logger: logger) { port in
        portContinuation.yield(port)
    }
    let task = Task {
        defer { portContinuation.finish() } // a server that fails to start must not leave the caller waiting
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [],
                                                      logger: logger))
        try await group.run()
    }
    var iterator = ports.makeAsyncIterator()
    if let port = await iterator.next() { return (port, task) }
    task.cancel()
    if case .failure(let error) = await task.result { throw error }
    try Task.checkCancellation()
    throw ServerDidNotListen()
}

public struct ServerDidNotListen: Error, CustomStringConvertible {
    public var description: String { "The server stopped before it listened." }
}
