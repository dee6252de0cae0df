import Foundation

/// What a rate limit says to one more event.
public enum RateLimitDecision: Sendable, Equatable {
    case allowed
    /// Over the limit: seconds until the window resets (at least 1).
    case refused(retryAfter: Int)

    /// nil when allowed.
    public var retryAfter: Int? {
        if case .refused(let seconds) = self { return seconds }
        return nil
    }
}

/// Counters per key (an IP, an account, an API key) in windows of time: the login, bad-key,
/// API and event limits. Where they live decides what they protect: `MemoryRateLimitStore`
/// (the default) counts per node; `PostgresStore` counts for every node sharing the database,
/// so API nodes keep no limit of their own.
public protocol RateLimitStore: Sendable {
    /// Counts one event, refused ones included (hammering a refused login keeps it refused).
    func hit(key: String, limit: Int, window: TimeInterval, now: Date) async throws -> RateLimitDecision

    /// Counts `count` events at once (a batch) if they all fit in the window's `limit`; a
    /// refused batch counts none of them, so it uses none of the allowance.
    func take(key: String, count: Int, limit: Int, window: TimeInterval, now: Date) async throws -> RateLimitDecision

    /// Forgets a key (a successful login clears its account's failures).
    func reset(key: String) async throws

    /// Adds `count` events to the key's window whatever it holds, and answers what it holds
    /// now: how a node that counts by itself (`BatchedRateLimitStore`) reports to the others.
    func add(key: String, count: Int, window: TimeInterval, now: Date) async throws -> RateLimitCount
}

/// What a key's window holds, and the seconds until it ends (at least 1).
public struct RateLimitCount: Sendable, Equatable {
    public var held: Int
    public var secondsLeft: Int

    public init(held: Int, secondsLeft: Int) {
        self.held = held
        self.secondsLeft = secondsLeft
    }
}

extension RateLimitStore {
    /// Whether `key` already holds `limit` events in its current window, without counting one:
    /// the seconds until that window ends when it does, nil when another event would fit.
    public func held(key: String, reaches limit: Int, window: TimeInterval, now: Date) async throws -> Int? {
        // A batch of nothing fits under `limit - 1` exactly when fewer than `limit` are held.
        try await take(key: key, count: 0, limit: limit - 1, window: window, now: now).retryAfter
    }
}

/// Fixed-window counters in this process's memory: a window starts at a key's first event.
/// Limits are per node, which is what protects a single node, at no I/O per request.
public actor MemoryRateLimitStore: RateLimitStore {
    private struct Window {
        var start: Date
        var count: Int
    }

    private var windows: [String: Window] = [:]
    private var lastPrune = Date.distantPast

    public init() {}

    public func hit(key: String, limit: Int, window: TimeInterval, now: Date) -> RateLimitDecision {
        let entry = adding(1, to: key, window: window, now: now)
        guard entry.count > limit else { return .allowed }
        return .refused(retryAfter: Self.secondsLeft(entry.start, window: window, now: now))
    }

    public func take(key: String, count: Int, limit: Int, window: TimeInterval, now: Date) -> RateLimitDecision {
        var entry = adding(0, to: key, window: window, now: now)
        guard entry.count + count <= limit else {
            return .refused(retryAfter: Self.secondsLeft(entry.start, window: window, now: now))
        }
        entry.count += count
        windows[key] = entry
        return .allowed
    }

    public func reset(key: String) {
        windows[key] = nil
    }

    public func add(key: String, count: Int, window: TimeInterval, now: Date) -> RateLimitCount {
        let entry = adding(count, to: key, window: window, now: now)
        return RateLimitCount(held: entry.count, secondsLeft: Self.secondsLeft(entry.start, window: window, now: now))
    }

    /// The key's window as of `now` (a new one once the last ended), with `count` more events.
    private func adding(_ count: Int, to key: String, window: TimeInterval, now: Date) -> Window {
        prune(now: now, window: window)
        var entry = windows[key] ?? Window(start: now, count: 0)
        if now.timeIntervalSince(entry.start) >= window { entry = Window(start: now, count: 0) }
        entry.count += count
        windows[key] = entry
        return entry
    }

    private static func secondsLeft(_ start: Date, window: TimeInterval, now: Date) -> Int {
        max(1, Int((window - now.timeIntervalSince(start)).rounded(.up)))
    }

    private func prune(now: Date, window: TimeInterval) {
        guard now.timeIntervalSince(lastPrune) > 60 else { return }
        lastPrune = now
        windows = windows.filter { now.timeIntervalSince($0.value.start) < max(window, 3600) }
    }
}
