import HTTPTypes
import Hummingbird

/// Counts every request the router answers (the list fast path counts its own) by its route's pattern.
struct RequestMetricsMiddleware: RouterMiddleware {
    typealias Context = OnTheMapRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, response.status, since: start)
            return response
        } catch {
            record(request, context, (error as? any HTTPResponseError)?.status ?? .internalServerError, since: start)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, _ status: HTTPResponse.Status,
                        since start: ContinuousClock.Instant) {
        // The router names a request no route matched "NotFound"; any other name is a registered pattern.
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? ServerMetrics.unmatchedRoute
        metrics.recordRequest(route: route, method: request.method, status: status, duration: .now - start)
    }
}
