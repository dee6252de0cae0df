import Foundation
import PostgresNIO

/// A pooled connection whose wait ends when the server is gone.
///
/// `PostgresClient.withConnection` waits in the pool's queue without limit, which while the
/// server is down means as long as the pool keeps retrying. Here a child task holds the pool's
/// lease and hands the connection over, while another asks `serverAnswers` every `patience`
/// the caller has waited: under load the answer is yes and the caller keeps its place in the
/// queue; when the server is gone the caller gives up (`ServerGone`) and the child's lease
/// request is cancelled. The caller's body runs in the caller's own task and the connection goes
/// back to the pool when it returns.
enum PostgresLease {
    struct ServerGone: Error {}

    static func withConnection<T: Sendable>(
        from client: PostgresClient, patience: Duration, serverAnswers: @escaping @Sendable () async -> Bool,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let handed = OneShot<PostgresConnection>()
        let finished = OneShot<Void>()
        return try await withThrowingTaskGroup(of: Void.self, returning: T.self) { group in
            group.addTask {
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
            group.addTask {
                while !handed.isResolved {
                    do { try await Task.sleep(for: patience) } catch { return }
                    if handed.isResolved { return }
                    if await !serverAnswers() { handed.resolve(.failure(ServerGone())) }
                }
            }
            defer {
                finished.resolve(.success(()))
                group.cancelAll()
            }
            return try await body(try await handed.value())
        }
    }
}

/// A value set once, awaited by one task.
final class OneShot<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<Value, any Error>?
    private var waiter: CheckedContinuation<Value, any Error>?

    var isResolved: Bool {
        lock.lock()
        defer { lock.unlock() }
        return result != nil
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
