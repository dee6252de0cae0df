import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// Job kinds as they become claimable on any node, from `LISTEN reelhouse_jobs`: a worker
/// that found the queue empty waits on this instead of only polling, so new work starts at once
/// on whichever node is idle. A hint, not a promise: the worker still claims (another node may
/// win the job), and still polls now and then (a notification sent while it was not listening
/// is not replayed).
public struct JobWakeups: AsyncSequence, Sendable {
    public typealias Element = JobKind

    let notifications: PostgresNotificationSequence

    public func makeAsyncIterator() -> Iterator {
        Iterator(base: notifications.makeAsyncIterator())
    }

    public struct Iterator: AsyncIteratorProtocol {
        var base: PostgresNotificationSequence.AsyncIterator

        public mutating func next() async throws -> JobKind? {
            while let notification = try await base.next() {
                // Kinds this build does not know (a newer node's) wake no one here.
                if let kind = JobKind(rawValue: notification.payload) { return kind }
            }
            return nil
        }
    }
}

extension PostgresStore {
    /// Runs `body` while listening on `reelhouse_jobs`: LISTEN is in place before `body` starts,
    /// so nothing committed after that is missed. The listener has a connection of its own,
    /// outside the pool (a wait of minutes must not hold a pooled connection); it is closed when
    /// `body` returns. The sequence throws if that connection is lost.
    public func withJobWakeups<Result: Sendable>(_ body: (JobWakeups) async throws -> Result) async throws -> Result {
        let configuration = try url.connectionConfiguration(connectTimeout: Self.connectTimeout)
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        } catch {
            throw PostgresStoreError.unreachable("\(url): \(Self.reason(error))")
        }
        do {
            let result = try await connection.listen(on: Self.jobChannel) { notifications in
                try await body(JobWakeups(notifications: notifications))
            }
            try? await connection.close()
            return result
        } catch {
            try? await connection.close()
            throw Self.storeError(error)
        }
    }
}

extension PostgresStore: JobWakeupSource {
    public func listenForJobs(listening: @Sendable () -> Void, wake: @Sendable (JobKind) -> Void) async throws {
        try await withJobWakeups { wakeups in
            listening()
            for try await kind in wakeups { wake(kind) }
        }
    }
}
