import Foundation
import Logging
import PostgresNIO
import ReelModels
import ReelStore

/// What a store copy will do, derived from the two schemas as they are (not from a list kept
/// by hand), so a table or column added to both stores is copied without touching this code:
/// the tables both stores have, parents before children (by the foreign keys), each with the
/// PostgreSQL columns the source can fill, in primary-key order.
public struct PostgresCopyPlan: Sendable {
    public struct Table: Sendable {
        public let name: String
        /// The PostgreSQL columns written, with where each value comes from.
        let columns: [PostgresCopyColumn]
        /// The primary key, the order rows are copied in and resumed from.
        let key: [PostgresCopyColumn]
        /// What to ask the source for, in the order `PostgresCopyColumn.Source` indexes.
        let sourceColumns: [String]
        /// Columns fed by a sequence, set past the highest id once the table is copied.
        let sequenceColumns: [String]
    }

    /// A table left out, and why (said in the command's output).
    public struct Skipped: Sendable, Equatable {
        public let table: String
        public let reason: String
    }

    /// In copy order: a table after every table its foreign keys point to.
    public let tables: [Table]
    public let skipped: [Skipped]
    /// Source columns PostgreSQL has no place for (`table.column`), said in the output.
    public let droppedColumns: [String]
}

/// One written column: its type as PostgreSQL names it, and how a source row fills it.
struct PostgresCopyColumn: Sendable {
    enum Source: Sendable {
        /// The source's column at this index of `sourceColumns`.
        case column(Int)
        /// Computed from these source columns (PostgreSQL keeps a value SQLite computes on
        /// the fly, e.g. a name's case-folded key).
        case derived([Int], @Sendable ([StoredValue]) -> StoredValue)
    }

    let name: String
    let type: String
    let kind: PostgresValueKind
    let source: Source
    /// An identity column: written with OVERRIDING SYSTEM VALUE (the source's ids are kept).
    let isIdentity: Bool
    /// `GENERATED ALWAYS AS IDENTITY`: never updated by the upsert.
    let isAlwaysIdentity: Bool
}

/// PostgreSQL's side of the catalogue, read from pg_catalog.
struct PostgresCatalog: Sendable {
    struct Column: Sendable {
        let name: String
        let type: String
        let typeName: String
        let notNull: Bool
        let hasDefault: Bool
        let identity: String
        let generated: String
        let usesSequence: Bool
    }

    var columns: [String: [Column]] = [:]
    var primaryKeys: [String: [String]] = [:]
    /// Table → the tables its foreign keys reference.
    var references: [String: Set<String>] = [:]
    /// Table → its own (not constraint) triggers.
    var triggers: [String: Set<String>] = [:]

