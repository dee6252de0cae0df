import Foundation
import Hummingbird

/// A small Prometheus registry: request counts and latency histograms by route template and
/// status class, and transcode seconds. Rendered in the text exposition format.
public final class MetricsRegistry: @unchecked Sendable {
    static let buckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: MetricsRegistry.buckets.count)
        var sum = 0.0
        var total = 0
    }

    private let lock = NSLock()
    private var requests: [String: Int] = [:]
    private var latency: [String: Histogram] = [:]
    private var transcodeSeconds = 0.0
    private var transcodesFinished: [String: Int] = [:]

    public init() {}

    func recordRequest(method: String, route: String, status: Int, seconds: Double) {
        let statusClass = "\(status / 100)xx"
        lock.withLock {
            requests["method=\"\(method)\",route=\"\(route)\",status=\"\(statusClass)\"", default: 0] += 1
            var histogram = latency["route=\"\(route)\"", default: Histogram()]
            for (index, bound) in Self.buckets.enumerated() where seconds <= bound { histogram.counts[index] += 1 }
            histogram.sum += seconds
            histogram.total += 1
            latency["route=\"\(route)\""] = histogram
        }
    }

    public func recordTranscode(seconds: Double, outcome: String) {
        lock.withLock {
            transcodeSeconds += seconds
            transcodesFinished[outcome, default: 0] += 1
        }
    }

    func render(jobsByState: [String: Int]) -> String {
        lock.withLock {
            var lines: [String] = []
            lines.append("# HELP reelhouse_http_requests_total HTTP requests by route template and status class.")
            lines.append("# TYPE reelhouse_http_requests_total counter")
            for (labels, count) in requests.sorted(by: { $0.key < $1.key }) {
                lines.append("reelhouse_http_requests_total{\(labels)} \(count)")
            }
            lines.append("# HELP reelhouse_http_request_duration_seconds Request latency by route template.")
            lines.append("# TYPE reelhouse_http_request_duration_seconds histogram")
            for (labels, histogram) in latency.sorted(by: { $0.key < $1.key }) {
                for (index, bound) in Self.buckets.enumerated() {
                    lines.append("reelhouse_http_request_duration_seconds_bucket{\(labels),le=\"\(bound)\"} \(histogram.counts[index])")
                }
                lines.append("reelhouse_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(histogram.total)")
                lines.append("reelhouse_http_request_duration_seconds_sum{\(labels)} \(histogram.sum)")
                lines.append("reelhouse_http_request_duration_seconds_count{\(labels)} \(histogram.total)")
            }
            lines.append("# HELP reelhouse_jobs Jobs in the queue by state.")
            lines.append("# TYPE reelhouse_jobs gauge")
            for (state, count) in jobsByState.sorted(by: { $0.key < $1.key }) {
                lines.append("reelhouse_jobs{state=\"\(state)\"} \(count)")
            }
            lines.append("# HELP reelhouse_transcode_seconds_total Wall-clock seconds spent in transcode jobs run by this process.")
            lines.append("# TYPE reelhouse_transcode_seconds_total counter")
            lines.append("reelhouse_transcode_seconds_total \(transcodeSeconds)")
            lines.append("# TYPE reelhouse_transcodes_total counter")
            for (outcome, count) in transcodesFinished.sorted(by: { $0.key < $1.key }) {
                lines.append("reelhouse_transcodes_total{outcome=\"\(outcome)\"} \(count)")
            }
            return lines.joined(separator: "\n") + "\n"
        }
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
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        registry.recordRequest(method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: status, seconds: seconds)
    }
}
