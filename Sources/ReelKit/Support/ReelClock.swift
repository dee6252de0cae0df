import Foundation

/// Where ReelKit reads the time. Everything time-based (cache TTL, story progress, offline
/// queue timestamps) takes one, so tests move time by hand instead of sleeping.
public protocol ReelClock: Sendable {
    func now() -> Date
}

public struct SystemClock: ReelClock {
    public init() {}
    public func now() -> Date { Date() }
}

/// A clock that only moves when told to: deterministic tests and previews.
public final class ManualClock: ReelClock, @unchecked Sendable {
    // NSLock rather than `Mutex`: Mutex needs iOS 18 / macOS 15, the package supports 17 / 14.
    private let lock = NSLock()
    private var current: Date

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = start
    }

    public func now() -> Date {
        lock.withLock { current }
    }

    public func advance(by seconds: TimeInterval) {
        lock.withLock { current = current.addingTimeInterval(seconds) }
    }
}
