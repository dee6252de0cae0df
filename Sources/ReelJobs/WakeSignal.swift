import Foundation

/// Where a worker's idle slots wait for a wake-up from the store's `JobWakeupSource`. Wake-ups
/// are counted: a slot reads the count before it claims and then waits for a later one, so a
/// job that became claimable while it was claiming (and found nothing yet) is not slept past.
final class WakeSignal: @unchecked Sendable {
    private let lock = NSLock()
    private var count: UInt64 = 0
    private var subscribed = false
    private var waiters: [UUID: CheckedContinuation<Void, Never>] = [:]

    /// Wake-ups so far.
    var current: UInt64 { lock.withLock { count } }

    /// Whether the store's subscription is in place (else slots poll at the usual pace).
    var isListening: Bool {
        get { lock.withLock { subscribed } }
        set { lock.withLock { subscribed = newValue } }
    }

    /// Wakes every waiting slot; they race to claim, the losers wait again.
    func wake() {
        let woken = lock.withLock {
            count &+= 1
            defer { waiters.removeAll() }
            return Array(waiters.values)
        }
        for continuation in woken { continuation.resume() }
    }

    /// Returns once a wake-up after `seen` has happened (at once if one already has), or when
    /// the task is cancelled.
    func wait(after seen: UInt64) async {
        let id = UUID()
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waiting = lock.withLock {
                    guard count == seen, !Task.isCancelled else { return false }
                    waiters[id] = continuation
                    return true
                }
                if !waiting { continuation.resume() }
            }
        } onCancel: {
            lock.withLock { waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// `wait(after:)`, giving up after `limit`.
    func wait(after seen: UInt64, atMost limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await Task.sleep(for: limit) }
            group.addTask { await self.wait(after: seen) }
            await group.next()
            group.cancelAll()
        }
    }
}
