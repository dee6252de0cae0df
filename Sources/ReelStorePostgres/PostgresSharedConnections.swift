import Foundation
import Logging
import PostgresNIO
import ReelStore

/// A few connections for the hot prepared statements (the unfiltered feed page, the signal
/// count), each shared by every caller: postgres-nio queues the statements sent to one
/// connection and sends each as soon as the one before it is answered, so a statement here
/// costs no lease. A pooled lease was most of a statement's cost on the node: a task holding
/// the lease and another watching it, the pool's state machine, and an idle timer and a
/// keep-alive timer started each time the connection went back idle and stopped when it was
/// leased again (each a task of its own).
///
/// Only for single statements (no transactions: another caller's statements may run between
/// two of one caller's) that are answered quickly (a slow one holds up those queued behind it).
/// Connections are opened on first use and again when one is found closed; a connection that
/// cannot be opened is the caller's error, which the store turns into `unavailable` and its
/// circuit breaker (`PostgresAvailability`) handles as a failed pooled query.
final class PostgresSharedConnections: @unchecked Sendable {
    private enum Slot {
        case empty
        case connecting(id: Int, Task<PostgresConnection, any Error>)
        case open(PostgresConnection)
    }

    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private let lock = NSLock()
    private var slots: [Slot]
    private var turn = 0
    private var nextID = 0
    private var shutDown = false

    init(configuration: PostgresConnection.Configuration, count: Int, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        slots = Array(repeating: .empty, count: max(1, count))
    }

    var count: Int { slots.count }

    /// An open connection: the slots are taken in turn.
    func connection() async throws -> PostgresConnection {
        let (index, found) = try lock.withLock { () throws -> (Int, Slot) in
            guard !shutDown else { throw StoreError.unavailable("the store has been shut down") }
            let index = turn
            turn = (turn + 1) % slots.count
            switch slots[index] {
            case .open(let connection) where !connection.isClosed:
                return (index, slots[index])
            case .connecting:
                return (index, slots[index])
            case .empty, .open:
                nextID += 1
                let id = nextID
                let task = Task { [configuration, logger] in
                    try await PostgresConnection.connect(configuration: configuration, id: 100_000 + id, logger: logger)
                }
                slots[index] = .connecting(id: id, task)
                return (index, slots[index])
            }
        }
        switch found {
        case .open(let connection):
            return connection
        case .connecting(let id, let task):
            do {
                let connection = try await task.value
                // Every caller that waited for the connection takes it; the first puts it in place.
                let kept = lock.withLock { () -> Bool in
                    guard !shutDown else { return false }
                    switch slots[index] {
                    case .connecting(let current, _) where current == id:
                        slots[index] = .open(connection)
                        return true
                    case .open(let current):
                        return current === connection
                    default:
                        return false
                    }
                }
                if kept { return connection }
                // Reset (or shut down) while it opened: `closeAll` closes it; ask again.
                try? await connection.close()
                return try await self.connection()
            } catch {
                lock.withLock {
                    if case .connecting(let current, _) = slots[index], current == id { slots[index] = .empty }
                }
                throw error
            }
        case .empty:
            preconditionFailure("a slot is taken open or connecting")
        }
    }

    /// Closes every connection; the next caller opens new ones (after an outage, the old ones
    /// may wait on a socket nobody answers).
    func reset() async {
        await closeAll(finally: false)
    }

    /// Closes every connection for good.
    func close() async {
        await closeAll(finally: true)
    }

    private func closeAll(finally: Bool) async {
        let old = lock.withLock { () -> [Slot] in
            if finally { shutDown = true }
            defer { slots = Array(repeating: .empty, count: slots.count) }
            return slots
        }
        for slot in old {
            switch slot {
            case .open(let connection):
                try? await connection.close()
            case .connecting(_, let task):
                if let connection = try? await task.value { try? await connection.close() }
            case .empty:
                break
            }
        }
    }
}
