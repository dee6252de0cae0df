import ReelJobs

/// ffmpeg's progress arrives on a pipe callback (synchronous); the job context wants an async
/// call. The relay keeps only the newest value, so a slow store never backs up the pipe.
struct ProgressRelay: Sendable {
    private let stream: AsyncStream<Double>
    private let continuation: AsyncStream<Double>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Double.self, bufferingPolicy: .bufferingNewest(1))
    }

    func send(_ fraction: Double) { continuation.yield(fraction) }
    func finish() { continuation.finish() }

    /// Forwards values to the job context until `finish()`; `range` maps 0…1 into the part of
    /// the job this step represents.
    func forward(to context: JobContext, range: ClosedRange<Double>) async {
        for await fraction in stream {
            await context.reportProgress(range.lowerBound + (range.upperBound - range.lowerBound) * fraction)
        }
    }
}
