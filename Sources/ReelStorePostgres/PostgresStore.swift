import Foundation
import Logging
import NIOCore
import PostgresNIO
import ReelStore
import ReelStoreCore
import ServiceLifecycle

/// Reelhouse's metadata (the library, accounts, the job queue, per-user state, the catalog,
/// stories) in one PostgreSQL database shared by every node, answering the `ReelStore`
/// protocols as `SQLiteStore` does; the parameterised store suites hold both to that.
///
/// Connections come from postgres-nio's pooled `PostgresClient`, bounded by `poolSize` per node
/// (`--database-pool`, default 8), so N nodes hold at most N × poolSize server connections.
/// The client does its background work in `run()`: run the store as a `Service` in the node's
/// `ServiceGroup`, or use `withStore`, which runs it for the length of a closure. Every write is
/// one transaction; instants are unix seconds in `double precision`, exactly as SQLite stores
/// them, so both stores give the same `Date` back to the bit. Connections use TLS as the URL's
/// `sslmode` says (libpq's `prefer` by default; see `PostgresTLS.swift`).
public final class PostgresStore: Sendable, Service {
    public static let defaultPoolSize = 8

    public let url: PostgresDatabaseURL
    let pool: PostgresPool
    /// Connections for the hot prepared statements only (the unfiltered feed page, the signal
    /// count), whose sessions use each statement's generic plan: PostgreSQL otherwise plans
    /// them again on every call (it prices `LIMIT $n` at a tenth of the table, so the generic
    /// plan looks dearer than it is), and planning took 3–5× their run. Not for other queries:
    /// an unnamed statement planned generic can be a bad plan (search's `LIKE $1` was). Each
    /// is shared by every caller rather than leased (`PostgresSharedConnections`).
    let planned: PostgresSharedConnections
    let availability = PostgresAvailability()
    let logger: Logger
    /// Posts listings read, by (id, revision): the store core's, shared by every listing.
    public let postCache = PostCache()

    /// Does not connect: the pool opens connections once `run()` is running. Throws only for TLS
    /// settings that cannot work (an unreadable `sslrootcert`).
    public init(url: PostgresDatabaseURL, poolSize: Int = defaultPoolSize, logger: Logger) throws {
        self.url = url
        self.logger = logger
        let configuration = try url.poolConfiguration(size: poolSize, connectTimeout: Self.connectTimeout)
        pool = PostgresPool(configuration: configuration, logger: logger)
        var plannedConfiguration = try url.connectionConfiguration(connectTimeout: Self.connectTimeout)
        plannedConfiguration.options.additionalStartupParameters = [("plan_cache_mode", "force_generic_plan")]
        planned = PostgresSharedConnections(configuration: plannedConfiguration, count: Self.plannedPoolSize(poolSize), logger: logger)
    }

    /// Half the main pool's size, at least one: a node holds at most 1.5 × `poolSize` connections.
    static func plannedPoolSize(_ poolSize: Int) -> Int { max(1, poolSize / 2) }

    /// How long a connection attempt may take before the server counts as unreachable.
    static let connectTimeout: Duration = .seconds(5)
    /// How long a query waits for a pooled connection before it asks whether the server still
    /// answers: under load the wait is the queue behind `poolSize` connections and the query
    /// waits on; with the server gone it is answered 503 rather than left hanging.
    static let leasePatience: Duration = .seconds(2)
    /// The longest a query waits for a pooled connection: then a 503 the client may retry.
    static let leaseLimit: Duration = .seconds(30)

    /// The pool's background work; returns when the task is cancelled or the service group
    /// shuts down gracefully.
    public func run() async {
        await pool.run()
        await planned.close()
    }

    /// Runs `body` with a started store: the pool runs in a child task, the server is checked
    /// first (an unreachable one is `PostgresStoreError.unreachable` at once, not a hang), the
    /// schema is brought up to date when `migrating`, and the pool is closed afterwards.
    public static func withStore<Result: Sendable>(
        url: PostgresDatabaseURL, poolSize: Int = defaultPoolSize, migrating: Bool = true, logger: Logger,
        _ body: (PostgresStore) async throws -> Result
    ) async throws -> Result {
        try await checkReachable(url, logger: logger)
        let store = try PostgresStore(url: url, poolSize: poolSize, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { await store.run() }
            defer { group.cancelAll() }
            // A lease before the client runs works but makes postgres-nio log a warning that
            // `reelhouse migrate` would print: let the child task begin first.
            await store.pool.firstPoolRuns()
            if migrating { try await store.migrate() }
            return try await body(store)
        }
    }

    /// Opens and closes one connection outside the pool: the pool retries failed connects
    /// quietly, which is right for a running server and wrong for `reelhouse migrate`.
    public static func checkReachable(_ url: PostgresDatabaseURL, logger: Logger) async throws {
        let configuration = try url.connectionConfiguration(connectTimeout: connectTimeout)
        do {
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            try await connection.close()
        } catch {
            throw PostgresStoreError.unreachable("\(url): \(Self.reason(error))")
        }
    }

