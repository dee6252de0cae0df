import Foundation

/// Fixed-window counters per key (an IP, an account, an API key). In memory: limits are per
/// node, which is what protects each node; a shared store can replace this behind the same API.
public actor RateLimiter {
    private struct Window {
        var start: Date
        var count: Int
    }

    private var windows: [String: Window] = [:]
    private var lastPrune = Date.distantPast

    public init() {}

    /// Counts one event; returns nil if allowed, or the seconds until the window resets.
    public func hit(_ key: String, limit: Int, window: TimeInterval, now: Date) -> Int? {
        prune(now: now, window: window)
        var entry = windows[key] ?? Window(start: now, count: 0)
        if now.timeIntervalSince(entry.start) >= window { entry = Window(start: now, count: 0) }
        entry.count += 1
        windows[key] = entry
        guard entry.count > limit else { return nil }
        return max(1, Int((window - now.timeIntervalSince(entry.start)).rounded(.up)))
    }

    /// Counts `count` events at once (a batch) if they all fit in the window's `limit`; returns
    /// nil if they did, or the seconds until the window resets, counting none of them: a
    /// refused batch is stored nowhere, so it uses none of the allowance.
    public func take(_ key: String, count: Int, limit: Int, window: TimeInterval, now: Date) -> Int? {
        prune(now: now, window: window)
        var entry = windows[key] ?? Window(start: now, count: 0)
        if now.timeIntervalSince(entry.start) >= window { entry = Window(start: now, count: 0) }
        guard entry.count + count <= limit else {
            windows[key] = entry
            return max(1, Int((window - now.timeIntervalSince(entry.start)).rounded(.up)))
        }
        entry.count += count
        windows[key] = entry
        return nil
    }

    /// Forgets a key (a successful login clears its account's failures).
    public func reset(_ key: String) {
        windows[key] = nil
    }

    private func prune(now: Date, window: TimeInterval) {
        guard now.timeIntervalSince(lastPrune) > 60 else { return }
        lastPrune = now
        windows = windows.filter { now.timeIntervalSince($0.value.start) < max(window, 3600) }
    }
}
