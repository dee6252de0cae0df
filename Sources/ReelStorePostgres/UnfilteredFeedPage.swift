import Foundation
import Logging
import PostgresNIO
import ReelStore
import ReelStoreCore

/// The page of an unfiltered feed (what most feed requests ask for) as a prepared statement, so
/// PostgreSQL parses and plans it once per connection instead of on every request; as an
/// unnamed statement its planning took five times its run (1.0–1.2 ms against 0.2 ms on 1k posts).
/// It runs on the store's planned connections, whose sessions keep the generic plan (an index walk of
/// `posts_ready_by_shuffleN`, the plan each call would choose anyway).
///
/// postgres-nio names a prepared statement by its type and takes its SQL from the type, so each
/// of the page's 64 shapes (8 key columns × phase × with or without a position × direction) is
/// a type of its own, spelled by the four parameters. The SQL and the bindings both come from
/// `PostgresFeedSQL.unfilteredPage`, the builder the unnamed statement uses.
struct UnfilteredFeedPage<Column: FeedKeyColumn, FirstPhase: FeedShapeFlag, Positioned: FeedShapeFlag, Descending: FeedShapeFlag>:
    PostgresPreparedStatement
{
    typealias Row = FeedRow

    let userID: Int64
    let start: Int64
    let after: FeedKeyset?
    let limit: Int

    /// Short and spelled out: PostgreSQL cuts names at 63 bytes, where the default (the type's
    /// full name) would make every shape one statement.
    static var name: String {
        "reelhouse_feed_page_\(Column.index)_\(FirstPhase.value ? 1 : 2)_\(Positioned.value ? "after" : "start")_\(Descending.value ? "desc" : "asc")"
    }

    /// Built once per shape (postgres-nio asks for it on every execution).
    static var sql: String {
        StatementTexts.shared.text(for: Self.self) {
            PostgresFeedSQL.unfilteredPage(
                userID: 0, order: order(start: 0), phase: FirstPhase.value ? 0 : 1,
                after: Positioned.value ? FeedKeyset(key: 0, id: 0) : nil, limit: 0
            ).sql
        }
    }

    static func order(start: Int64) -> FeedShuffle.EpochOrder {
        FeedShuffle.EpochOrder(column: Column.index, start: start, descending: Descending.value)
    }

    func makeBindings() throws -> PostgresBindings {
        PostgresFeedSQL.unfilteredPage(
            userID: userID, order: Self.order(start: start), phase: FirstPhase.value ? 0 : 1, after: after, limit: limit
        ).bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> FeedRow { try FeedRow(row) }
}

/// The SQL of generic prepared statements by type: a generic type cannot have a stored static.
final class StatementTexts: @unchecked Sendable {
    static let shared = StatementTexts()
    private let lock = NSLock()
    private var texts: [ObjectIdentifier: String] = [:]

    func text(for type: Any.Type, _ make: () -> String) -> String {
        if let text = lock.withLock({ texts[ObjectIdentifier(type)] }) { return text }
        let text = make()
        lock.withLock { texts[ObjectIdentifier(type)] = text }
        return text
    }
}

protocol FeedKeyColumn { static var index: Int { get } }
enum FeedKey0: FeedKeyColumn { static let index = 0 }
enum FeedKey1: FeedKeyColumn { static let index = 1 }
enum FeedKey2: FeedKeyColumn { static let index = 2 }
enum FeedKey3: FeedKeyColumn { static let index = 3 }
enum FeedKey4: FeedKeyColumn { static let index = 4 }
enum FeedKey5: FeedKeyColumn { static let index = 5 }
enum FeedKey6: FeedKeyColumn { static let index = 6 }
enum FeedKey7: FeedKeyColumn { static let index = 7 }

protocol FeedShapeFlag { static var value: Bool { get } }
enum FeedShapeYes: FeedShapeFlag { static let value = true }
enum FeedShapeNo: FeedShapeFlag { static let value = false }

extension PostgresStore {
    /// An unfiltered page's rows through its prepared statement: the run-time shape picks the
    /// type, one parameter at a time. nil for a key column without its type (one per
    /// `FeedShuffle.keyCount`; the caller then runs the unnamed statement).
    func unfilteredRows(userID: Int64, order: FeedShuffle.EpochOrder, phase: Int, after: FeedKeyset?, limit: Int) async throws -> [FeedRow]? {
        let shape = UnfilteredShape(userID: userID, order: order, firstPhase: phase == 0, after: after, limit: limit)
        return try await readPlanned { connection -> [FeedRow]? in
            switch order.column {
            case 0: try await shape.rows(FeedKey0.self, on: connection, logger: logger)
            case 1: try await shape.rows(FeedKey1.self, on: connection, logger: logger)
            case 2: try await shape.rows(FeedKey2.self, on: connection, logger: logger)
            case 3: try await shape.rows(FeedKey3.self, on: connection, logger: logger)
            case 4: try await shape.rows(FeedKey4.self, on: connection, logger: logger)
            case 5: try await shape.rows(FeedKey5.self, on: connection, logger: logger)
            case 6: try await shape.rows(FeedKey6.self, on: connection, logger: logger)
            case 7: try await shape.rows(FeedKey7.self, on: connection, logger: logger)
            default: nil
            }
        }
    }
}

/// The run-time values of one page, turned into the statement type parameter by parameter.
private struct UnfilteredShape: Sendable {
    let userID: Int64
    let order: FeedShuffle.EpochOrder
    let firstPhase: Bool
    let after: FeedKeyset?
    let limit: Int

    func rows<C: FeedKeyColumn>(_ column: C.Type, on connection: PostgresConnection, logger: Logger) async throws -> [FeedRow] {
        firstPhase ? try await rows(C.self, FeedShapeYes.self, on: connection, logger: logger)
            : try await rows(C.self, FeedShapeNo.self, on: connection, logger: logger)
    }

    private func rows<C: FeedKeyColumn, P: FeedShapeFlag>(_: C.Type, _: P.Type, on connection: PostgresConnection, logger: Logger) async throws -> [FeedRow] {
        after != nil ? try await rows(C.self, P.self, FeedShapeYes.self, on: connection, logger: logger)
            : try await rows(C.self, P.self, FeedShapeNo.self, on: connection, logger: logger)
    }

    private func rows<C: FeedKeyColumn, P: FeedShapeFlag, A: FeedShapeFlag>(
        _: C.Type, _: P.Type, _: A.Type, on connection: PostgresConnection, logger: Logger
    ) async throws -> [FeedRow] {
        order.descending ? try await run(UnfilteredFeedPage<C, P, A, FeedShapeYes>.self, on: connection, logger: logger)
            : try await run(UnfilteredFeedPage<C, P, A, FeedShapeNo>.self, on: connection, logger: logger)
    }

    private func run<C: FeedKeyColumn, P: FeedShapeFlag, A: FeedShapeFlag, D: FeedShapeFlag>(_: UnfilteredFeedPage<C, P, A, D>.Type, on connection: PostgresConnection, logger: Logger) async throws -> [FeedRow] {
        var rows: [FeedRow] = []
        let statement = UnfilteredFeedPage<C, P, A, D>(userID: userID, start: order.start, after: after, limit: limit)
        for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
        return rows
    }
}