    // MARK: - Queries

    /// Runs `body` on one pooled connection outside a transaction (one statement reads are
    /// already consistent on their own).
    func read<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await leased(from: pool) { connection in try await body(connection) }
    }

    /// `read` on a connection that plans prepared statements once (`planned`): only for
    /// single statements whose generic plan is known to be the right one. The connection is
    /// shared, not leased: no transactions, and nothing slow.
    func readPlanned<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await availability.admit { try await serverIsBack() }
        do {
            let connection = try await planned.connection()
            // A statement unanswered for `leaseLimit` means a socket nobody answers: closing it
            // fails what waits on it (503s), and the next statement opens a new connection.
            let watch = LeaseWatch.shared.watch(every: Self.leaseLimit) { _ in
                try? await connection.close()
                return true
            }
            defer { LeaseWatch.shared.stop(watch) }
            return try await body(connection)
        } catch {
            let error = Self.storeError(error)
            availability.record(error)
            throw error
        }
    }

    /// Runs `body` in one transaction on one pooled connection: committed when it returns,
    /// rolled back when it throws, so a failure leaves nothing half-written. (Not postgres-nio's
    /// `withTransaction`: it wraps the body's error, and callers must see their `StoreError`s.)
    func write<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction(begin: "BEGIN", body)
    }

    /// Runs a read of several statements on one snapshot (REPEATABLE READ, read only), so a
    /// post and its tags, or a page and its count, agree with each other as they do in SQLite's
    /// read transactions. Single-statement reads use `read`: a statement is its own snapshot.
    func snapshot<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", body)
    }

    private func transaction<T: Sendable>(begin: PostgresQuery, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await leased(from: pool) { connection in
            try await connection.query(begin, logger: logger)
            do {
                let value = try await body(connection)
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                // A rollback that fails means the connection is broken; the pool drops it.
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }

    /// Runs `body` on a pooled connection, unless the store knows the server is away (then
    /// `StoreError.unavailable` at once; see `PostgresAvailability`). A server that goes away
    /// during the body, or while the query waits for a connection, is recorded, so the requests
    /// after this one are answered at once.
    private func leased<T: Sendable>(from pool: PostgresPool, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await availability.admit { try await serverIsBack() }
        let client = pool.client
        do {
            return try await PostgresLease.withConnection(
                from: client, patience: Self.leasePatience, limit: Self.leaseLimit, isCurrent: { [pool] in pool.client === client },
                serverAnswers: { [url, logger, availability] in
                    await availability.serverAnswers { try await Self.probe(url, logger: logger) }
                }, body)
        } catch is PostgresLease.ServerGone {
            throw StoreError.unavailable("\(url) does not answer")
        } catch {
            let error = Self.storeError(error)
            availability.record(error)
            throw error
        }
    }

    /// `checkReachable`, for at most 3 s.
    private static func probe(_ url: PostgresDatabaseURL, logger: Logger) async throws {
        try await Deadline.run(.seconds(3)) { try await checkReachable(url, logger: logger) }
    }

    /// The probe while the store is down: the server accepts a connection again. The pool that
    /// saw it go is replaced, since its own retries may be backing off for many seconds.
    private func serverIsBack() async throws {
        try await Self.probe(url, logger: logger)
        await pool.renew()
        await planned.reset()
    }

    // MARK: - Errors

    /// Translates postgres-nio's errors into the store's one error type: SQLSTATE class 23
    /// (integrity) is a conflict, as SQLite's constraint errors are; a database that cannot be
    /// reached or is shutting down, restarting or out of connections (no server answer at all,
    /// or classes 08, 53, 57P) is `unavailable`, which the API answers with 503 and Retry-After;
    /// any other refusal is a fault (`failed`).
    static func storeError(_ error: any Error) -> any Error {
        if error is StoreError || error is PostgresStoreError || error is CancellationError { return error }
        guard let error = error as? PSQLError else { return StoreError.unavailable(reason(error)) }
        let message = error.serverInfo?[.message] ?? reason(error)
        guard let state = error.serverInfo?[.sqlState] else {
            // No server answer: the connection could not be made, or was lost or closed.
            return StoreError.unavailable(message)
        }
        switch state {
        case _ where state.hasPrefix("23"): return StoreError.conflict(message)
        case "22P02", "22003": return StoreError.invalid(message)
        case _ where state.hasPrefix("08") || state.hasPrefix("53") || state.hasPrefix("57P"): return StoreError.unavailable(message)
        default: return StoreError.failed(message)
        }
    }

    /// A human reason for a failure. PSQLError's description is deliberately vague (it may hold
    /// query text); the server's message and the underlying socket error are safe to show.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? PSQLError else { return "\(error)" }
        if let message = error.serverInfo?[.message] { return message }
        if let underlying = error.underlying { return "\(underlying)" }
        return "\(error.code)"
    }
}
