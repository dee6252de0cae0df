import Foundation

/// The time and the waiting a rate limit needs, injected so tests wait on a clock of their
/// own instead of for real.
public protocol SourceClock: Sendable {
    func now() async -> Date
    /// Returns after `seconds` (or throws when the task is cancelled).
    func sleep(seconds: Double) async throws
}

/// The wall clock and real sleeps.
public struct SystemSourceClock: SourceClock {
    public init() {}

    public func now() async -> Date { Date() }

    public func sleep(seconds: Double) async throws {
        guard seconds > 0 else { return }
        try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded(.up))))
    }
}

/// How long a catalogue may make us wait and how often to retry a 429.
public struct RateLimitPolicy: Sendable, Equatable {
    /// The longest single wait; a reset further away is an error naming when to try again.
    public var maxWaitSeconds: Double
    /// 429 answers retried before giving up (per request).
    public var maxRetries: Int
    /// The wait after a 429 that says nothing about when to come back (Pexels sends no
    /// rate headers with its 429s); doubled with each further retry.
    public var fallbackBackoffSeconds: Double

    public init(maxWaitSeconds: Double = 900, maxRetries: Int = 3, fallbackBackoffSeconds: Double = 30) {
        self.maxWaitSeconds = maxWaitSeconds
        self.maxRetries = maxRetries
        self.fallbackBackoffSeconds = fallbackBackoffSeconds
    }
}

/// What the last answers said about the rate limit (`X-Ratelimit-Remaining` and
/// `X-Ratelimit-Reset`), shared by every request of one source.
actor RateLimitState {
    private(set) var remaining: Int?
    private(set) var resetsAt: Date?

    /// Records an answer's headers; an answer without them changes nothing.
    func record(remaining: Int?, resetsAt: Date?) {
        if let remaining { self.remaining = remaining }
        if let resetsAt { self.resetsAt = resetsAt }
    }

    /// Seconds to wait before the next request: until the reset when nothing remains.
    func waitBeforeRequest(now: Date) -> Double? {
        guard remaining == 0, let resetsAt, resetsAt > now else { return nil }
        return resetsAt.timeIntervalSince(now)
    }

    /// The wait is over: the allowance is back (the next answer says how much).
    func resetPassed() {
        remaining = nil
    }

    /// Seconds until the last known reset, if it is ahead.
    func secondsUntilReset(now: Date) -> Double? {
        guard let resetsAt, resetsAt > now else { return nil }
        return resetsAt.timeIntervalSince(now)
    }
}
