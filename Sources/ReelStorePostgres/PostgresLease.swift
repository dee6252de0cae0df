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
        let watchdog = Task {
            var waited: Duration = .zero
            while !finished.isResolved {
                do { try await Task.sleep(for: patience) } catch { return }
                waited += patience
                if finished.isResolved { return }
                if !isCurrent() {
                    if case .success(let connection)? = handed.settled {
                        try? await connection.close()
                    } else {
                        handed.resolve(.failure(ServerGone()))
                    }
                    return
                }
                guard !handed.isResolved else { continue }
                // However the server answers, no request waits for a connection without end.
                if waited >= limit {
                    handed.resolve(.failure(ServerGone()))
                } else if await !serverAnswers() {
                    handed.resolve(.failure(ServerGone()))
                }
            }
        }
        defer {
            finished.resolve(.success(()))
            watchdog.cancel()
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
