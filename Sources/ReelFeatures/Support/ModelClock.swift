import Foundation
import ReelKit

/// The time the screen models read and wait on. A debounce or a retry waits on this clock, not
/// on `Task.sleep`, so tests move time by hand (`ManualModelClock`) instead of sleeping.
public protocol ModelClock: ReelClock {
    /// Returns after `seconds`; throws `CancellationError` when the waiting task is cancelled.
    func sleep(seconds: TimeInterval) async throws
}

public struct SystemModelClock: ModelClock {
    public init() {}
    public func now() -> Date { Date() }
    public func sleep(seconds: TimeInterval) async throws {
        try await Task.sleep(for: .milliseconds(Int((seconds * 1000).rounded())))
    }
}

/// A clock that moves only when told to. Sleepers wake when `advance(by:)` passes their
/// deadline, in deadline order; a cancelled sleeper wakes at once with `CancellationError`.
public final class ManualModelClock: ModelClock, @unchecked Sendable {
    private struct Sleeper {
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    // NSLock rather than `Mutex`: Mutex needs iOS 18, the package supports 17.
    private let lock = NSLock()
    private var current: Date
    private var sleepers: [UUID: Sleeper] = [:]

    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = start
    }

    public func now() -> Date { lock.withLock { current } }

    /// How many tasks are waiting on this clock: a test waits for a debounce to start sleeping
    /// before it moves time.
    public var sleeperCount: Int { lock.withLock { sleepers.count } }

    public func sleep(seconds: TimeInterval) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let wakeNow: Bool = lock.withLock {
                    if Task.isCancelled { return true }
                    if seconds <= 0 { return true }
                    sleepers[id] = Sleeper(deadline: current.addingTimeInterval(seconds), continuation: continuation)
                    return false
                }
                if wakeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let sleeper = lock.withLock { sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    public func advance(by seconds: TimeInterval) {
        let due: [Sleeper] = lock.withLock {
            current = current.addingTimeInterval(seconds)
            let ready = sleepers.filter { $0.value.deadline <= current }
            for id in ready.keys { sleepers[id] = nil }
            return ready.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
