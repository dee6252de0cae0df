import Foundation
import ReelJobs
import ReelModels

/// Wraps a job handler to count the wall-clock seconds spent in it, for
/// `reelhouse_transcode_seconds_total` on `/metrics`.
public struct MeasuredJobHandler: JobHandler {
    let inner: any JobHandler
    let metrics: MetricsRegistry

    public init(_ inner: any JobHandler, metrics: MetricsRegistry) {
        self.inner = inner
        self.metrics = metrics
    }

    public var kind: JobKind { inner.kind }

    public func run(_ job: Job, context: JobContext) async throws -> JobOutcome {
        let start = ContinuousClock.now
        do {
            let outcome = try await inner.run(job, context: context)
            metrics.recordTranscode(seconds: Self.seconds(since: start), outcome: "succeeded")
            return outcome
        } catch {
            metrics.recordTranscode(seconds: Self.seconds(since: start), outcome: error is CancellationError ? "interrupted" : "failed")
            throw error
        }
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