    static func read(_ connection: PostgresConnection, logger: Logger) async throws -> PostgresCatalog {
        var catalog = PostgresCatalog()
        let schema = "n.nspname = current_schema() AND c.relkind IN ('r', 'p')"
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT c.relname::text, a.attname::text, format_type(a.atttypid, a.atttypmod), t.typname::text,
                   a.attnotnull, a.atthasdef, a.attidentity::text, a.attgenerated::text,
                   coalesce(pg_get_expr(d.adbin, d.adrelid), '') LIKE 'nextval(%'
            FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            JOIN pg_type t ON t.oid = a.atttypid
            LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum
            WHERE \(schema)
            ORDER BY c.relname, a.attnum
            """), logger: logger) {
            let (table, name, type, typeName, notNull, hasDefault, identity, generated, serial) =
                try row.decode((String, String, String, String, Bool, Bool, String, String, Bool).self)
            catalog.columns[table, default: []].append(Column(
                name: name, type: type, typeName: typeName, notNull: notNull, hasDefault: hasDefault,
                identity: identity, generated: generated, usesSequence: serial || !identity.isEmpty
            ))
        }
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT c.relname::text, a.attname::text
            FROM pg_index i
            JOIN pg_class c ON c.oid = i.indrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS k(attnum, position)
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum
            WHERE i.indisprimary AND \(schema)
            ORDER BY c.relname, k.position
            """), logger: logger) {
            let (table, column) = try row.decode((String, String).self)
            catalog.primaryKeys[table, default: []].append(column)
        }
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT c.relname::text, r.relname::text
            FROM pg_constraint k
            JOIN pg_class c ON c.oid = k.conrelid
            JOIN pg_class r ON r.oid = k.confrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE k.contype = 'f' AND \(schema)
            """), logger: logger) {
            let (table, referenced) = try row.decode((String, String).self)
            catalog.references[table, default: []].insert(referenced)
        }
        for try await row in try await connection.query(PostgresQuery(unsafeSQL: """
            SELECT c.relname::text, t.tgname::text
            FROM pg_trigger t
            JOIN pg_class c ON c.oid = t.tgrelid
            JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE NOT t.tgisinternal AND \(schema)
            """), logger: logger) {
            let (table, trigger) = try row.decode((String, String).self)
            catalog.triggers[table, default: []].insert(trigger)
        }
        return catalog
    }
}

extension PostgresCopyPlan {
    /// PostgreSQL tables that hold only what PostgreSQL computes again from the copied rows:
    /// not copied (and not counted). Named here as the For You tables join the schema.
    static let rebuiltTables: [String: String] = [
        "post_neighbors": "derived: the recs.neighbors job recomputes it from the copied events",
        "length_prior": "derived: the recs.neighbors job recomputes it from the copied events",
    ]

    /// PostgreSQL columns SQLite does not store but computes when asked (an index on a
    /// function, a NOCASE column, the rowid), filled from the source row by the same Swift
    /// functions the PostgreSQL store writes them with.
    static let derivedColumns: [String: (inputs: [String], compute: @Sendable ([StoredValue]) -> StoredValue)] = {
        let vocabularyKey: (inputs: [String], compute: @Sendable ([StoredValue]) -> StoredValue) = (["name"], { values in
            guard case .text(let name) = values[0] else { return values[0] }
            return .text(TagName.key(name))
        })
        let sourceOrder: (inputs: [String], compute: @Sendable ([StoredValue]) -> StoredValue) = (["rowid"], { $0[0] })
        return [
            "tags.name_key": vocabularyKey,
            "flags.name_key": vocabularyKey,
            "collections.name_key": vocabularyKey,
            // Link rows keep their order: SQLite in the rowid, PostgreSQL in `seq`.
            "post_tag_ids.seq": sourceOrder,
            "post_flag_ids.seq": sourceOrder,
            "posts.uploader_key": (["uploader", "username"], { values in
                func text(_ value: StoredValue) -> String? { if case .text(let text) = value { return text } else { return nil } }
                return UploaderKey.key(uploader: text(values[0]), username: text(values[1])).map(StoredValue.text) ?? .null
            }),
        ]
    }()

    /// Matches the source's tables with the catalogue's.
    static func make(source: [CopySourceTable], catalog: PostgresCatalog) throws -> PostgresCopyPlan {
        var skipped: [Skipped] = []
        var dropped: [String] = []
        var tables: [String: Table] = [:]
        for table in source {
            if let reason = table.notData {
                skipped.append(Skipped(table: table.name, reason: reason))
                continue
            }
            guard let columns = catalog.columns[table.name] else {
                skipped.append(Skipped(table: table.name, reason: "not in this build's PostgreSQL schema: NOT COPIED"))
                continue
            }
            if let reason = rebuiltTables[table.name] {
                skipped.append(Skipped(table: table.name, reason: reason))
                continue
            }
            let planned = try plan(table, columns: columns, key: catalog.primaryKeys[table.name] ?? [])
            tables[table.name] = planned
            let written = Set(columns.map(\.name))
            dropped += table.columns.filter { !written.contains($0) }.map { "\(table.name).\($0)" }
        }
        return PostgresCopyPlan(
            tables: try order(tables, references: catalog.references), skipped: skipped, droppedColumns: dropped
        )
    }

    private static func plan(_ table: CopySourceTable, columns: [PostgresCatalog.Column], key: [String]) throws -> Table {
        var sourceColumns: [String] = []
        func index(_ name: String) -> Int {
            if let found = sourceColumns.firstIndex(of: name) { return found }
            sourceColumns.append(name)
            return sourceColumns.count - 1
        }
        let available = Set(table.columns + (table.hasRowID ? ["rowid"] : []))
        var written: [PostgresCopyColumn] = []
        for column in columns where column.generated.isEmpty {
            let source: PostgresCopyColumn.Source
            if table.columns.contains(column.name) {
                source = .column(index(column.name))
            } else if let derived = derivedColumns["\(table.name).\(column.name)"], derived.inputs.allSatisfy(available.contains) {
                source = .derived(derived.inputs.map(index), derived.compute)
            } else if !column.notNull || column.hasDefault || !column.identity.isEmpty {
                continue  // PostgreSQL's default (or NULL) is right for a column SQLite never had.
            } else {
                throw PostgresStoreError.copyRefused("\(table.name).\(column.name) must have a value and the SQLite library has none for it")
            }
            written.append(PostgresCopyColumn(
                name: column.name, type: column.type, kind: PostgresValueKind(typeName: column.typeName),
                source: source, isIdentity: !column.identity.isEmpty, isAlwaysIdentity: column.identity == "a"
            ))
        }
        let keyColumns = key.compactMap { name in written.first { $0.name == name && table.columns.contains(name) } }
        guard !key.isEmpty, keyColumns.count == key.count else {
            throw PostgresStoreError.copyRefused("\(table.name) has no primary key the SQLite library fills, so it cannot be copied in order")
        }
        return Table(
            name: table.name, columns: written, key: keyColumns, sourceColumns: sourceColumns,
            sequenceColumns: columns.filter { $0.usesSequence && written.map(\.name).contains($0.name) }.map(\.name)
        )
    }

    /// Parents first (a table after every table it references), ties by name; a table's
    /// references to itself are satisfied by key order (a parent's id is smaller).
    private static func order(_ tables: [String: Table], references: [String: Set<String>]) throws -> [Table] {
        var ordered: [Table] = []
        var placed: Set<String> = []
        var remaining = Set(tables.keys)
        while !remaining.isEmpty {
            let ready = remaining.filter { name in
                (references[name] ?? []).subtracting([name]).allSatisfy { placed.contains($0) || tables[$0] == nil }
            }.sorted()
            guard !ready.isEmpty else {
                throw PostgresStoreError.copyRefused("the foreign keys of \(remaining.sorted().joined(separator: ", ")) form a cycle")
            }
            for name in ready {
                ordered.append(tables[name]!)
                placed.insert(name)
                remaining.remove(name)
            }
        }
        return ordered
    }
}
