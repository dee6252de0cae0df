import CoreMetrics
import Foundation
import Hummingbird
import Prometheus

/// This process's metrics, recorded through swift-metrics into swift-prometheus's registry and
/// rendered by it in Prometheus's text format at `/metrics`: request counts and latency
/// histograms by route template and status class, jobs by state, transcode seconds.
///
/// The factory is this registry's own, passed to each metric, rather than swift-metrics' global
/// bootstrap: one process runs many servers in the tests, each with its own `/metrics`.
public final class MetricsRegistry: Sendable {
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    enum Name {
        static let requests = "reelhouse_http_requests_total"
        static let latency = "reelhouse_http_request_duration_seconds"
        static let jobs = "reelhouse_jobs"
        static let transcodeSeconds = "reelhouse_transcode_seconds_total"
        static let transcodes = "reelhouse_transcodes_total"
    }

    private let prometheus = PrometheusCollectorRegistry()
    private let factory: PrometheusMetricsFactory

    public init() {
        var factory = PrometheusMetricsFactory(registry: prometheus)
        factory.durationHistogramBuckets[Name.latency] = Self.buckets.map { .nanoseconds(Int64($0 * 1e9)) }
        self.factory = factory
        // Present from the start, so a scraper sees 0 rather than nothing before the first job.
        FloatingPointCounter(label: Name.transcodeSeconds, factory: factory).increment(by: 0)
    }

    func recordRequest(method: String, route: String, status: Int, elapsed: Duration) {
        Counter(label: Name.requests, dimensions: [("method", method), ("route", route), ("status", "\(status / 100)xx")], factory: factory)
            .increment()
        let (seconds, attoseconds) = elapsed.components
        CoreMetrics.Timer(label: Name.latency, dimensions: [("route", route)], factory: factory)
            .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    public func recordTranscode(seconds: Double, outcome: String) {
        FloatingPointCounter(label: Name.transcodeSeconds, factory: factory).increment(by: seconds)
        Counter(label: Name.transcodes, dimensions: [("outcome", outcome)], factory: factory).increment()
    }

    func render(jobsByState: [String: Int]) -> String {
        for (state, count) in jobsByState {
            Gauge(label: Name.jobs, dimensions: [("state", state)], factory: factory).record(count)
        }
        var bytes: [UInt8] = []
        prometheus.emit(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Times every request; the route label is the matched template (bounded cardinality), never
/// the raw path (which would carry tokens and ids).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let registry: MetricsRegistry

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context, status: Int(response.status.code), start: start)
            return response
        } catch {
            let status = (error as? APIError)?.status.code ?? 500
            record(request, context, status: Int(status), start: start)
            throw error
        }
    }

    private func record(_ request: Request, _ context: Context, status: Int, start: ContinuousClock.Instant) {
        registry.recordRequest(
            method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: status, elapsed: ContinuousClock.now - start
        )
    }
}
