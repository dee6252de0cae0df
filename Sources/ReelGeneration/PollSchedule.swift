/// When to ask a provider again: quickly at first (a local render finishes in seconds), then
/// backing off so a slow remote job costs a handful of requests a minute, never a tight loop.
public struct PollSchedule: Sendable, Equatable {
    public var initial: Double
    public var factor: Double
    public var maximum: Double
    /// Give up (the generation fails with a timeout) after this long without completion.
    public var deadline: Double

    public init(initial: Double = 1, factor: Double = 1.6, maximum: Double = 20, deadline: Double = 20 * 60) {
        self.initial = initial
        self.factor = factor
        self.maximum = maximum
        self.deadline = deadline
    }

    /// Seconds to wait before poll number `attempt` (0-based).
    public func delay(attempt: Int) -> Double {
        var value = initial
        for _ in 0..<max(0, attempt) {
            value *= factor
            if value >= maximum { return maximum }
        }
        return min(value, maximum)
    }

    /// Whether a job submitted `elapsed` seconds ago should still be polled.
    public func allows(elapsed: Double) -> Bool { elapsed < deadline }
}
