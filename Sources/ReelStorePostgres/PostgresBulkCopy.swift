import Foundation
import Logging
import PostgresNIO
import ReelStore

/// Copies a library from another store (the SQLite file) into this PostgreSQL database:
/// `reelhouse migrate-store --to postgres://…`.
///
/// Table by table (parents first), in primary-key order, a batch per transaction. Each batch
/// also records its table in `reelhouse_store_copy`, so a copy that stops anywhere (a crash, a
/// lost connection, Ctrl-C) has committed whole batches only and resumes after the largest key
/// PostgreSQL holds. Rows are upserted by key, so a row the migrations seeded (library 1) takes
/// the library's values. Triggers that compute what the source already stores (revisions, the
/// default library grant) are off while a batch is written, so rows arrive exactly as they
/// were; other triggers (whatever PostgreSQL derives itself) stay on. Each table's sequences
/// end past the highest id the source ever handed out, so new rows never reuse an id.
public struct PostgresBulkCopy: Sendable {
    /// One batch: at most this many rows, and at most `maximumParameters` bound values.
    public static let defaultBatchSize = 1000
    static let maximumParameters = 30_000

    /// Triggers that recompute what a copied row already holds: off while copying.
    static let verbatimTriggers: [String: [String]] = [
        "users": ["users_granted_default_library"],
        "posts": ["posts_revision_on_update"],
        "post_tag_ids": ["post_tag_ids_revision"],
        "post_flag_ids": ["post_flag_ids_revision"],
        "tags": ["tags_revision_on_rename"],
        "flags": ["flags_revision_on_rename"],
    ]

    /// The search index's triggers (`Schema.search`): off while copying, the index rebuilt once
    /// at the end (`rebuildSearchIndex`). On, they rewrote each batch's posts twice (once for
    /// the post, again for its tag links) through two GIN indexes, and the copy of 1M posts
    /// slowed to 1.5k rows/s.
    static let searchTriggers: [String: [String]] = [
        "posts": ["posts_search_on_insert", "posts_search_on_update"],
        "post_tag_ids": ["post_tag_ids_search_on_insert"],
    ]

    /// Posts re-indexed per statement when the search index is rebuilt.
    static let searchBatch = 5000

    /// Tables a fresh migration fills itself; any other table with rows and no copy ledger
    /// means the database is in use, and a copy would collide with it.
    static let seededTables: Set<String> = ["libraries"]
    static let ledger = "reelhouse_store_copy"

    /// Rows copied so far, for a progress bar.
    public struct Progress: Sendable {
        public enum Phase: Sendable {
            /// Rows of `table` being copied.
            case copying
            /// The search index being rebuilt once the rows are in (`tableCopied` of
            /// `tableTotal` posts indexed).
            case indexing
        }

        public var phase: Phase = .copying
        public let table: String
        public let tableCopied: Int
        public let tableTotal: Int
        public let copied: Int
        public let total: Int
    }

    /// One table's rows in each store after the copy.
    public struct Count: Sendable, Equatable {
        public let table: String
        public let source: Int
        public let postgres: Int
        public var matches: Bool { source == postgres }
    }

    public struct Report: Sendable {
        public let plan: PostgresCopyPlan
        /// Rows written by this run.
        public let copied: Int
        /// False when the run stopped at `stopAfter` before the end.
        public let finished: Bool
        /// Row counts per copied table (only when finished).
        public let counts: [Count]
        public var mismatches: [Count] { counts.filter { !$0.matches } }
    }

    let store: PostgresStore
    let source: any StoreCopySource
    let batchSize: Int

    public init(store: PostgresStore, source: any StoreCopySource, batchSize: Int = defaultBatchSize) {
        self.store = store
        self.source = source
        self.batchSize = max(1, batchSize)
    }

    /// What would be copied, without writing anything.
    public func plan() async throws -> PostgresCopyPlan {
        let catalog = try await store.read { connection in try await PostgresCatalog.read(connection, logger: store.logger) }
        return try PostgresCopyPlan.make(source: try await source.copyTables(), catalog: catalog)
    }

