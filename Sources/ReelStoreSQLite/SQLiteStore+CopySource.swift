import Foundation
import GRDB
import ReelStore

/// The library file as the source of `reelhouse migrate-store --to postgres://…`: its tables
/// as they are on disk, read a batch at a time in key order. The store only says what each
/// table is; which tables and columns are copied is for the receiving store to decide.
extension SQLiteStore: StoreCopySource {
    public func copyTables() async throws -> [CopySourceTable] {
        try await read { db in
            let tables = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name")
                .map { (name: $0["name"] as String, sql: ($0["sql"] as String?) ?? "") }
            let virtual = tables.filter { $0.sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") }.map(\.name)
            return try tables.map { table in
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(Self.quoted(table.name)))").map { $0["name"] as String }
                let isVirtual = virtual.contains(table.name)
                return CopySourceTable(
                    name: table.name, columns: columns,
                    hasRowID: !isVirtual && !table.sql.uppercased().contains("WITHOUT ROWID"),
                    notData: Self.notData(table.name, isVirtual: isVirtual, virtualTables: virtual)
                )
            }
        }
    }

    /// Why a table is not library data: SQLite's own tables, GRDB's migration ledger, and the
    /// full-text indexes (FTS5 tables and the shadow tables that store them), all rebuilt or
    /// kept their own way by any other store.
    static func notData(_ name: String, isVirtual: Bool, virtualTables: [String]) -> String? {
        if name.hasPrefix("sqlite_") { return "SQLite's own bookkeeping" }
        if name == "grdb_migrations" { return "SQLite's migration ledger (the other store keeps its own)" }
        if isVirtual { return "SQLite full-text index (the other store indexes the posts itself)" }
        if virtualTables.contains(where: { name.hasPrefix($0 + "_") }) {
            return "storage of a SQLite full-text index (the other store indexes the posts itself)"
        }
        return nil
    }

    public func copyRowCount(table: String) async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(Self.quoted(table))") ?? 0 }
    }

    public func copyRows(table: String, columns: [String], key: [String], after: [StoredValue]?, limit: Int) async throws -> [[StoredValue]] {
        precondition(!key.isEmpty, "a copy reads in key order")
        var sql = "SELECT \(columns.map(Self.quoted).joined(separator: ", ")) FROM \(Self.quoted(table))"
        var arguments = StatementArguments()
        if let after {
            // A row value compares column by column, as ORDER BY does below.
            sql += " WHERE (\(key.map(Self.quoted).joined(separator: ", "))) > (\(Array(repeating: "?", count: key.count).joined(separator: ", ")))"
            for value in after { arguments += [Self.databaseValue(value)] }
        }
        sql += " ORDER BY \(key.map(Self.quoted).joined(separator: ", ")) LIMIT \(max(1, limit))"
        let statementSQL = sql
        let statementArguments = arguments
        return try await read { db in
            var rows: [[StoredValue]] = []
            let cursor = try Row.fetchCursor(db, sql: statementSQL, arguments: statementArguments)
            while let row = try cursor.next() {
                rows.append((0..<row.count).map { Self.storedValue(row[$0] as DatabaseValue) })
            }
            return rows
        }
    }

    public func copyHighestID(table: String) async throws -> Int64? {
        try await read { db in
            guard try db.tableExists("sqlite_sequence") else { return nil }
            return try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = ?", arguments: [table])
        }
    }

    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func storedValue(_ value: DatabaseValue) -> StoredValue {
        switch value.storage {
        case .null: return .null
        case .int64(let number): return .integer(number)
        case .double(let number): return .real(number)
        case .string(let text): return .text(text)
        case .blob(let data): return .blob([UInt8](data))
        }
    }

    static func databaseValue(_ value: StoredValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let number): return number.databaseValue
        case .real(let number): return number.databaseValue
        case .text(let text): return text.databaseValue
        case .blob(let bytes): return Data(bytes).databaseValue
        }
    }
}
