import Hummingbird
import Logging
import Prometheus

/// The metrics listener: a second, small HTTP server with only `GET /metrics`, so the public port (behind a proxy
/// every request comes from loopback) never exposes it.
func buildMetricsApplication(metrics: ServerMetrics, host: String, port: Int, logger: Logger,
                             onRunning: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
    let router = Router()
    let registry = metrics.registry
    router.get("metrics") { _, _ in
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }
    return Application(router: router, configuration: .init(address: .hostname(host, port: port),
                                                            serverName: "on-the-map-server-metrics"),
                       onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? 0) },
                       logger: logger)
}