    /// Copies what is not copied yet, then counts. `stopAfter` ends the run once that many rows
    /// were written (whole batches), leaving a copy to resume: a test's interruption.
    public func run(stopAfter: Int? = nil, progress: @Sendable (Progress) -> Void = { _ in }) async throws -> Report {
        let plan = try await plan()
        let catalog = try await store.read { connection in try await PostgresCatalog.read(connection, logger: store.logger) }
        let started = try await openLedger(plan)
        var totals: [String: Int] = [:]
        for table in plan.tables { totals[table.name] = try await source.copyRowCount(table: table.name) }
        let total = totals.values.reduce(0, +)
        var done = try await store.read { connection in
            try await connection.query(PostgresQuery(unsafeSQL: "SELECT coalesce(sum(copied_rows), 0)::bigint FROM \(Self.ledger)"), logger: store.logger)
                .collect().first?.decode(Int64.self) ?? 0
        }
        var copied = 0
        let triggers = catalog.triggers
        for table in plan.tables {
            guard started[table.name] != true else { continue }  // finished earlier
            var after = started[table.name] == nil ? nil : try await largestKey(table)
            // Resumed: what an earlier run wrote of this table counts as done.
            var tableCopied = after == nil ? 0 : try await store.read { connection in
                try await Self.countRows(connection, table.name, logger: store.logger)
            }
            while true {
                if let stopAfter, copied >= stopAfter {
                    return Report(plan: plan, copied: copied, finished: false, counts: [])
                }
                let rowsPerBatch = min(batchSize, max(1, Self.maximumParameters / max(1, table.columns.count)))
                let rows = try await source.copyRows(
                    table: table.name, columns: table.sourceColumns, key: table.key.map(\.sourceName), after: after, limit: rowsPerBatch
                )
                if rows.isEmpty { break }
                try await write(rows, into: table, triggers: triggers)
                after = table.key.map { $0.value(in: rows[rows.count - 1]) }
                copied += rows.count
                done += Int64(rows.count)
                tableCopied += rows.count
                progress(Progress(table: table.name, tableCopied: tableCopied, tableTotal: totals[table.name] ?? 0,
                                  copied: Int(done), total: total))
            }
            try await finish(table)
        }
        // Planner statistics now, not whenever autovacuum gets to them: until then PostgreSQL
        // takes a freshly copied table for a handful of rows (the feed's page on 1k posts read
        // 696 of them through a bitmap and sorted them, 0.8–3 ms, instead of walking its index
        // for 11, 0.2 ms; the search index's rebuild ran at half speed).
        try await store.read { connection in _ = try await connection.query("ANALYZE", logger: store.logger) }
        try await rebuildSearchIndex(done: Int(done), total: total, progress: progress)
        try await store.read { connection in _ = try await connection.query("ANALYZE post_search_fields", logger: store.logger) }
        return Report(plan: plan, copied: copied, finished: true, counts: try await counts(plan))
    }

    /// Every copied table's rows in both stores.
    public func counts(_ plan: PostgresCopyPlan) async throws -> [Count] {
        var counts: [Count] = []
        for table in plan.tables {
            let postgres = try await store.read { connection in try await Self.countRows(connection, table.name, logger: store.logger) }
            counts.append(Count(table: table.name, source: try await source.copyRowCount(table: table.name), postgres: postgres))
        }
        return counts
    }

    // MARK: - Steps

    /// Creates the ledger on a first run, refusing a database that already holds a library;
    /// returns each table the ledger knows, with whether it is finished.
    private func openLedger(_ plan: PostgresCopyPlan) async throws -> [String: Bool] {
        try await store.write { connection in
            let logger = store.logger
            let exists = try await connection.query("SELECT to_regclass(\(Self.ledger)) IS NOT NULL", logger: logger)
                .collect().first?.decode(Bool.self) ?? false
            if !exists {
                for table in plan.tables where !Self.seededTables.contains(table.name) {
                    let rows = try await Self.countRows(connection, table.name, logger: logger)
                    guard rows == 0 else {
                        throw PostgresStoreError.copyRefused(
                            "\(store.url.database) already holds \(rows) row(s) in \(table.name) and was not filled by migrate-store: copy into an empty database"
                        )
                    }
                }
                try await connection.query(PostgresQuery(unsafeSQL: """
                    CREATE TABLE \(Self.ledger) (
                        table_name text PRIMARY KEY,
                        copied_rows bigint NOT NULL DEFAULT 0,
                        finished boolean NOT NULL DEFAULT false,
                        updated_at timestamptz NOT NULL DEFAULT now()
                    )
                    """), logger: logger)
            }
            var started: [String: Bool] = [:]
            for try await row in try await connection.query(PostgresQuery(unsafeSQL: "SELECT table_name, finished FROM \(Self.ledger)"), logger: logger) {
                let (name, finished) = try row.decode((String, Bool).self)
                started[name] = finished
            }
            return started
        }
    }

