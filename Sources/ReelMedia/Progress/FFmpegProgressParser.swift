import ReelHLS

/// Reads ffmpeg's `-progress pipe:1` output (key=value lines in blocks ending with
/// `progress=continue` or `progress=end`) and turns it into a 0…1 fraction of the source.
///
/// Only block ends produce a value, so a caller updating a database does so at ffmpeg's own
/// pace (about twice a second), not once per line.
public struct FFmpegProgressParser: Sendable {
    private let duration: Double
    private var latestMicroseconds: Int64?
    private var lastReported: Double = 0

    /// `duration` in seconds (the plan's duration); ≤ 0 means unknown: only `end` reports (1.0).
    public init(duration: Double) {
        self.duration = duration
    }

    /// Returns the new fraction when a block ends, else nil. Never goes backwards, and 1.0 only
    /// on `progress=end` (an encoder running slightly past the source duration must not claim
    /// to be finished before it is).
    public mutating func consume(line: String) -> Double? {
        let trimmed = line.trimmingWhitespace()
        guard let equals = trimmed.firstIndex(of: "=") else { return nil }
        let key = trimmed[..<equals], value = trimmed[trimmed.index(after: equals)...]
        switch key {
        case "out_time_us", "out_time_ms":
            // ffmpeg 5.1 prints microseconds under both names (out_time_ms is misnamed).
            if let microseconds = Int64(value), microseconds >= 0 { latestMicroseconds = microseconds }
            return nil
        case "progress":
            if value == "end" {
                lastReported = 1
                return 1
            }
            guard duration > 0, let microseconds = latestMicroseconds else { return nil }
            let fraction = min(0.999, max(lastReported, Double(microseconds) / 1_000_000 / duration))
            lastReported = fraction
            return fraction
        default:
            return nil
        }
    }
}
