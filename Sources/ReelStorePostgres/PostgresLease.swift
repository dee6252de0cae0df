import Foundation
import PostgresNIO

/// A pooled connection whose wait ends when the server is gone (or after `limit` in any case),
/// and whose use ends when the pool it came from has been replaced.
///
/// `PostgresClient.withConnection` waits in the pool's queue without limit, which while the
/// server is down means as long as the pool keeps retrying. Here a task holds the pool's lease
/// and hands the connection over, while a watchdog looks in every `patience`: while the caller
/// still waits, it asks `serverAnswers` (under load the answer is yes and the caller keeps its
/// place in the queue; with the server gone the caller gives up, `ServerGone`); and once the
/// pool is no longer the store's (`isCurrent`: the server went away and came back, and a fresh
/// pool replaced this one) it ends what is left: a wait is given up, a connection still in use
/// is closed, so its query fails instead of waiting on a socket nobody will answer. The
/// caller's body runs in the caller's own task and the connection goes back to the pool when it
/// returns.
enum PostgresLease {
    struct ServerGone: Error {}

    static func withConnection<T: Sendable>(
        from client: PostgresClient, patience: Duration, limit: Duration, isCurrent: @escaping @Sendable () -> Bool,
        serverAnswers: @escaping @Sendable () async -> Bool, _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let handed = OneShot<PostgresConnection>()
        let finished = OneShot<Void>()
        // Unstructured, not children: a child must be awaited, and a lease request in a pool
        // that has been shut down may never end; the caller must be able to walk away from it.
        let holder = Task {
            do {
                try await client.withConnection { connection in
                    // Too late (the caller gave up): straight back to the pool.
                    guard handed.resolve(.success(connection)) else { return }
                    _ = try? await finished.value()
                }
            } catch {
                handed.resolve(.failure(error))
            }
        }
        // Looked at every `patience` by the one watch every lease shares (a sleeping task per
        // lease cost more than many a query it guarded). True: nothing more to watch.
        let watch = LeaseWatch.shared.watch(every: patience) { waited in
            if finished.isResolved { return true }
            if !isCurrent() {
                if case .success(let connection)? = handed.settled {
                    try? await connection.close()
                } else {
                    handed.resolve(.failure(ServerGone()))
                }
                return true
            }
            guard !handed.isResolved else { return false }
            // However the server answers, no request waits for a connection without end.
            if waited >= limit {
                handed.resolve(.failure(ServerGone()))
            } else if await !serverAnswers() {
                handed.resolve(.failure(ServerGone()))
            }
            return false
        }
        defer {
            finished.resolve(.success(()))
            LeaseWatch.shared.stop(watch)
        }
        let connection: PostgresConnection
        do {
            connection = try await withTaskCancellationHandler {
                try await handed.value()
            } onCancel: {
                handed.resolve(.failure(CancellationError()))
            }
        } catch {
            holder.cancel()
            throw error
        }
        return try await body(connection)
    }
}

/// The watchdog of every lease in flight: one task, running while there is a lease to watch,
/// calls each lease's check once per its `every` (how long it has been watched so far as the
/// argument) until the check answers true or the lease stops being watched. A check that is
/// still running is not called again; checks of different leases run concurrently, so a slow
/// probe for one does not hold up the others.
final class LeaseWatch: @unchecked Sendable {
    typealias Check = @Sendable (_ watched: Duration) async -> Bool

    static let shared = LeaseWatch(tick: .milliseconds(250))

    private struct Entry {
        let check: Check
        let started: ContinuousClock.Instant
        let every: Duration
        var due: ContinuousClock.Instant
        var running = false
    }

    private let tick: Duration
    private let lock = NSLock()
    private var entries: [UInt64: Entry] = [:]
    private var nextID: UInt64 = 0
    private var ticking = false

    init(tick: Duration) {
        self.tick = tick
    }

    /// Starts watching; the id stops it.
    func watch(every: Duration, _ check: @escaping Check) -> UInt64 {
        let now = ContinuousClock.now
        let (id, start) = lock.withLock { () -> (UInt64, Bool) in
            nextID += 1
            entries[nextID] = Entry(check: check, started: now, every: every, due: now + every)
            defer { ticking = true }
            return (nextID, !ticking)
        }
        if start { Task.detached { await self.run() } }
        return id
    }

    func stop(_ id: UInt64) {
        lock.withLock { _ = entries.removeValue(forKey: id) }
    }

    private func run() async {
        while true {
            try? await Task.sleep(for: tick)
            let now = ContinuousClock.now
            let due: [(UInt64, Check, Duration)]? = lock.withLock {
                if entries.isEmpty {
                    ticking = false
                    return nil
                }
                var due: [(UInt64, Check, Duration)] = []
                for (id, entry) in entries where !entry.running && entry.due <= now {
                    entries[id]?.running = true
                    entries[id]?.due = now + entry.every
                    due.append((id, entry.check, entry.started.duration(to: now)))
                }
                return due
            }
            guard let due else { return }
            for (id, check, watched) in due {
                Task.detached {
                    let done = await check(watched)
                    self.lock.withLock {
                        if done { self.entries[id] = nil } else { self.entries[id]?.running = false }
                    }
                }
            }
        }
    }
}

/// A value set once, awaited by one task.
final class OneShot<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?
    private var waiter: CheckedContinuation<Value, any Error>?

    var isResolved: Bool { settled != nil }

    /// The value or error, once set.
    var settled: Result<Value, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        return result
    }

    /// False when a value was already set (this one is dropped).
    @discardableResult
    func resolve(_ result: Result<Value, any Error>) -> Bool {
        let waiter: CheckedContinuation<Value, any Error>?? = lock.withLock {
            guard self.result == nil else { return .none }
            self.result = result
            defer { self.waiter = nil }
            return .some(self.waiter)
        }
        guard let waiter else { return false }
        waiter?.resume(with: result)
        return true
    }

    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            if let ready = wait(continuation) { continuation.resume(with: ready) }
        }
    }

    /// The value when already set; otherwise `continuation` waits for it.
    private func wait(_ continuation: CheckedContinuation<Value, any Error>) -> Result<Value, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        if result == nil { waiter = continuation }
        return result
    }
}

/// Runs `operation` for at most `limit`: after that the caller gets `TimedOut` and the
/// operation, cancelled, is left to end on its own. For the outage probes, which open a
/// connection of their own: one caught in PostgreSQL's restart once held its request for good.
enum Deadline {
    struct TimedOut: Error {}

    static func run(_ limit: Duration, _ operation: @escaping @Sendable () async throws -> Void) async throws {
        let outcome = OneShot<Void>()
        let work = Task {
            do {
                try await operation()
                outcome.resolve(.success(()))
            } catch {
                outcome.resolve(.failure(error))
            }
        }
        let timer = Task {
            try? await Task.sleep(for: limit)
            if outcome.resolve(.failure(TimedOut())) { work.cancel() }
        }
        defer { timer.cancel() }
        try await outcome.value()
    }
}