    /// The key of the last row copied (rows arrive in key order), nil when there is none.
    private func largestKey(_ table: PostgresCopyPlan.Table) async throws -> [StoredValue]? {
        let select = table.key.map { $0.kind.keySelect(quoted($0.name)) }.joined(separator: ", ")
        let order = table.key.map { $0.kind.keyOrder(quoted($0.name)) + " DESC" }.joined(separator: ", ")
        return try await store.read { connection in
            guard let row = try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT \(select) FROM \(quoted(table.name)) ORDER BY \(order) LIMIT 1"), logger: store.logger
            ).collect().first else { return nil }
            let cells = Array(row)
            return try zip(table.key, cells).map { column, cell in try column.kind.storedValue(cell) }
        }
    }

    /// One batch in one transaction: the rows (upserted by key) and the ledger's count.
    private func write(_ rows: [[StoredValue]], into table: PostgresCopyPlan.Table, triggers: [String: Set<String>]) async throws {
        var bindings = PostgresBindings()
        var tuples: [String] = []
        tuples.reserveCapacity(rows.count)
        for row in rows {
            var placeholders: [String] = []
            for column in table.columns {
                let value = column.value(in: row)
                do {
                    try column.kind.bind(value, to: &bindings)
                } catch {
                    throw PostgresStoreError.copyFailed(table: table.name, reason: "\(column.name) cannot hold \(value) (\(column.type))")
                }
                placeholders.append("$\(bindings.count)::\(column.type)")
            }
            tuples.append("(" + placeholders.joined(separator: ", ") + ")")
        }
        let insert = Self.insertSQL(table) + tuples.joined(separator: ", ") + Self.conflictSQL(table)
        let paused = Self.verbatimTriggers.merging(Self.searchTriggers, uniquingKeysWith: +).flatMap { name, list in
            list.filter { triggers[name]?.contains($0) == true }.map { (table: name, trigger: $0) }
        }
        do {
            try await store.write { connection in
                let logger = store.logger
                for item in paused {
                    try await connection.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(quoted(item.table)) DISABLE TRIGGER \(quoted(item.trigger))"), logger: logger)
                }
                try await connection.query(PostgresQuery(unsafeSQL: insert, binds: bindings), logger: logger)
                for item in paused {
                    try await connection.query(PostgresQuery(unsafeSQL: "ALTER TABLE \(quoted(item.table)) ENABLE TRIGGER \(quoted(item.trigger))"), logger: logger)
                }
                try await connection.query("""
                    INSERT INTO reelhouse_store_copy (table_name, copied_rows) VALUES (\(table.name), \(Int64(rows.count)))
                    ON CONFLICT (table_name) DO UPDATE SET copied_rows = reelhouse_store_copy.copied_rows + EXCLUDED.copied_rows, updated_at = now()
                    """, logger: logger)
            }
        } catch let error as StoreError {
            throw PostgresStoreError.copyFailed(table: table.name, reason: "\(error)")
        }
    }

    /// Writes the search rows of every ready post the index does not hold yet, in id order and
    /// a batch per transaction, so a run that stops here resumes after the last batch written.
    /// Every later run finds nothing to do (`reelhouse_search_reindex` is what the triggers
    /// call, so the rows are the ones a live store writes).
    private func rebuildSearchIndex(done: Int, total: Int, progress: @Sendable (Progress) -> Void) async throws {
        let logger = store.logger
        let (first, last, posts, held) = try await store.read { connection in
            let rows = try await connection.query("""
                SELECT coalesce((SELECT max(post_id) FROM post_search_fields), 0)::bigint, coalesce(max(id), 0)::bigint,
                       count(*)::bigint, (SELECT count(*) FROM post_search_fields)::bigint
                FROM posts WHERE status = 'ready'
                """, logger: logger).collect()
            guard let row = rows.first else { return (Int64(0), Int64(0), Int64(0), Int64(0)) }
            return try row.decode((Int64, Int64, Int64, Int64).self)
        }
        var after = first
        var indexed = held
        while after < last {
            let upTo = after + Int64(Self.searchBatch)
            indexed += try await store.write { connection in
                let rows = try await connection.query("""
                    WITH batch AS (SELECT ARRAY(SELECT id FROM posts WHERE status = 'ready' AND id > \(after) AND id <= \(upTo)) AS ids)
                    SELECT cardinality(ids)::bigint FROM batch, LATERAL reelhouse_search_reindex(ids)
                    """, logger: logger).collect()
                return try rows.first?.decode(Int64.self) ?? 0
            }
            after = upTo
            progress(Progress(phase: .indexing, table: "post_search_fields", tableCopied: Int(indexed), tableTotal: Int(posts), copied: done, total: total))
        }
    }

    /// Marks the table finished and moves its sequences past every id the source handed out.
    private func finish(_ table: PostgresCopyPlan.Table) async throws {
        var floors: [String: Int64] = [:]
        if table.sequenceColumns.count == 1, let highest = try await source.copyHighestID(table: table.name) {
            floors[table.sequenceColumns[0]] = highest
        }
        try await store.write { connection in
            let logger = store.logger
            for column in table.sequenceColumns {
                let floor = floors[column] ?? 0
                try await connection.query(PostgresQuery(unsafeSQL: """
                    SELECT setval(pg_get_serial_sequence('\(quoted(table.name))', '\(column)'), greatest(m, 1), m > 0)
                    FROM (SELECT greatest(coalesce(max(\(quoted(column))), 0), \(floor))::bigint AS m FROM \(quoted(table.name))) AS highest
                    """), logger: logger)
            }
            try await connection.query("""
                INSERT INTO reelhouse_store_copy (table_name, finished) VALUES (\(table.name), true)
                ON CONFLICT (table_name) DO UPDATE SET finished = true, updated_at = now()
                """, logger: logger)
        }
    }

    // MARK: - SQL

    static func countRows(_ connection: PostgresConnection, _ table: String, logger: Logger) async throws -> Int {
        let rows = try await connection.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(quoted(table))"), logger: logger).collect()
        return Int(try rows.first?.decode(Int64.self) ?? 0)
    }

    static func insertSQL(_ table: PostgresCopyPlan.Table) -> String {
        let overriding = table.columns.contains(where: \.isIdentity) ? " OVERRIDING SYSTEM VALUE" : ""
        return "INSERT INTO \(quoted(table.name)) (\(table.columns.map { quoted($0.name) }.joined(separator: ", ")))\(overriding) VALUES "
    }

    static func conflictSQL(_ table: PostgresCopyPlan.Table) -> String {
        let keys = Set(table.key.map(\.name))
        let updated = table.columns.filter { !keys.contains($0.name) && !$0.isAlwaysIdentity }
        let target = " ON CONFLICT (\(table.key.map { quoted($0.name) }.joined(separator: ", ")))"
        guard !updated.isEmpty else { return target + " DO NOTHING" }
        return target + " DO UPDATE SET " + updated.map { "\(quoted($0.name)) = EXCLUDED.\(quoted($0.name))" }.joined(separator: ", ")
    }
}

/// An identifier as SQL text.
func quoted(_ identifier: String) -> String {
    "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}

extension PostgresCopyColumn {
    /// This column's value in a row of the source columns.
    func value(in row: [StoredValue]) -> StoredValue {
        switch source {
        case .column(let index): return row[index]
        case .derived(let indexes, let compute): return compute(indexes.map { row[$0] })
        }
    }

    /// The source column a key column is read from (keys are always source columns).
    var sourceName: String { name }
}
