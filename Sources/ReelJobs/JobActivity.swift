import Foundation

/// Says "a job changed" to whoever in this process waits on one: the workers signal each claim,
/// progress write and outcome; the server's handlers (an upload's last PATCH waiting for its
/// import, a job's progress stream) and the CLI's import wait here instead of sleeping between
/// reads. The store stays the truth: a waiter reads the job again after each wake-up. A change
/// made by another node's worker sends nothing here, so waiters also give up after `atMost` and
/// read anyway.
public final class JobActivity: Sendable {
    private let signal = WakeSignal()

    public init() {}

    /// Changes so far; read it before reading a job, then wait for a later one.
    public var current: UInt64 { signal.current }

    /// Some job's state or progress changed in this process.
    public func changed() { signal.wake() }

    /// Returns once a change after `seen` has happened (at once if one already has), after
    /// `atMost`, or when the task is cancelled.
    public func wait(after seen: UInt64, atMost limit: Duration) async {
        await signal.wait(after: seen, atMost: limit)
    }
}
